-- __gc order, resurrection, finalizers creating objects, weak tables, exit.
local log = {}
local function mk(name, extra) return setmetatable(extra or {}, {__gc = function(o) print("gc", name) end}) end
local a = mk("a") local b = mk("b") local c = mk("c")
a, c = nil, nil
collectgarbage() print("--1")
local cyc1, cyc2 = mk("cyc1"), mk("cyc2") cyc1.o = cyc2 cyc2.o = cyc1 cyc1, cyc2 = nil, nil
collectgarbage() print("--2")
-- finalizer runs once even if resurrected
local keep
local r = setmetatable({}, {__gc = function(o) print("res gc") keep = o end}) r = nil
collectgarbage() print(keep ~= nil) keep = nil collectgarbage() print("--3")
-- finalizer creating new finalizable object
setmetatable({}, {__gc = function() print("outer gc") mk("inner") end})
collectgarbage() print("--4a") collectgarbage() print("--4")
-- weak values cleared before finalizer? (resurrected objects removed from weak values)
local wv = setmetatable({}, {__mode = "v"}) local wk = setmetatable({}, {__mode = "k"})
do local o = mk("weako") wv[1] = o wk[o] = 1 end
collectgarbage() print(wv[1], next(wk) ~= nil) print("--5")
-- objects at exit: order reverse of marking
for i = 1, 4 do mk("exit" .. i) end
local kept = mk("kept-to-exit")
b = nil
print("end of script")
