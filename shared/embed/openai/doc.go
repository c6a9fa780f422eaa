// Package openai is an embed.Embedder over any OpenAI-compatible embeddings
// API (POST <base>/v1/embeddings): OpenAI itself, Azure-style gateways,
// Ollama, vLLM, LiteLLM. It speaks the wire format with the standard
// library and retries rate limits (429, honouring Retry-After) and 5xx.
package openai
