// Package openai is an embed.Embedder over any OpenAI-compatible embeddings
// API (POST <base>/embeddings): OpenAI itself, Azure-style gateways,
// Ollama, vLLM, LiteLLM. The base comes from OPENAI_BASE_URL by the rule
// chat uses too (package openaicompat, which also holds the connection).
// The SDK's retries are off: Embed retries rate limits (429, honouring
// retry-after-ms and Retry-After up to a minute) and 5xx itself, with
// package retry's rules.
package openai
