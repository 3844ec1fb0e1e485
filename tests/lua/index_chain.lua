-- Field and method lookups through chains of __index tables (vm.c
-- index_table: up to 4 levels inline, the rest in vm_finishget): classes
-- and superclasses, chains longer than 4, an __index function in the
-- middle, misses, and a method added to a superclass later.
local function class(super)
  local c = {}
  c.__index = c
  if super then setmetatable(c, { __index = super }) end
  return c
end

local A = class()
function A:name() return "A" end
function A:who() return "who:" .. self:name() end
A.shared = "from A"
local B = class(A)
function B:name() return "B" end
local C = class(B)
local D = class(C)
local E = class(D)
local F = class(E)           -- F -> E -> D -> C -> B -> A: 6 levels

for _, cls in ipairs({A, B, C, D, E, F}) do
  local o = setmetatable({}, cls)
  io.write(o:name(), " ", o:who(), " ", tostring(o.shared), " ", tostring(o.missing), "; ")
end
print()

-- a method added to the root after objects exist
function A:late() return "late " .. self:name() end
print(setmetatable({}, F):late(), setmetatable({}, B):late())

-- an __index function in the middle of the chain
local G = {}
G.__index = G
setmetatable(G, { __index = function(t, k) return "fn:" .. k end })
local H = class(G)
local h = setmetatable({}, H)
print(h.anything, h.other)

-- an __index table whose own metatable's __index is a table of methods
local base = { greet = function(self) return "hi " .. self.n end }
local mid = setmetatable({}, { __index = base })
local obj = setmetatable({ n = "x" }, { __index = mid })
print(obj:greet(), obj.greet == base.greet)

-- fields shadowing class members, and false/nil values
local K = class()
K.flag = true
local k1 = setmetatable({ flag = false }, K)
local k2 = setmetatable({}, K)
print(k1.flag, k2.flag)
K.flag = nil
print(k2.flag)
