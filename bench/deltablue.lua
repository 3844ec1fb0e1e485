-- deltablue.lua: a DeltaBlue-style incremental constraint solver (OO with
-- metatable inheritance, many small method calls, dynamic dispatch).
-- usage: mvm bench/deltablue.lua [iterations [n]]   (default 400, n = 100)
-- Each iteration runs the classic chain test (n equality constraints in a
-- chain) and projection test (n scale constraints). Self-check: the solver's
-- values are checked after every change, as in the original benchmark.
local iterations = tonumber(arg and arg[1]) or 400
local N = tonumber(arg and arg[2]) or 100

local function class(super)
  local c = {}
  c.__index = c
  if super then setmetatable(c, { __index = super }) end
  return c
end

---------------------------------------------------------------- ordered collections
-- a plain array with an explicit size field
local function newlist() return { n = 0 } end
local function add(l, x) local n = l.n + 1; l[n] = x; l.n = n end
local function pop(l) local n = l.n; local x = l[n]; l[n] = nil; l.n = n - 1; return x end
local function remove(l, x)   -- remove every occurrence, keeping the order
  local j = 0
  for i = 1, l.n do
    local y = l[i]
    if y ~= x then j = j + 1; l[j] = y end
  end
  for i = j + 1, l.n do l[i] = nil end
  l.n = j
end

---------------------------------------------------------------- strengths
local Strength = class()
local function strength(value, name) return setmetatable({ value = value, name = name }, Strength) end
local REQUIRED        = strength(0, "required")
local STRONG_PREFERRED = strength(1, "strongPreferred")
local PREFERRED       = strength(2, "preferred")
local STRONG_DEFAULT  = strength(3, "strongDefault")
local NORMAL          = strength(4, "normal")
local WEAK_DEFAULT    = strength(5, "weakDefault")
local WEAKEST         = strength(6, "weakest")
local weaker_of = { [0] = STRONG_PREFERRED, PREFERRED, STRONG_DEFAULT, NORMAL, WEAK_DEFAULT, WEAKEST }

local function stronger(s1, s2) return s1.value < s2.value end
local function weaker(s1, s2) return s1.value > s2.value end
local function weakestOf(s1, s2) if weaker(s1, s2) then return s1 end return s2 end
function Strength:nextWeaker() return weaker_of[self.value] end

local planner   -- the current Planner (constraints add themselves to it)

---------------------------------------------------------------- variables
local Variable = class()
function Variable.new(name, value)
  return setmetatable({ name = name, value = value or 0, constraints = newlist(), determinedBy = nil,
                        mark = 0, walkStrength = WEAKEST, stay = true }, Variable)
end
function Variable:addConstraint(c) add(self.constraints, c) end
function Variable:removeConstraint(c)
  remove(self.constraints, c)
  if self.determinedBy == c then self.determinedBy = nil end
end

---------------------------------------------------------------- constraints
local Constraint = class()

function Constraint:addConstraint()
  self:addToGraph()
  planner:incrementalAdd(self)
end

-- try to satisfy self; returns the constraint it overrode, if any
function Constraint:satisfy(mark)
  self:chooseMethod(mark)
  if not self:isSatisfied() then
    if self.strength == REQUIRED then error("could not satisfy a required constraint") end
    return nil
  end
  self:markInputs(mark)
  local out = self:output()
  local overridden = out.determinedBy
  if overridden ~= nil then overridden:markUnsatisfied() end
  out.determinedBy = self
  if not planner:addPropagate(self, mark) then error("cycle encountered") end
  out.mark = mark
  return overridden
end

function Constraint:destroyConstraint()
  if self:isSatisfied() then planner:incrementalRemove(self) else self:removeFromGraph() end
end

function Constraint:isInput() return false end

-- unary constraints: a single output variable
local UnaryConstraint = class(Constraint)
function UnaryConstraint.init(self, v, strength)
  self.strength = strength
  self.myOutput = v
  self.satisfied = false
  self:addConstraint()
  return self
end
function UnaryConstraint:addToGraph() self.myOutput:addConstraint(self); self.satisfied = false end
function UnaryConstraint:chooseMethod(mark)
  local out = self.myOutput
  self.satisfied = out.mark ~= mark and stronger(self.strength, out.walkStrength)
end
function UnaryConstraint:isSatisfied() return self.satisfied end
function UnaryConstraint:markInputs(_) end
function UnaryConstraint:output() return self.myOutput end
function UnaryConstraint:recalculate()
  local out = self.myOutput
  out.walkStrength = self.strength
  out.stay = not self:isInput()
  if out.stay then self:execute() end
end
function UnaryConstraint:markUnsatisfied() self.satisfied = false end
function UnaryConstraint:inputsKnown() return true end
function UnaryConstraint:removeFromGraph()
  if self.myOutput ~= nil then self.myOutput:removeConstraint(self) end
  self.satisfied = false
end

-- a stay constraint keeps its variable unchanged
local StayConstraint = class(UnaryConstraint)
function StayConstraint.new(v, s) return UnaryConstraint.init(setmetatable({}, StayConstraint), v, s) end
function StayConstraint:execute() end

-- an edit constraint marks its variable as an input changed from outside
local EditConstraint = class(UnaryConstraint)
function EditConstraint.new(v, s) return UnaryConstraint.init(setmetatable({}, EditConstraint), v, s) end
function EditConstraint:isInput() return true end
function EditConstraint:execute() end

-- binary constraints: solved forwards (v1 -> v2) or backwards (v2 -> v1)
local NONE, FORWARD, BACKWARD = 0, 1, -1
local BinaryConstraint = class(Constraint)
function BinaryConstraint.init(self, v1, v2, strength)
  self.strength = strength
  self.v1, self.v2 = v1, v2
  self.direction = NONE
  self:addConstraint()
  return self
end
function BinaryConstraint:chooseMethod(mark)
  local v1, v2, s = self.v1, self.v2, self.strength
  if v1.mark == mark then
    self.direction = (v2.mark ~= mark and stronger(s, v2.walkStrength)) and FORWARD or NONE
  elseif v2.mark == mark then
    self.direction = (v1.mark ~= mark and stronger(s, v1.walkStrength)) and BACKWARD or NONE
  elseif weaker(v1.walkStrength, v2.walkStrength) then
    self.direction = stronger(s, v1.walkStrength) and BACKWARD or NONE
  else
    self.direction = stronger(s, v2.walkStrength) and FORWARD or NONE
  end
end
function BinaryConstraint:addToGraph()
  self.v1:addConstraint(self)
  self.v2:addConstraint(self)
  self.direction = NONE
end
function BinaryConstraint:isSatisfied() return self.direction ~= NONE end
function BinaryConstraint:markInputs(mark) self:input().mark = mark end
function BinaryConstraint:input() if self.direction == FORWARD then return self.v1 end return self.v2 end
function BinaryConstraint:output() if self.direction == FORWARD then return self.v2 end return self.v1 end
function BinaryConstraint:recalculate()
  local ihn, out = self:input(), self:output()
  out.walkStrength = weakestOf(self.strength, ihn.walkStrength)
  out.stay = ihn.stay
  if out.stay then self:execute() end
end
function BinaryConstraint:markUnsatisfied() self.direction = NONE end
function BinaryConstraint:inputsKnown(mark)
  local i = self:input()
  return i.mark == mark or i.stay or i.determinedBy == nil
end
function BinaryConstraint:removeFromGraph()
  if self.v1 ~= nil then self.v1:removeConstraint(self) end
  if self.v2 ~= nil then self.v2:removeConstraint(self) end
  self.direction = NONE
end

-- v2 = v1 * scale + offset
local ScaleConstraint = class(BinaryConstraint)
function ScaleConstraint.new(src, scale, offset, dest, strength)
  local self = setmetatable({ scale = scale, offset = offset }, ScaleConstraint)
  return BinaryConstraint.init(self, src, dest, strength)
end
function ScaleConstraint:addToGraph()
  BinaryConstraint.addToGraph(self)
  self.scale:addConstraint(self)
  self.offset:addConstraint(self)
end
function ScaleConstraint:removeFromGraph()
  BinaryConstraint.removeFromGraph(self)
  if self.scale ~= nil then self.scale:removeConstraint(self) end
  if self.offset ~= nil then self.offset:removeConstraint(self) end
end
function ScaleConstraint:markInputs(mark)
  BinaryConstraint.markInputs(self, mark)
  self.scale.mark = mark
  self.offset.mark = mark
end
function ScaleConstraint:execute()
  if self.direction == FORWARD then
    self.v2.value = self.v1.value * self.scale.value + self.offset.value
  else
    self.v1.value = (self.v2.value - self.offset.value) / self.scale.value
  end
end
function ScaleConstraint:recalculate()
  local ihn, out = self:input(), self:output()
  out.walkStrength = weakestOf(self.strength, ihn.walkStrength)
  out.stay = ihn.stay and self.scale.stay and self.offset.stay
  if out.stay then self:execute() end
end

-- v2 = v1
local EqualityConstraint = class(BinaryConstraint)
function EqualityConstraint.new(v1, v2, s)
  return BinaryConstraint.init(setmetatable({}, EqualityConstraint), v1, v2, s)
end
function EqualityConstraint:execute() self:output().value = self:input().value end

---------------------------------------------------------------- plans
local Plan = class()
function Plan.new() return setmetatable({ list = newlist() }, Plan) end
function Plan:addConstraint(c) add(self.list, c) end
function Plan:execute()
  local l = self.list
  for i = 1, l.n do l[i]:execute() end
end

---------------------------------------------------------------- the planner
local Planner = class()
function Planner.new() return setmetatable({ currentMark = 0 }, Planner) end

function Planner:newMark()
  self.currentMark = self.currentMark + 1
  return self.currentMark
end

function Planner:incrementalAdd(c)
  local mark = self:newMark()
  local overridden = c:satisfy(mark)
  while overridden ~= nil do overridden = overridden:satisfy(mark) end
end

function Planner:incrementalRemove(c)
  local out = c:output()
  c:markUnsatisfied()
  c:removeFromGraph()
  local unsatisfied = self:removePropagateFrom(out)
  local s = REQUIRED
  repeat
    for i = 1, unsatisfied.n do
      local u = unsatisfied[i]
      if u.strength == s then self:incrementalAdd(u) end
    end
    s = s:nextWeaker()
  until s == WEAKEST
end

function Planner:addConstraintsConsumingTo(v, coll)
  local determining = v.determinedBy
  local cs = v.constraints
  for i = 1, cs.n do
    local c = cs[i]
    if c ~= determining and c:isSatisfied() then add(coll, c) end
  end
end

function Planner:makePlan(sources)
  local mark = self:newMark()
  local plan = Plan.new()
  local todo = sources
  while todo.n > 0 do
    local c = pop(todo)
    local out = c:output()
    if out.mark ~= mark and c:inputsKnown(mark) then
      plan:addConstraint(c)
      out.mark = mark
      self:addConstraintsConsumingTo(out, todo)
    end
  end
  return plan
end

function Planner:extractPlanFromConstraints(constraints)
  local sources = newlist()
  for i = 1, constraints.n do
    local c = constraints[i]
    if c:isInput() and c:isSatisfied() then add(sources, c) end
  end
  return self:makePlan(sources)
end

function Planner:addPropagate(c, mark)
  local todo = newlist()
  add(todo, c)
  while todo.n > 0 do
    local d = pop(todo)
    if d:output().mark == mark then
      self:incrementalRemove(c)
      return false
    end
    d:recalculate()
    self:addConstraintsConsumingTo(d:output(), todo)
  end
  return true
end

function Planner:removePropagateFrom(out)
  out.determinedBy = nil
  out.walkStrength = WEAKEST
  out.stay = true
  local unsatisfied = newlist()
  local todo = newlist()
  add(todo, out)
  while todo.n > 0 do
    local v = pop(todo)
    local cs = v.constraints
    for i = 1, cs.n do
      local c = cs[i]
      if not c:isSatisfied() then add(unsatisfied, c) end
    end
    local determining = v.determinedBy
    for i = 1, cs.n do
      local nxt = cs[i]
      if nxt ~= determining and nxt:isSatisfied() then
        nxt:recalculate()
        add(todo, nxt:output())
      end
    end
  end
  return unsatisfied
end

---------------------------------------------------------------- the two tests
local function check(cond, what) if not cond then error(what, 2) end end

local function chainTest(n)
  planner = Planner.new()
  local prev, first, last
  for i = 0, n do
    local v = Variable.new("v" .. i)
    if prev ~= nil then EqualityConstraint.new(prev, v, REQUIRED) end
    if i == 0 then first = v end
    if i == n then last = v end
    prev = v
  end
  StayConstraint.new(last, STRONG_DEFAULT)
  local edit = EditConstraint.new(first, PREFERRED)
  local edits = newlist()
  add(edits, edit)
  local plan = planner:extractPlanFromConstraints(edits)
  for i = 0, 99 do
    first.value = i
    plan:execute()
    check(last.value == i, "chain test failed")
  end
end

local function change(v, newValue)
  local edit = EditConstraint.new(v, PREFERRED)
  local edits = newlist()
  add(edits, edit)
  local plan = planner:extractPlanFromConstraints(edits)
  for _ = 1, 10 do
    v.value = newValue
    plan:execute()
  end
  edit:destroyConstraint()
end

local function projectionTest(n)
  planner = Planner.new()
  local scale = Variable.new("scale", 10)
  local offset = Variable.new("offset", 1000)
  local src, dst
  local dests = {}
  for i = 0, n - 1 do
    src = Variable.new("src" .. i, i)
    dst = Variable.new("dst" .. i, i)
    dests[i] = dst
    StayConstraint.new(src, NORMAL)
    ScaleConstraint.new(src, scale, offset, dst, REQUIRED)
  end
  change(src, 17)
  check(dst.value == 1170, "projection 1 failed")
  change(dst, 1050)
  check(src.value == 5, "projection 2 failed")
  change(scale, 5)
  for i = 0, n - 2 do check(dests[i].value == i * 5 + 1000, "projection 3 failed") end
  change(offset, 2000)
  for i = 0, n - 2 do check(dests[i].value == i * 5 + 2000, "projection 4 failed") end
end

for _ = 1, iterations do
  chainTest(N)
  projectionTest(N)
end
print(string.format("deltablue x%d (n=%d) ok", iterations, N))
