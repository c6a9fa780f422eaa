package clariq

import (
	"bytes"
	"io"
	"testing"
)

// BenchmarkRank ranks the whole bank for one request (the goal: ≤ 2 ms).
func BenchmarkRank(b *testing.B) {
	r := testRanker(b)
	for b.Loop() {
		if len(r.Rank("I would like to know more about raspberry pi", RunDepth, nil)) != RunDepth {
			b.Fatal("short ranking")
		}
	}
}

// BenchmarkNeed judges one request's clarification need.
func BenchmarkNeed(b *testing.B) {
	r := testRanker(b)
	for b.Loop() {
		r.Need("Tell me about kiwi")
	}
}

// BenchmarkLoad reads the bank and builds the ranker, what a process does
// once with the model (the goal: ≤ 50 ms).
func BenchmarkLoad(b *testing.B) {
	raw, err := io.ReadAll(openData(b, "question_bank.tsv"))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		m, err := ParseModel(modelJSON)
		if err != nil {
			b.Fatal(err)
		}
		bank, err := ReadBank(bytes.NewReader(raw))
		if err != nil {
			b.Fatal(err)
		}
		NewRanker(bank, m)
	}
}
