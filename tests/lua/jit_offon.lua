-- mvm-test: skip-stress no-differential
-- With the JIT off, a function without compiled code skips the tier-up
-- test for many calls at a time (vm.c startfunc, VM_OFFLOOK); after
-- jit.on() it is still handed to the JIT policy and gets compiled.  The
-- calls come from string.gsub (a C function): no Lua loop around them
-- that an OSR compile could take instead.  (Not a one-line function: one
-- that short, called from C, waits for a compiled caller: jit.c
-- waits_for_caller.)
local function keep(c)
  local n = #c
  local m = n * 3 - n * 2 + n * 5 - n * 5
  if m ~= 1 then error("length " .. m) end
  return c
end
local text = string.rep("x", 100000)

local function compiled()
  local _, _, st = jit.status()
  return st.compiled
end

jit.off()
for _ = 1, 3 do text:gsub(".", keep) end   -- far past any threshold while off
local before = compiled()
jit.on()
local rounds = 0
while compiled() == before and rounds < 300 do
  text:gsub(".", keep)
  rounds = rounds + 1
end
assert(compiled() > before, "not compiled after jit.on()")
print("compiled after jit.on()")
