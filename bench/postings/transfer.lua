-- bench/postings/transfer.lua: POST /v1/transfers with a unique Idempotency-Key.
-- wrk -s transfer.lua URL -- KEY TOKEN ACCOUNTS_FILE MODE
--   MODE many: from and to are two different random accounts of the file
--   MODE hot:  from a random account to the first account of the file (every
--              transfer touches that one balance row)
dofile(os.getenv("BENCH_DIR") .. "/common.lua")

local counter = 0
-- setup() runs in the main Lua state; "tid" is a global of each thread's state
-- (a local of the same name here would shadow it in every thread).
local next_tid = 0
function setup(thread)
   thread:set("tid", next_tid)
   next_tid = next_tid + 1
end

function init(args)
   local key, token, file = args[1], args[2], args[3]
   mode = args[4] or "many"
   accounts = {}
   for line in io.lines(file) do
      if #line > 0 then accounts[#accounts + 1] = line end
   end
   wrk.method = "POST"
   wrk.headers["Content-Type"] = "application/json"
   wrk.headers["Connection"] = "keep-alive"
   wrk.headers["X-API-Key"] = key
   wrk.headers["Authorization"] = "Bearer " .. token
   math.randomseed(os.time() + tid * 7919)
   prefix = string.format("b%d-%d-%d-", os.time(), math.random(1e9), tid)
end

function request()
   counter = counter + 1
   local n = #accounts
   local from, to
   if mode == "hot" then
      from = accounts[math.random(2, n)]
      to = accounts[1]
   else
      local i = math.random(1, n)
      local j = math.random(1, n - 1)
      if j >= i then j = j + 1 end
      from, to = accounts[i], accounts[j]
   end
   local body = string.format('{"fromAccountId":"%s","toAccountId":"%s","amountMinor":1}', from, to)
   local h = {}
   for k, v in pairs(wrk.headers) do h[k] = v end
   h["Idempotency-Key"] = prefix .. counter
   return wrk.format(nil, nil, h, body)
end

local bad = 0
function response(status, headers, body)
   if status ~= 200 and status ~= 201 and bad < 3 then
      bad = bad + 1
      io.stderr:write("transfer: HTTP " .. status .. " " .. string.sub(body, 1, 300) .. "\n")
   end
end
