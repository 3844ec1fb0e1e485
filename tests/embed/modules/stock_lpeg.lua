-- stock_lpeg.lua -- Debian's lua-lpeg (built for stock Lua 5.4), loaded
-- with require from its Debian cpath and exercised with a small grammar.
-- Exit status 77 (skip) when the package is not installed.
if not package.searchpath("lpeg", package.cpath) then
  print("lpeg not installed: skipped"); os.exit(77)
end
local lpeg = require "lpeg"
local P, R, S, V, C, Ct, Cc = lpeg.P, lpeg.R, lpeg.S, lpeg.V, lpeg.C, lpeg.Ct, lpeg.Cc
assert(lpeg.version():match("^%d"))

-- arithmetic expressions: evaluated through captures and folds
local space = S" \t"^0
local number = C(P"-"^-1 * R"09"^1) / tonumber * space
local function op(c) return C(S(c)) * space end
local function fold(t)
  local acc = t[1]
  for i = 2, #t, 2 do
    local o, v = t[i], t[i + 1]
    if o == "+" then acc = acc + v elseif o == "-" then acc = acc - v
    elseif o == "*" then acc = acc * v else acc = acc // v end
  end
  return acc
end
local G = P{ "Exp",
  Exp = Ct(V"Term" * (op"+-" * V"Term")^0) / fold,
  Term = Ct(V"Factor" * (op"*/" * V"Factor")^0) / fold,
  Factor = number + P"(" * space * V"Exp" * P")" * space,
}
local expr = space * G * -1
assert(expr:match("1 + 2 * 3") == 7)
assert(expr:match("(1 + 2) * 3 - -4") == 13)
assert(expr:match("2 * (3 + 4) * (5 - 1) / 7") == 8)
assert(expr:match("1 +") == nil)

-- splitting, substitution, positions, back-tracking over long subjects
local function split(s, sep)
  local elem = C((1 - P(sep))^0)
  return lpeg.match(Ct(elem * (P(sep) * elem)^0), s)
end
local parts = split("a,b,,c", ",")
assert(#parts == 4 and parts[1] == "a" and parts[3] == "" and parts[4] == "c")
local gsub = lpeg.Cs((P"cat" / "dog" + 1)^0)
assert(gsub:match("cat concat category") == "dog condog dogegory")
local big = string.rep("ab", 50000) .. "c"
assert(lpeg.match((P"ab")^0 * P"c" * lpeg.Cp(), big) == #big + 1)
local words = Ct((C(R("az", "AZ")^1) + 1)^0):match(("word "):rep(2000))
assert(#words == 2000 and words[2000] == "word")
assert(lpeg.match(Cc(1, 2) * P"x", "x") == 1)
collectgarbage()
print("lpeg ok")
