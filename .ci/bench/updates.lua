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
local lines = { -- the partner lines of BenchmarkWebhookLoad (shared/httpapi/load_test.go)
  "I would stay still and let it fly away.",
  "Have you ever been stung by a wasp?",
  "Honestly I am more scared of bees than wasps.",
  "My cat once chased a wasp around the living room.",
  "What do you think people found most surprising about it?",
  "I read that somewhere too, but I never checked whether it was true.",
  "hi! how are you today?",
  "That is a strange thing to think about.",
  "Do you know why it happened that way?",
  "I think my grandparents watched it on a tiny black and white set.",
  "I drink way too much coffee, probably four cups a day.",
  "Where do you think the best coffee comes from now?",
  "I ran a half marathon once and my knees still hate me.",
  "Why such an odd number of kilometres?",
  "Three hearts sounds like a lot of work for one animal.",
  "ok",
  "lol yes",
  "I never knew that, thanks for telling me.",
  "What would you have done in their place?",
  "Can you say that again in simpler words?",
  "I am not sure I agree with you there.",
  "My brother says octopuses are smarter than dogs.",
  "Is that really true or just a story people tell?",
  "I usually panic and start waving my arms around.",
  "Tell me something else you know about it.",
  "Yes, I think so too.",
  "no, not really",
  "Who told you that?",
  "It reminds me of a documentary I saw last year.",
  "Which part of the text did you find most interesting?",
  "I have to go soon, but this was fun.",
  "What do you do when you are not chatting with people?",
  "Do you like animals?",
  "I prefer tea, to be honest.",
  "Running long distances seems boring to me.",
  "How long did it take them to get there?",
  "I would love to see that with my own eyes.",
  "That is pretty cool actually.",
  "Hmm, I had never thought about it.",
  "Do you think it will happen again?",
  "My friend got stung on the lip once, it swelled up like a balloon.",
  "Are you a bot?",
  "What is your favourite fact about it?",
  "I could not do that, I am too impatient.",
  "The colour changing thing is amazing.",
  "Why do you ask?",
  "Sorry, I was away for a minute. Where were we?",
  "I guess that makes sense.",
}

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

