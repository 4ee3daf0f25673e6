-- SPDX-License-Identifier: MIT
-- workload.lua - tables and strings made and dropped under Lua's garbage collector.
--   lua5.4 workload.lua [rounds [width [depth]]]     (defaults 30, 1500, 7)
-- rounds of width records each, then a ternary tree of the given depth.
-- Used by the interposer test (Debian's lua5.4 on libstow_malloc.so) and by the
-- lua_Alloc adapter test (adapters/lua/test_lua.c). Prints only what does not
-- depend on the allocator or on string hashing: a checksum and counts.
local rounds, width, depth = ...
rounds = tonumber(rounds) or 30
width = tonumber(width) or 1500
depth = tonumber(depth) or 7
local sum = 0
local kept = {}
local made = 0

local function record(r, i)
  local s = string.rep(string.char(97 + (i + r) % 26), (i * 7 + r) % 61) .. i
  made = made + 1
  return { name = s, n = i, tags = { i % 3, i % 5, #s }, up = s:upper() }
end

for r = 1, rounds do
  -- a generation of records; one in eight generations survives a while
  local t = {}
  for i = 1, width do
    t[i] = record(r, i)
  end
  kept[r % 8 + 1] = t
  for i = 1, #t, 7 do
    sum = sum + #t[i].name + t[i].tags[3] + #t[i].up
  end
  -- strings built piece by piece, then dropped
  local parts = {}
  for i = 1, width // 4 do
    parts[#parts + 1] = string.format("%d:%x", i * r, i + r)
  end
  local joined = table.concat(parts, ",")
  sum = sum + #joined
  local words = 0
  for w in joined:gmatch("[^,]+") do
    words = words + 1
  end
  sum = sum + words
  -- a table used as a set, grown and shrunk
  local set = {}
  for i = 1, width do
    set["k" .. (i * r) % 977] = i
  end
  local n = 0
  for _ in pairs(set) do
    n = n + 1
  end
  sum = sum + n
  for k in pairs(set) do
    set[k] = nil
  end
  if r % 10 == 0 then
    collectgarbage("collect")
  end
end

-- a deep structure, then a full collection that frees it
local tree = {}
local function grow(node, depth)
  if depth == 0 then
    return 1
  end
  local c = 0
  for i = 1, 3 do
    node[i] = { label = ("node %d/%d"):format(depth, i) }
    c = c + grow(node[i], depth - 1)
  end
  return c + 1
end
local nodes = grow(tree, depth)
tree = nil
kept = nil
collectgarbage("collect")

print(("rounds %d, records %d, tree nodes %d, checksum %d"):format(rounds, made, nodes, sum))
