-- richards.lua: a Richards-style operating-system scheduler simulation (OO
-- method calls through metatables, closures as task bodies, linked lists).
-- usage: mvm bench/richards.lua [iterations]   (default 400)
-- Self-check: each run of the simulation must queue exactly 2322 packets and
-- hold tasks exactly 928 times (the classic figures for COUNT = 1000).
local iterations = tonumber(arg and arg[1]) or 400

local COUNT = 1000
local EXPECTED_QUEUE_COUNT, EXPECTED_HOLD_COUNT = 2322, 928

local ID_IDLE, ID_WORKER, ID_HANDLER_A, ID_HANDLER_B, ID_DEVICE_A, ID_DEVICE_B = 0, 1, 2, 3, 4, 5
local KIND_DEVICE, KIND_WORK = 0, 1
local DATA_SIZE = 4

-- A task state is three flags (the classic version packs them in a bit set;
-- separate fields keep the program runnable by LuaJIT as well): running =
-- none set, runnable, suspended, held.

---------------------------------------------------------------- packets
local Packet = {}
Packet.__index = Packet

function Packet.new(link, id, kind)
  return setmetatable({ link = link, id = id, kind = kind, a1 = 0, a2 = { 0, 0, 0, 0 } }, Packet)
end

-- append self to the end of the list `queue`; returns the new head
function Packet:addTo(queue)
  self.link = nil
  if queue == nil then return self end
  local next = queue
  local peek = next.link
  while peek ~= nil do next = peek; peek = next.link end
  next.link = self
  return queue
end

---------------------------------------------------------------- task control blocks
local Tcb = {}
Tcb.__index = Tcb

function Tcb.new(link, id, priority, queue, fn)
  return setmetatable({ link = link, id = id, priority = priority, queue = queue, fn = fn,
                        suspended = true, runnable = queue ~= nil, held = false }, Tcb)
end

function Tcb:setRunning() self.runnable = false; self.suspended = false; self.held = false end
function Tcb:markAsNotHeld() self.held = false end
function Tcb:markAsHeld() self.held = true end
function Tcb:markAsSuspended() self.suspended = true end
function Tcb:markAsRunnable() self.runnable = true end
function Tcb:isHeldOrSuspended()
  return self.held or (self.suspended and not self.runnable)
end

function Tcb:run()
  local packet
  if self.suspended and self.runnable and not self.held then
    packet = self.queue
    self.queue = packet.link
    self.suspended = false           -- running, or runnable if more packets wait
    self.runnable = self.queue ~= nil
  end
  return self.fn(packet)
end

function Tcb:checkPriorityAdd(task, packet)
  if self.queue == nil then
    self.queue = packet
    self:markAsRunnable()
    if self.priority > task.priority then return self end
  else
    self.queue = packet:addTo(self.queue)
  end
  return task
end

---------------------------------------------------------------- scheduler
local Scheduler = {}
Scheduler.__index = Scheduler

function Scheduler.new()
  return setmetatable({ queueCount = 0, holdCount = 0, blocks = {}, list = nil,
                        currentTcb = nil, currentId = nil }, Scheduler)
end

function Scheduler:addTask(id, priority, queue, fn)
  self.currentTcb = Tcb.new(self.list, id, priority, queue, fn)
  self.list = self.currentTcb
  self.blocks[id] = self.currentTcb
end

function Scheduler:addRunningTask(id, priority, queue, fn)
  self:addTask(id, priority, queue, fn)
  self.currentTcb:setRunning()
end

function Scheduler:schedule()
  self.currentTcb = self.list
  while self.currentTcb ~= nil do
    local tcb = self.currentTcb
    if tcb:isHeldOrSuspended() then
      self.currentTcb = tcb.link
    else
      self.currentId = tcb.id
      self.currentTcb = tcb:run()
    end
  end
end

function Scheduler:release(id)
  local tcb = self.blocks[id]
  if tcb == nil then return tcb end
  tcb:markAsNotHeld()
  if tcb.priority > self.currentTcb.priority then return tcb end
  return self.currentTcb
end

function Scheduler:holdCurrent()
  self.holdCount = self.holdCount + 1
  self.currentTcb:markAsHeld()
  return self.currentTcb.link
end

function Scheduler:suspendCurrent()
  self.currentTcb:markAsSuspended()
  return self.currentTcb
end

function Scheduler:queue(packet)
  local t = self.blocks[packet.id]
  if t == nil then return t end
  self.queueCount = self.queueCount + 1
  packet.link = nil
  packet.id = self.currentId
  return t:checkPriorityAdd(self.currentTcb, packet)
end

-- exclusive or of two non-negative integers below 2^16 (portable: no ~ operator)
local function bxor(a, b)
  local r, bit = 0, 1
  for _ = 1, 16 do
    if (a % 2) ~= (b % 2) then r = r + bit end
    a, b, bit = math.floor(a / 2), math.floor(b / 2), bit * 2
  end
  return r
end

---------------------------------------------------------------- task bodies (closures over their state)
local function idleTask(sched, v1, count)
  return function(_)
    count = count - 1
    if count == 0 then return sched:holdCurrent() end
    if v1 % 2 == 0 then
      v1 = math.floor(v1 / 2)
      return sched:release(ID_DEVICE_A)
    else
      v1 = bxor(math.floor(v1 / 2), 0xD008)
      return sched:release(ID_DEVICE_B)
    end
  end
end

local function deviceTask(sched)
  local v1
  return function(packet)
    if packet == nil then
      if v1 == nil then return sched:suspendCurrent() end
      local v = v1
      v1 = nil
      return sched:queue(v)
    end
    v1 = packet
    return sched:holdCurrent()
  end
end

local function workerTask(sched, v1, v2)
  return function(packet)
    if packet == nil then return sched:suspendCurrent() end
    v1 = v1 == ID_HANDLER_A and ID_HANDLER_B or ID_HANDLER_A
    packet.id = v1
    packet.a1 = 0
    local a2 = packet.a2
    for i = 1, DATA_SIZE do
      v2 = v2 + 1
      if v2 > 26 then v2 = 1 end
      a2[i] = v2
    end
    return sched:queue(packet)
  end
end

local function handlerTask(sched)
  local v1, v2   -- work packets, device packets
  return function(packet)
    if packet ~= nil then
      if packet.kind == KIND_WORK then v1 = packet:addTo(v1) else v2 = packet:addTo(v2) end
    end
    if v1 ~= nil then
      local count = v1.a1
      if count < DATA_SIZE then
        if v2 ~= nil then
          local v = v2
          v2 = v2.link
          v.a1 = v1.a2[count + 1]
          v1.a1 = count + 1
          return sched:queue(v)
        end
      else
        local v = v1
        v1 = v1.link
        return sched:queue(v)
      end
    end
    return sched:suspendCurrent()
  end
end

---------------------------------------------------------------- driver
local function runRichards()
  local s = Scheduler.new()
  s:addRunningTask(ID_IDLE, 0, nil, idleTask(s, 1, COUNT))

  local queue = Packet.new(nil, ID_WORKER, KIND_WORK)
  queue = Packet.new(queue, ID_WORKER, KIND_WORK)
  s:addTask(ID_WORKER, 1000, queue, workerTask(s, ID_HANDLER_A, 0))

  queue = Packet.new(nil, ID_DEVICE_A, KIND_DEVICE)
  queue = Packet.new(queue, ID_DEVICE_A, KIND_DEVICE)
  queue = Packet.new(queue, ID_DEVICE_A, KIND_DEVICE)
  s:addTask(ID_HANDLER_A, 2000, queue, handlerTask(s))

  queue = Packet.new(nil, ID_DEVICE_B, KIND_DEVICE)
  queue = Packet.new(queue, ID_DEVICE_B, KIND_DEVICE)
  queue = Packet.new(queue, ID_DEVICE_B, KIND_DEVICE)
  s:addTask(ID_HANDLER_B, 3000, queue, handlerTask(s))

  s:addTask(ID_DEVICE_A, 4000, nil, deviceTask(s))
  s:addTask(ID_DEVICE_B, 5000, nil, deviceTask(s))

  s:schedule()
  if s.queueCount ~= EXPECTED_QUEUE_COUNT or s.holdCount ~= EXPECTED_HOLD_COUNT then
    error(string.format("richards: queueCount %d holdCount %d, expected %d %d",
                        s.queueCount, s.holdCount, EXPECTED_QUEUE_COUNT, EXPECTED_HOLD_COUNT))
  end
  return s.queueCount, s.holdCount
end

local q, h
for _ = 1, iterations do q, h = runRichards() end
print(string.format("richards x%d: queued %d, held %d", iterations, q, h))
