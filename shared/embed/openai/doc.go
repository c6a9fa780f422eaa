// Package openai is an embed.Embedder over any OpenAI-compatible embeddings
// API (POST <base>/v1/embeddings): OpenAI itself, Azure-style gateways,
// Ollama, vLLM, LiteLLM. It uses the official SDK, github.com/openai/openai-go,
// the client package brain/openai uses for chat, with the SDK's retries off:
// Embed retries rate limits (429, honouring Retry-After) and 5xx itself.
package openai
