-- bench/common.lua: the done() of every wrk script of the benchmarks. It
-- prints one machine-readable line that run.sh parses:
--   BENCH <requests/s> <p50 ms> <p99 ms> <requests> <errors (non-2xx, socket)>
function done(summary, latency, requests)
   local e = summary.errors
   local errs = e.connect + e.read + e.write + e.status + e.timeout
   io.write(string.format("BENCH %.1f %.3f %.3f %d %d\n",
      summary.requests / (summary.duration / 1e6),
      latency:percentile(50) / 1000, latency:percentile(99) / 1000,
      summary.requests, errs))
end
