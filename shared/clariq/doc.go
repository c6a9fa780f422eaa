// Package clariq is Duet's ClariQ (ConvAI3) system: it judges how much an
// information request needs clarifying (1 self-contained … 4 hopelessly
// ambiguous) and ranks a question bank for the clarifying question to ask.
//
// Everything is pure Go with no network: a BM25 first stage over the bank,
// a pseudo-relevance-feedback second query, and a small logistic model over
// lexical features (never question ids) whose weights are fitted from the
// ClariQ training topics by Fit and embedded from model.json. The package
// also reads and writes the ClariQ files (question bank, requests, labels,
// Stage 1 run files), computes the official metrics, and plays the system
// in a ConvAI chat (Brain).
package clariq
