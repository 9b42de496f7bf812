-- One wrk script for every endpoint of bench/run_bench.py, configured from the environment:
--   BENCH_METHOD   GET (default) or POST
--   BENCH_AUTH     a bearer token, sent as "Authorization: Bearer <token>"
--   BENCH_ETAG     sent as If-None-Match (the 304 path)
--   BENCH_BODIES   JSON bodies separated by "|"; with two or more, each request takes the next one
--                  in turn (the vote POST goes round the voter's legal positions, so a POST
--                  changes the vote and records a new entry)
-- A request without BENCH_BODIES (or with one) is built once by wrk itself, so the load generator
-- does the least work per request; only the alternating POST defines request().
-- done() prints one line "BENCH_RESULT {json}" that run_bench.py parses.

local method = os.getenv("BENCH_METHOD") or "GET"
local auth = os.getenv("BENCH_AUTH")
local etag = os.getenv("BENCH_ETAG")
local bodies = {}
for body in string.gmatch(os.getenv("BENCH_BODIES") or "", "[^|]+") do
  bodies[#bodies + 1] = body
end

wrk.method = method
if auth and auth ~= "" then wrk.headers["Authorization"] = "Bearer " .. auth end
if etag and etag ~= "" then wrk.headers["If-None-Match"] = etag end
if #bodies > 0 then
  wrk.headers["Content-Type"] = "application/json"
  wrk.body = bodies[1]
end

if #bodies > 1 then
  local n = 0
  function request()
    n = n + 1
    return wrk.format(nil, nil, nil, bodies[(n - 1) % #bodies + 1])
  end
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'BENCH_RESULT {"requests": %d, "duration_us": %d, "bytes": %d, ' ..
    '"p50_us": %d, "p90_us": %d, "p99_us": %d, "max_us": %d, ' ..
    '"errors": {"connect": %d, "read": %d, "write": %d, "status": %d, "timeout": %d}}\n',
    summary.requests, summary.duration, summary.bytes,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,
    e.connect, e.read, e.write, e.status, e.timeout))
end
