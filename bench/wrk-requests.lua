-- wrk script of the bench: cycles through a pool of prepared requests read from a file (one per
-- line: METHOD <tab> PATH <tab> BODY), pre-formatted once per thread. Each thread takes every
-- n-th line of the pool, so no two threads send the same POST body in one run (a repeated POST
-- sets values already stored, writes nothing and skips the fsync). Arguments after `--`:
-- <pool file> <threads> [token]. Prints one line `WRK {json}` at the end.
local next_id = 0

function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
end

function init(args)
  local file, threads, token = args[1], tonumber(args[2]), args[3]
  local headers = { ["Content-Type"] = "application/json" }
  if token ~= nil and token ~= "" then headers["Authorization"] = "Token " .. token end
  pool = {}
  local line_number = 0
  for line in io.lines(file) do
    if line_number % threads == id then
      local method, path, body = line:match("^(%u+)\t([^\t]*)\t(.*)$")
      if body == "" then body = nil end
      pool[#pool + 1] = wrk.format(method, path, headers, body)
    end
    line_number = line_number + 1
  end
  sent = 0
end

function request()
  sent = sent + 1
  return pool[(sent - 1) % #pool + 1]
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRK {"requests":%d,"durationUs":%d,"bytes":%d,"statusErrors":%d,"socketErrors":%d,"p50Us":%d,"p99Us":%d,"maxUs":%d}\n',
    summary.requests, summary.duration, summary.bytes, e.status, e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(99), latency.max))
end
