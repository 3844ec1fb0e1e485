-- next() looks its key up by exact type, as lua5.4 does: a float with an
-- integer value (1.0, 2^53, -0.0) is an invalid key even when the integer
-- key exists; a float without an integer value is found as itself.
local function try(t, k)
  local ok, a, b = pcall(next, t, k)
  if ok then print("ok", a, b) else print("err", (a:gsub("^.-: ", ""))) end
end

local arr = {10, 20, 30}
try(arr, 1.0); try(arr, 2.0); try(arr, 3.0); try(arr, 4.0)
try(arr, 1); try(arr, 3); try(arr, 0.5); try(arr, 2^53)

local h = {}
h[2^53] = "big"             -- stored under the integer key 2^53
try(h, 2^53); try(h, math.tointeger(2^53)); try(h, 2^53 + 0.0)

local f = {10, [0.5] = "half"}
try(f, 0.5); try(f, 1); try(f, 1.5); try(f, 1.0)

local z = {[0] = "zero"}
try(z, 0); try(z, 0.0); try(z, -0.0); try(z, 0/0)

local g = {[2^63] = "huge"}  -- 2^63 is no integer: a float key
try(g, 2^63); try(g, -2^63); try(g, math.mininteger)

local e = {}
try(e, 1.0); try(e, 0.5); try(e, nil); try(e, "x")

-- iteration with integer keys still works after a float detour
local n = 0
for k, v in next, {1, 2, 3, x = 4, [0.25] = 5} do n = n + v end
print(n)
