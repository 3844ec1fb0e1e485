-- stock_cjson.lua -- Debian's lua-cjson (built for stock Lua 5.4), loaded
-- with require from its Debian cpath: encode/decode round trips.
-- Exit status 77 (skip) when the package is not installed.
if not package.searchpath("cjson", package.cpath) then
  print("cjson not installed: skipped"); os.exit(77)
end
local cjson = require "cjson"

local function deepeq(a, b)
  if type(a) ~= type(b) then return false end
  if type(a) ~= "table" then return a == b end
  for k, v in pairs(a) do if not deepeq(v, b[k]) then return false end end
  for k in pairs(b) do if a[k] == nil then return false end end
  return true
end

local doc = {
  name = "mvm", version = 0.1, tags = {"lua", "vm", "jit"},
  nested = {deep = {deeper = {list = {1, 2, 3, {x = true}}}}},
  flag = false, count = 123456789, text = "quote \" backslash \\ tab \t \u{e9}",
}
local js = cjson.encode(doc)
assert(type(js) == "string" and js:sub(1, 1) == "{")
local back = cjson.decode(js)
assert(deepeq(doc, back))
assert(cjson.encode(cjson.decode(js)) == js or deepeq(cjson.decode(cjson.encode(back)), doc))

assert(cjson.encode({1, 2, 3}) == "[1,2,3]")
assert(cjson.encode("a\nb") == '"a\\nb"')
assert(cjson.decode("null") == cjson.null)
local arr = cjson.decode('[1, 2.5, "x", null, true, {"k": []}]')
assert(arr[1] == 1 and arr[2] == 2.5 and arr[3] == "x" and arr[4] == cjson.null
       and arr[5] == true and next(arr[6].k) == nil)

-- big documents: many allocations inside the C module
local big = {}
for i = 1, 2000 do big[i] = {id = i, name = "item" .. i, vals = {i, i * 2}} end
local bigjs = cjson.encode(big)
local big2 = cjson.decode(bigjs)
assert(#big2 == 2000 and big2[2000].name == "item2000" and big2[777].vals[2] == 1554)

-- errors from the C module are catchable Lua errors
local ok, err = pcall(cjson.decode, "{bad json")
assert(not ok and type(err) == "string" and err:find("Expected", 1, true), err)
ok, err = pcall(cjson.encode, {f = print})
assert(not ok and err:find("Cannot serialise function", 1, true), err)

-- an independent instance with its own settings
local c2 = cjson.new()
c2.encode_sparse_array(true)
assert(c2.encode({[1] = 1, [3] = 3}) == '[1,null,3]')
assert(select(2, pcall(cjson.encode, {[1] = 1, [30] = 3})):find("sparse", 1, true))
collectgarbage()
print("cjson ok")
