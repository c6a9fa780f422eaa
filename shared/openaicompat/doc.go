// Package openaicompat is the one connection to an OpenAI-compatible API
// that both of Duet's uses share: chat (brain/openai, POST
// <base>/chat/completions) and embeddings (embed/openai, POST
// <base>/embeddings). It owns the rule that turns OPENAI_BASE_URL into the
// API base (see BaseURL), builds the official SDK's client with its
// retries off and a pooled HTTP client, and reads what an error answer
// says: its code and how long to wait (package retry's rules).
package openaicompat
