-- collectgarbage answers as in the stand-alone lua5.4, which starts the
-- collector in generational mode; pause and step multiplier are kept as
-- value/4 in a byte, so they come back rounded down to a multiple of 4.
print(collectgarbage("generational"))
print(collectgarbage("incremental"))
print(collectgarbage("incremental"))
print(collectgarbage("generational"), collectgarbage("incremental"))
print(collectgarbage("setpause", 150), collectgarbage("setpause", 1001), collectgarbage("setpause", 0), collectgarbage("setpause"))
print(collectgarbage("setstepmul", 150), collectgarbage("setstepmul", 7), collectgarbage("setstepmul", 0), collectgarbage("setstepmul"))
print(collectgarbage("incremental", 333, 222, 11), collectgarbage("setpause"), collectgarbage("setstepmul"))
print(collectgarbage("incremental", 0, 0, 0), collectgarbage("setpause"), collectgarbage("setstepmul"))
print(collectgarbage("setpause", 200), collectgarbage("setstepmul", 100))
print(collectgarbage(), collectgarbage("collect"), collectgarbage("isrunning"))
print(collectgarbage("stop"), collectgarbage("isrunning"), collectgarbage("restart"), collectgarbage("isrunning"))
print(math.type(collectgarbage("count")), select("#", collectgarbage("count")))
print(pcall(collectgarbage, "bogus"))
-- in generational mode a step never reports the end of a cycle
collectgarbage("generational")
print(collectgarbage("step"), collectgarbage("step", 0), collectgarbage("step", 100))
-- in incremental mode repeated steps do finish a cycle
collectgarbage("incremental")
local n = 0
repeat n = n + 1 local junk = {} until collectgarbage("step", 1) or n > 100000
print("cycle finished", n <= 100000)
print(collectgarbage("step", 0))
-- finalizers run by explicit steps
local ran = false
setmetatable({}, {__gc = function() ran = true end})
collectgarbage("step", 0) collectgarbage("step", 0)
print("finalizer ran", ran)
