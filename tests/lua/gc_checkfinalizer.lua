-- mvm-test: skip-stress (stress defers finalizers until 64 are pending)
-- A finalizer queued by a major that a loop of small-table constructors
-- brought on runs at one of that loop's safe points: gc_check's inline fast
-- path (gc/gc.h 'checkdue') must see the queue.
local done = false
do setmetatable({}, {__gc = function() done = true end}) end
local list, iters = {}, 0
repeat
  iters = iters + 1
  list[iters] = {iters, iters}
  if iters > 3000000 then break end
until done
print("finalized", done)
