package offline

import (
	"context"
	"strings"
	"testing"
)

func BenchmarkReply(b *testing.B) {
	req := chat(b, wasp, onTopic, "ok", offTopic)
	br := New()
	ctx := context.Background()
	for b.Loop() {
		if _, err := br.Reply(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRate(b *testing.B) {
	req := chat(b, wasp, onTopic, "ok", offTopic)
	br := New()
	ctx := context.Background()
	for b.Loop() {
		if _, err := br.Rate(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFinal(b *testing.B) {
	msgs := make([]string, 20)
	for i := range msgs {
		msgs[i] = []string{onTopic, "ok", offTopic, "What would you do?"}[i%4]
	}
	req := chat(b, wasp, msgs...)
	br := New()
	ctx := context.Background()
	for b.Loop() {
		if _, err := br.Final(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReplyLongContext is the worst case: a context at the engine's
// 8192-character limit.
func BenchmarkReplyLongContext(b *testing.B) {
	long := strings.Repeat("You're sitting watching TV, and suddenly you discover a wasp crawling on your wrist. ", 8192/85)
	req := chat(b, long, onTopic, "ok", offTopic)
	br := New()
	ctx := context.Background()
	for b.Loop() {
		if _, err := br.Reply(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}
