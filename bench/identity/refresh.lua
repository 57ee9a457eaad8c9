-- bench/identity/refresh.lua: POST /auth/token/refresh. Refresh tokens are
-- single use and rotated, so every thread keeps a queue of live tokens (its
-- share of the lines of TOKENS_FILE, at least one per connection): a request
-- takes one, and the response gives back its successor. wrk calls request()
-- once in thread 0 to check the script, which costs that thread one token.
-- wrk -s refresh.lua URL -- TOKENS_FILE THREADS
dofile(os.getenv("BENCH_DIR") .. "/common.lua")
-- setup() runs in the main Lua state; "tid" is a global of each thread's state
-- (a local of the same name here would shadow it in every thread).
local next_tid = 0
function setup(thread)
   thread:set("tid", next_tid)
   next_tid = next_tid + 1
end
function init(args)
   wrk.method = "POST"
   wrk.headers["Content-Type"] = "application/json"
   wrk.headers["Connection"] = "keep-alive"
   local nthreads = tonumber(args[2])
   -- explicit head and tail: # is undefined on a table with holes
   queue, head, tail = {}, 1, 0
   local i = 0
   for line in io.lines(args[1]) do
      if #line > 0 then
         if i % nthreads == tid then tail = tail + 1; queue[tail] = line end
         i = i + 1
      end
   end
end
function request()
   local t = queue[head]
   if t then queue[head] = nil; head = head + 1 else t = "exhausted" end
   return wrk.format(nil, nil, nil, '{"refreshToken":"' .. t .. '"}')
end
local bad = 0
function response(status, headers, body)
   local t = string.match(body, '"refreshToken"%s*:%s*"([^"]+)"')
   if status == 200 and t then
      tail = tail + 1
      queue[tail] = t
   elseif bad < 3 then
      bad = bad + 1
      io.stderr:write("refresh: HTTP " .. status .. " " .. string.sub(body, 1, 200) .. "\n")
   end
end
