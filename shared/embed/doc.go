// Package embed turns texts into vectors whose cosine similarity says how
// close the texts are in meaning. Lexical is the offline default:
// deterministic hashed word and character-trigram vectors that need no
// network. API back ends (packages embed/openai and embed/bedrock) implement
// the same Embedder, and Cache puts a per-text cache and batching in front of
// any of them.
package embed
