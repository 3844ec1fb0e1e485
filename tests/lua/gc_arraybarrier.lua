-- Stores of young references into the array part of an OLD table must mark
-- the card of the part's slot (parts live in the heap with cards of their
-- own).  Run with MVM_GC_VERIFY=1 by ctest (corpus.verify.gc_arraybarrier):
-- a missed card aborts there; elsewhere the values are checked.
local t = {0, 0, 0, 0}
local u = {}
for i = 1, 40 do u[i] = 0 end
collectgarbage(); collectgarbage()   -- t, u and their parts are old now
local sum = 0
for r = 1, 60 do
  for i = 1, 4 do t[i] = {r, i} end            -- SETI, constant keys
  for i = 1, 40 do u[i] = {r * i} end          -- SETTABLE, register keys
  local junk = {}
  for j = 1, 5000 do junk[j % 64 + 1] = {j} end  -- several minors
  for i = 1, 4 do assert(t[i][1] == r and t[i][2] == i) end
  for i = 1, 40 do sum = sum + u[i][1] end
end
-- constructors with a list part (SETLIST into a fresh table)
local l = {}
for r = 1, 3000 do l[r % 50 + 1] = {{r}, {r + 1}, r} end
for i = 1, 50 do local e = l[i]; assert(e[1][1] + 1 == e[2][1] and e[3] == e[1][1]) end
print(sum)
