// Package openai is an llm.Model over any OpenAI-compatible Chat Completions
// API (POST <base>/chat/completions): OpenAI itself, vLLM, Ollama, LM Studio,
// LiteLLM and the like. It uses the official SDK, github.com/openai/openai-go,
// with the SDK's own retries turned off: package llm retries throttled calls
// itself, inside the time budget of each call.
package openai
