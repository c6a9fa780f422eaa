// Package openai is an llm.Model over any OpenAI-compatible Chat Completions
// API (POST <base>/chat/completions): OpenAI itself, vLLM, Ollama, LM Studio,
// LiteLLM and the like. The base comes from OPENAI_BASE_URL by the rule
// embeddings use too, and the connection (the official SDK,
// github.com/openai/openai-go, over a pooled HTTP client) is package
// openaicompat's. The SDK's own retries are off: package llm retries
// throttled calls itself, inside the time budget of each call.
package openai
