// Package chat lets a person talk to Duet's bots as their partner (duet
// chat): to the ConvAI bot through a local ConvAI server (convaisim) in
// any of its dialects, each typed line a partner message and each bot
// message shown with its rating of that line, or printed as the server
// receives it; and to the annex bot, each line a message to the person
// with the conversation growing as the hive sends it. A ConvAI chat's
// transcript is kept in the ConvAI2 release format (convai2.Record), so
// that `duet rate` reads it back.
package chat
