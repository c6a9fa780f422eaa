-- wrk script of the webhook load test (.ci/loadtest): Telegram updates
-- POSTed to /telegram. Each wrk thread talks to its own LOADTEST_CHATS
-- chats in turn (1024 by default), each chat a session of a
-- "/start <context>\n/begin" (the bot answers the context at once) and 15
-- partner messages, then a new session: every update asks for exactly one
-- reply, and no partner says a line twice in a session. Update ids never
-- repeat.
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end

local chats = tonumber(os.getenv("LOADTEST_CHATS") or "1024")
local session = 16
local secret = os.getenv("TELEGRAM_WEBHOOK_SECRET") or ""
local n = 0

local contexts = {
  "You're watching TV and a wasp crawls on your wrist. What do you do?",
  "The first Moon landing was broadcast live to an estimated 600 million people.",
  "Coffee was first cultivated in Yemen before it spread to the rest of the world.",
  "A marathon is 42.195 kilometres long, a distance fixed at the 1908 London Olympics.",
  "Octopuses have three hearts and blue blood, and can change colour in a blink.",
}
-- the partner lines of BenchmarkWebhookLoad, which no partner says twice
-- in a session of 15 (wrk runs from the repository's root)
local lines = {}
for line in io.lines("shared/httpapi/testdata/partner_lines.txt") do
  lines[#lines + 1] = line
end

function init(args)
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
  if secret ~= "" then
    wrk.headers["X-Telegram-Bot-Api-Secret-Token"] = secret
  end
end

function request()
  local slot = n % chats
  local turn = math.floor(n / chats) % session
  local chat = tid * 10000000 + slot + 1
  local text
  if turn == 0 then
    text = "/start " .. contexts[slot % #contexts + 1] .. " Chat " .. chat .. " wonders.\\n/begin"
  else
    text = lines[(slot + turn) % #lines + 1]
  end
  n = n + 1
  local id = tid * 1000000000 + n
  local body = string.format(
    '{"update_id":%d,"message":{"message_id":%d,"chat":{"id":%d,"type":"private"},"date":1795255200,"text":"%s"}}',
    id, id, chat, text)
  return wrk.format(nil, "/telegram", nil, body)
end

