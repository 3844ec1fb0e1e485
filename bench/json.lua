-- json.lua: a small JSON encoder and recursive-descent decoder, round-tripping
-- generated documents (string scanning with byte/find/sub, table building,
-- recursion, string escapes, number formatting).
-- usage: mvm bench/json.lua [documents]   (default 4000)
-- Self-check: decode(encode(x)) is deeply equal to x, and encode(decode(s))
-- reproduces s byte for byte.
local ndocs = tonumber(arg and arg[1]) or 4000
local byte, char, sub, find, fmt, concat = string.byte, string.char, string.sub, string.find,
                                           string.format, table.concat

local null = setmetatable({}, { __tostring = function() return "null" end })

---------------------------------------------------------------- encoder
local escapes = { ['"'] = '\\"', ['\\'] = '\\\\', ['\b'] = '\\b', ['\f'] = '\\f',
                  ['\n'] = '\\n', ['\r'] = '\\r', ['\t'] = '\\t' }
local function escape(s)
  return (s:gsub('[%c"\\]', function(c) return escapes[c] or fmt("\\u%04x", byte(c)) end))
end

local encode_value
local function encode_table(t, out)
  if t[1] ~= nil or next(t) == nil then          -- an array (empty tables are arrays)
    out[#out + 1] = "["
    for i = 1, #t do
      if i > 1 then out[#out + 1] = "," end
      encode_value(t[i], out)
    end
    out[#out + 1] = "]"
  else                                           -- an object, keys sorted for determinism
    local keys = {}
    for k in pairs(t) do keys[#keys + 1] = k end
    table.sort(keys)
    out[#out + 1] = "{"
    for i, k in ipairs(keys) do
      if i > 1 then out[#out + 1] = "," end
      out[#out + 1] = '"' .. escape(k) .. '":'
      encode_value(t[k], out)
    end
    out[#out + 1] = "}"
  end
end

function encode_value(v, out)
  local tv = type(v)
  if tv == "string" then out[#out + 1] = '"' .. escape(v) .. '"'
  elseif tv == "number" then
    -- integral values print as integers (as in every Lua), others with all digits
    if v == math.floor(v) and v >= -2^53 and v <= 2^53 then out[#out + 1] = fmt("%d", v)
    else out[#out + 1] = fmt("%.17g", v) end
  elseif tv == "boolean" then out[#out + 1] = v and "true" or "false"
  elseif v == null then out[#out + 1] = "null"
  elseif tv == "table" then encode_table(v, out)
  else error("cannot encode " .. tv) end
end

local function encode(v)
  local out = {}
  encode_value(v, out)
  return concat(out)
end

---------------------------------------------------------------- decoder
local decode_value
local function skip(s, i)
  local _, e = find(s, "^[ \n\r\t]*", i)
  return e + 1
end

local function decode_string(s, i)      -- s[i] is the opening quote
  local parts = {}
  local j = i + 1
  while true do
    local a = find(s, '["\\]', j)
    if not a then error("unterminated string at " .. i) end
    parts[#parts + 1] = sub(s, j, a - 1)
    if byte(s, a) == 34 then return concat(parts), a + 1 end
    local e = sub(s, a + 1, a + 1)
    if e == "u" then
      local code = tonumber(sub(s, a + 2, a + 5), 16)
      -- the encoder only writes \u escapes for control characters
      assert(code < 128, "non-ASCII \\u escape")
      parts[#parts + 1] = char(code)
      j = a + 6
    else
      local map = { b = "\b", f = "\f", n = "\n", r = "\r", t = "\t", ['"'] = '"', ["\\"] = "\\", ["/"] = "/" }
      parts[#parts + 1] = map[e] or error("bad escape at " .. a)
      j = a + 2
    end
  end
end

local function decode_number(s, i)
  local a, e = find(s, "^-?%d+%.?%d*[eE]?[-+]?%d*", i)
  local text = sub(s, a, e)
  return tonumber(text), e + 1   -- "12" gives an integer, "1.5" a float (in Lua 5.3+)
end

function decode_value(s, i)
  i = skip(s, i)
  local c = byte(s, i)
  if c == 123 then                                  -- {
    local obj = {}
    i = skip(s, i + 1)
    if byte(s, i) == 125 then return obj, i + 1 end
    while true do
      local k
      k, i = decode_string(s, skip(s, i))
      i = skip(s, i)
      assert(byte(s, i) == 58, "colon expected")
      obj[k], i = decode_value(s, i + 1)
      i = skip(s, i)
      local d = byte(s, i)
      if d == 125 then return obj, i + 1 end
      assert(d == 44, "comma expected")
      i = i + 1
    end
  elseif c == 91 then                               -- [
    local arr = {}
    i = skip(s, i + 1)
    if byte(s, i) == 93 then return arr, i + 1 end
    local n = 0
    while true do
      n = n + 1
      arr[n], i = decode_value(s, i)
      i = skip(s, i)
      local d = byte(s, i)
      if d == 93 then return arr, i + 1 end
      assert(d == 44, "comma expected")
      i = i + 1
    end
  elseif c == 34 then return decode_string(s, i)
  elseif c == 116 then assert(sub(s, i, i + 3) == "true"); return true, i + 4
  elseif c == 102 then assert(sub(s, i, i + 4) == "false"); return false, i + 5
  elseif c == 110 then assert(sub(s, i, i + 3) == "null"); return null, i + 4
  else return decode_number(s, i) end
end

local function decode(s)
  local v, i = decode_value(s, 1)
  assert(skip(s, i) == #s + 1, "trailing garbage")
  return v
end

---------------------------------------------------------------- documents
local seed = 42
local function rnd(m)       -- Park-Miller: exact in doubles too, so LuaJIT agrees
  seed = seed * 16807 % 2147483647
  return seed % m + 1
end
local words = { "alpha", "beta", "gamma", "delta", "tab\there", "quote\"d", "back\\slash",
                "new\nline", "caf\195\169", "ctl\1x", "", "x" }

local function gen(depth)
  local r = rnd(depth > 3 and 6 or 8)
  if r == 1 then return rnd(1000000) - 500000
  elseif r == 2 then return (rnd(100000) - 50000) / 64
  elseif r == 3 then return words[rnd(#words)] .. rnd(100)
  elseif r == 4 then return rnd(2) == 1
  elseif r == 5 then return null
  elseif r == 6 then return words[rnd(#words)]
  elseif r == 7 then
    local a = {}
    for i = 1, rnd(8) do a[i] = gen(depth + 1) end
    return a
  else
    local o = {}
    for _ = 1, rnd(8) do o[words[rnd(#words)] .. rnd(50)] = gen(depth + 1) end
    return o
  end
end

local function equal(a, b)
  if a == b then return true end
  if type(a) ~= "table" or type(b) ~= "table" then return false end
  for k, v in pairs(a) do if not equal(v, b[k]) then return false end end
  for k in pairs(b) do if a[k] == nil then return false end end
  return true
end

local bytes = 0
for d = 1, ndocs do
  local doc = {}
  for i = 1, 20 do doc[i] = gen(1) end
  doc = { id = d, items = doc, meta = { name = "doc" .. d, ok = true, ratio = d / 3 } }
  local s = encode(doc)
  local back = decode(s)
  assert(equal(doc, back), "round trip of document " .. d)
  assert(encode(back) == s, "re-encoding document " .. d)
  bytes = bytes + #s
end
print(string.format("json: %d documents, %d bytes", ndocs, bytes))
