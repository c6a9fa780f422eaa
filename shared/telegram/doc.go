// Package telegram speaks the part of the Telegram Bot API that the ConvAI
// servers trimmed it to: the Update and Message wire types, a webhook update
// parser, and a small client for getUpdates, sendMessage and the webhook
// methods.
//
// The client talks to real Telegram and to both public ConvAI servers: it
// builds either URL shape from one configurable base (a base holding
// "{token}" gives <base with token>/<method>, the 2017 server; any other base
// gives <base>/bot<token>/<method>), accepts answers wrapped in
// {"ok":true,"result":…} or bare, whatever their Content-Type, and retries
// 429, 5xx and network failures within the caller's deadline, with package
// retry's rules — but a sendMessage only when it cannot have reached the
// server (see ErrMaybeSent). Every Client shares one pooled keep-alive
// transport. The bot token never appears in its errors or logs; its logs
// carry the caller's context.
package telegram
