-- wrk script of the annex load test (.ci/annex-loadtest): annex requests
-- POSTed to /annex, read from ANNEX_REQUESTS (one JSON body per line,
-- written by cmd/bench/annexpersona), each thread starting at its own
-- offset and cycling through them. ANNEX_CALLER_KEY is the caller key.
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end

local bodies = {}
local n = 0

function init(args)
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["X-CALLER-KEY"] = os.getenv("ANNEX_CALLER_KEY") or ""
  local path = os.getenv("ANNEX_REQUESTS") or "requests.jsonl"
  for line in io.lines(path) do
    if line ~= "" then bodies[#bodies + 1] = line end
  end
  if #bodies == 0 then error("no request bodies in " .. path) end
  n = (tid or 1) * 97
end

function request()
  n = n + 1
  return wrk.format(nil, "/annex", nil, bodies[(n % #bodies) + 1])
end

