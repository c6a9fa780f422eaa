// Package convaisim is a local ConvAI server for `duet sim`: it serves the
// trimmed Telegram Bot API in the dialect of real Telegram, the 2017 ConvAI
// server or the 2018 router, plays scripted partners against a bot over many
// concurrent chats (delivering by getUpdates or by webhook), and checks every
// message the bot sends against the protocol: valid inner JSON, integer
// evaluations, one reply per partner message, and exactly one final /end
// evaluation per chat with nothing after it.
//
// As the 2018 router it also plays ConvAI2 as it ran: the bot gets a profile
// after /start, the partner plays another and mentions its facts, and the
// end is the evaluation request "/end 1 5\n/profile_0\n…" with the partner's
// profile among two or three candidates. It checks that every rated reply
// carries msg_evaluation, that the final's score is in range and its
// profile_idx a valid index, and applies the router's trigram rule (a reply
// sharing a word trigram with the bot's profile is refused; ten in a row end
// the chat). As the router did, it also sends the evaluation request after a
// bot ended a chat itself, and takes one more final in answer. The summary
// digests the bot's own ratings and finals, and the share of right profile
// guesses.
//
// Participants run it before a contest to find the mistakes the real servers
// punish silently.
package convaisim
