-- goto.lua: labels, visibility rules, gotos with closures
print("goto: start")

local function errmsg(src)
  local f, msg = load(src, "=goto")
  return f and "compiled" or msg
end

-- simple forward and backward jumps
do
  local out = {}
  local i = 1
  ::loop::
  if i > 3 then goto exit end
  out[#out + 1] = i
  i = i + 1
  goto loop
  ::exit::
  print("loop via goto", table.concat(out, ","))
end

-- continue idiom in all loop kinds
do
  local out = {}
  for i = 1, 6 do
    if i % 3 == 0 then goto cont end
    out[#out + 1] = i
    ::cont::
  end
  local j = 0
  while j < 6 do
    j = j + 1
    if j % 2 == 0 then goto cont2 end
    out[#out + 1] = "w" .. j
    ::cont2::
  end
  local k = 0
  repeat
    k = k + 1
    if k == 2 then goto cont3 end
    out[#out + 1] = "r" .. k
    ::cont3::
  until k >= 3
  print("continue", table.concat(out, ","))
end

-- a label at the end of a block is visible even with locals declared before it
do
  local out = {}
  for i = 1, 3 do
    local x = i * 2
    if x == 4 then goto continue end
    out[#out + 1] = x
    ::continue::
  end
  print("continue after local", table.concat(out, ","))
end

-- labels are per function: a nested function cannot see outer labels
print("nested function label", errmsg("::l:: local function f() goto l end"))
-- a label in an enclosing block is visible
print("enclosing block label", errmsg("do ::l:: do goto l end end"))
-- a label in a nested block is not visible
print("nested block label", errmsg("goto l; do ::l:: end"))
-- jumping into the scope of a local is an error
print("into local scope", errmsg("goto l; local a; ::l:: print(a)"))
-- ...except when the label is at the end of the block (void statements after)
print("label at block end", errmsg("do goto l; local a; ::l:: end"))
print("label at end with semicolons", errmsg("do goto l; local a; ::l:: ; ; end"))
print("label then repeat until", errmsg("repeat goto l; local a; ::l:: until a"))
-- duplicate labels
print("duplicate", errmsg("::x:: ::x::"))
print("same name in nested function ok", errmsg("::x:: local function f() ::x:: end"))
print("same name in sibling blocks ok", errmsg("do ::x:: end do ::x:: end"))
print("shadow label in nested block", errmsg("::x:: do ::x:: end"))
-- goto to undefined label
print("undefined", errmsg("do goto nolabel end"))
print("undefined in loop", errmsg("for i=1,2 do goto skip end"))
-- break is a goto too
print("break", errmsg("do break end"))
-- 'goto' as an identifier is reserved
print("goto reserved", errmsg("local goto = 1"))

-- goto out of nested loops, closures capture fresh variables
do
  local fs = {}
  for i = 1, 3 do
    local j = 0
    ::inner::
    j = j + 1
    local captured = i * 10 + j
    fs[#fs + 1] = function() return captured end
    if j < 2 then goto inner end
  end
  local out = {}
  for _, f in ipairs(fs) do out[#out + 1] = f() end
  print("closures with goto", table.concat(out, ","))
end

-- goto jumping backward closes upvalues of the block it leaves
do
  local fs = {}
  local n = 0
  ::again::
  do
    local v = n
    fs[#fs + 1] = function() v = v + 1; return v end
  end
  n = n + 1
  if n < 3 then goto again end
  print("backward close", fs[1](), fs[1](), fs[2](), fs[3]())
end

-- goto leaving a block with a to-be-closed variable closes it
do
  local log = {}
  local function closer(name)
    return setmetatable({}, {__close = function() log[#log + 1] = "close " .. name end})
  end
  local i = 0
  ::top::
  do
    local c <close> = closer("c" .. i)
    i = i + 1
    if i < 3 then goto top end
  end
  print("goto closes tbc", table.concat(log, ", "))
end

-- state machine with gotos
local function machine(input)
  local pos, out = 1, {}
  ::start::
  if pos > #input then goto finish end
  do
    local ch = input:sub(pos, pos)
    pos = pos + 1
    if ch == "a" then goto got_a end
    out[#out + 1] = "other"
    goto start
  end
  ::got_a::
  out[#out + 1] = "A"
  goto start
  ::finish::
  return table.concat(out, " ")
end
print("machine", machine("abca"))

-- a goto inside a while condition-controlled loop terminating it
do
  local i = 0
  while true do
    i = i + 1
    if i == 5 then goto out end
  end
  ::out::
  print("goto exits while", i)
end

-- labels and gotos with the same names in different functions
local function fa() goto l; do return "skipped" end ::l:: return "fa" end
local function fb() goto l; do return "skipped" end ::l:: return "fb" end
print("per function", fa(), fb())

print("goto: OK")
