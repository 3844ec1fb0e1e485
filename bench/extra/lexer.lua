-- lexer.lua: a hand-written tokenizer over generated source text
-- (string.byte scanning, string.sub, keyword counting in a table).
-- usage: mvm bench/extra/lexer.lua [reps]   (default 400)
-- Self-check: every pass finds 18 tokens a line, and the names' counts.
local reps = tonumber(arg and arg[1]) or 400
local lines = 400
local src = {}
for i = 1, lines do
  src[#src + 1] = string.format("local x%d = (y%d + %d.5) * foo(\"s%d\", bar[%d]) -- c\n", i, i, i, i, i)
end
src = table.concat(src)
local byte, sub = string.byte, string.sub
local function lex(s)
  local i, n, toks = 1, #s, 0
  local kinds = {}
  while i <= n do
    local c = byte(s, i)
    if c == 32 or c == 10 then i = i + 1
    elseif (c >= 97 and c <= 122) or (c >= 65 and c <= 90) or c == 95 then
      local j = i + 1
      while j <= n do
        local d = byte(s, j)
        if (d >= 97 and d <= 122) or (d >= 48 and d <= 57) or d == 95 then j = j + 1 else break end
      end
      local w = sub(s, i, j - 1); kinds[w] = (kinds[w] or 0) + 1; toks = toks + 1; i = j
    elseif c >= 48 and c <= 57 then
      local j = i + 1
      while j <= n do
        local d = byte(s, j)
        if (d >= 48 and d <= 57) or d == 46 then j = j + 1 else break end
      end
      toks = toks + 1; i = j
    elseif c == 34 then
      local j = i + 1
      while byte(s, j) ~= 34 do j = j + 1 end
      toks = toks + 1; i = j + 1
    elseif c == 45 and byte(s, i + 1) == 45 then
      while i <= n and byte(s, i) ~= 10 do i = i + 1 end
    else toks = toks + 1; i = i + 1 end
  end
  return toks, kinds
end
local t = 0
for r = 1, reps do
  local k, kinds = lex(src)
  assert(k == 18 * lines and kinds["local"] == lines and kinds.foo == lines, "pass " .. r)
  t = t + k
end
print(string.format("lexer: %d tokens", t))
