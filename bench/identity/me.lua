-- bench/identity/me.lua: GET /auth/me with a valid access token (RS256 verify
-- in the tier plus the session lookup).
-- wrk -s me.lua URL -- ACCESS_TOKEN
dofile(os.getenv("BENCH_DIR") .. "/common.lua")
function init(args)
   wrk.headers["Connection"] = "keep-alive"
   wrk.headers["Authorization"] = "Bearer " .. args[1]
end
local bad = 0
function response(status, headers, body)
   if status ~= 200 and bad < 3 then
      bad = bad + 1
      io.stderr:write("me: HTTP " .. status .. " " .. string.sub(body, 1, 200) .. "\n")
   end
end
