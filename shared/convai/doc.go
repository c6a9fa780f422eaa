// Package convai speaks the ConvAI participants' bot protocol: it parses the
// server's commands (/start, /begin, /end…), encodes and validates the JSON
// replies, and runs one chat per chat id through Engine. It knows nothing of
// Telegram's wire format, HTTP or AWS: a Store keeps chats and a Sender
// delivers messages.
package convai
