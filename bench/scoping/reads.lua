-- bench/scoping/reads.lua: the reads of a branch teller's screen, by a staff token.
-- wrk -s reads.lua BASE_URL -- KEY TOKEN ACCOUNTS_FILE MODE
--   MODE account:   GET /v1/accounts/{id} of a random account of the file
--   MODE statement: GET /v1/accounts/{id}/statement (the first page, default limit)
--   MODE customers: GET /v1/customers?page=0&size=20 (the first page of the list)
-- Any answer but 200 counts as an error (common.lua) and the first three are
-- printed: a 404 here means the file names an account the token cannot see.
dofile(os.getenv("BENCH_DIR") .. "/common.lua")

local next_tid = 0
function setup(thread)
   thread:set("tid", next_tid)
   next_tid = next_tid + 1
end

function init(args)
   local key, token, file = args[1], args[2], args[3]
   mode = args[4] or "account"
   accounts = {}
   for line in io.lines(file) do
      if #line > 0 then accounts[#accounts + 1] = line end
   end
   wrk.method = "GET"
   wrk.headers["Connection"] = "keep-alive"
   wrk.headers["X-API-Key"] = key
   wrk.headers["Authorization"] = "Bearer " .. token
   math.randomseed(os.time() + tid * 7919)
end

function request()
   if mode == "customers" then
      return wrk.format(nil, "/v1/customers?page=0&size=20")
   end
   local id = accounts[math.random(1, #accounts)]
   if mode == "statement" then
      return wrk.format(nil, "/v1/accounts/" .. id .. "/statement")
   end
   return wrk.format(nil, "/v1/accounts/" .. id)
end

local bad = 0
function response(status, headers, body)
   if status ~= 200 and bad < 3 then
      bad = bad + 1
      io.stderr:write(mode .. ": HTTP " .. status .. " " .. string.sub(body, 1, 300) .. "\n")
   end
end
