// Package chat lets a person talk to Duet's bots as their partner (duet
// chat): to the ConvAI bot through a local ConvAI server (convaisim) in
// any of its dialects, each typed line a partner message and each bot
// message shown with its rating of that line, or printed as the server
// receives it; and to the annex bot, each line a message to the person
// with the conversation growing as the hive sends it. A ConvAI chat's
// transcript is kept as a transcript.Chat, which duet chat -save writes in
// the ConvAI2 release format as duet chats export does, so that `duet
// rate` reads it back.
package chat
