// Package convaisim is a local ConvAI server for `duet sim`: it serves the
// trimmed Telegram Bot API in the dialect of real Telegram, the 2017 ConvAI
// server or the 2018 router, plays scripted partners against a bot over many
// concurrent chats (delivering by getUpdates or by webhook), and checks every
// message the bot sends against the protocol: valid inner JSON, integer
// evaluations, one reply per partner message, and exactly one final /end
// evaluation per chat with nothing after it.
//
// Participants run it before a contest to find the mistakes the real servers
// punish silently.
package convaisim
