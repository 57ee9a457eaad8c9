-- bench/identity/login.lua: POST /auth/login (argon2id verify per request).
-- wrk -s login.lua URL -- EMAIL PASSWORD
dofile(os.getenv("BENCH_DIR") .. "/common.lua")
function init(args)
   wrk.method = "POST"
   wrk.headers["Content-Type"] = "application/json"
   wrk.headers["Connection"] = "keep-alive"
   wrk.body = string.format('{"email":"%s","password":"%s"}', args[1], args[2])
end
local bad = 0
function response(status, headers, body)
   if status ~= 200 and bad < 3 then
      bad = bad + 1
      io.stderr:write("login: HTTP " .. status .. " " .. string.sub(body, 1, 200) .. "\n")
   end
end
