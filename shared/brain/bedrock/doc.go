// Package bedrock is an llm.Model over the Amazon Bedrock Runtime Converse
// API, which speaks one message format for every text model Bedrock serves.
// The SDK's own retries are turned off for these calls: package llm retries
// throttled calls itself, inside the time budget of each call.
package bedrock
