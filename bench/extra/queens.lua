-- queens.lua: the N-queens problem by backtracking (recursion, boolean
-- arrays, closures over upvalues).
-- usage: mvm bench/extra/queens.lua [N]   (default 12)
-- Self-check: the number of solutions against the known counts.
local N = tonumber(arg and arg[1]) or 12
local known = { 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712 }
local function solve(n)
  local cols, d1, d2, count = {}, {}, {}, 0
  local function place(r)
    if r > n then count = count + 1 return end
    for c = 1, n do
      if not cols[c] and not d1[r + c] and not d2[r - c + n] then
        cols[c], d1[r + c], d2[r - c + n] = true, true, true
        place(r + 1)
        cols[c], d1[r + c], d2[r - c + n] = false, false, false
      end
    end
  end
  place(1)
  return count
end
local t = 0
for _ = 1, 3 do t = t + solve(N) end
assert(known[N] == nil or t == 3 * known[N], "solutions " .. t)
print(string.format("queens: %d solutions of %d-queens, 3 times", t // 3, N))
