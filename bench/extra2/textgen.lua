-- textgen.lua: text generation and rewriting: records formatted with
-- string.format and .., lines accumulated with .. in a loop (quadratic-free:
-- one line at a time) and in a table for table.concat, then read back with
-- gmatch, rewritten with gsub and a function callback (template expansion,
-- case changes), and a key=value parser with a table-valued gsub.
-- usage: mvm bench/extra2/textgen.lua [n]   (default 100000)
-- Self-check: the parsed numbers and the rewritten text's length against
-- values computed directly.
local n = tonumber(arg and arg[1]) or 100000
local fmt, concat = string.format, table.concat
local names = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta"}

-- generate: one line per record
local lines = {}
for i = 1, n do
  local name = names[i % #names + 1]
  local line = name .. "-" .. i .. ": " .. fmt("%5d %8.3f %s", i * 3 % 1000, i / 7, name:upper())
  if i % 4 == 0 then line = line .. " note=" .. fmt("%x", i) end
  lines[#lines + 1] = line
end
local text = concat(lines, "\n")

-- parse back: numbers in columns, sums
local isum, fsum, count = 0, 0.0, 0
for name, idx, a, b in text:gmatch("(%a+)%-(%d+): +(%d+) +([%d%.]+)") do
  count = count + 1
  isum = isum + tonumber(a) + tonumber(idx)
  fsum = fsum + tonumber(b)
  assert(#name >= 3)
end
local notes = 0
for h in text:gmatch("note=(%x+)") do notes = notes + tonumber(h, 16) end

-- template expansion with a callback and a table
local vars = {who = "world", n = "42", what = "templates"}
local tmpl = "hello ${who}, ${n} ${what} and ${missing}; "
local out, expanded = {}, 0
for i = 1, n // 4 do
  vars.n = tostring(i)
  out[#out + 1] = tmpl:gsub("%${(%w+)}", function(k)
    expanded = expanded + 1
    return vars[k] or ("<" .. k .. ">")
  end)
end
local page = concat(out)
-- capitalise every word of every fifth line, counting the replacements
local caps = 0
for i = 1, n, 5 do
  local s, k = lines[i]:gsub("(%a)(%a*)", function(a, rest) return a:upper() .. rest end)
  caps = caps + k + #s
end
-- key=value pairs through a table replacement
local kv = ("a=1 b=2 c=3 "):rep(50)
local repl = {["1"] = "one", ["2"] = "two"}
local kvlen = 0
for _ = 1, n // 50 do kvlen = kvlen + #(kv:gsub("=(%d)", repl)) end

-- the same values computed without patterns
local wisum, wfsum, wnotes = 0, 0.0, 0
for i = 1, n do
  wisum = wisum + i * 3 % 1000 + i
  wfsum = wfsum + tonumber(fmt("%.3f", i / 7))
  if i % 4 == 0 then wnotes = wnotes + i end
end
assert(count == n, "records " .. count)
assert(isum == wisum, "integer sum " .. isum .. " vs " .. wisum)
assert(math.abs(fsum - wfsum) < 1e-6 * wfsum, "float sum")
assert(notes == wnotes, "notes")
assert(expanded == 4 * (n // 4), "expansions " .. expanded)
local wpage = 0
for i = 1, n // 4 do wpage = wpage + #"hello world,  templates and <missing>; " + #tostring(i) end
assert(#page == wpage, "page " .. #page .. " vs " .. wpage)
assert(kvlen == (n // 50) * (#kv + 100), "kv " .. kvlen)
print(string.format("textgen: %d records, %d bytes, int sum %d, %d expansions, caps %d",
                    count, #text, isum, expanded, caps))
