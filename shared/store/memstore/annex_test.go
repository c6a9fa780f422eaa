package memstore

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/duetbot/duet/shared/annex"
	"github.com/duetbot/duet/shared/duet"
)

func TestAnnexStore(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2024, 3, 4, 9, 0, 0, 0, time.UTC)
	s := NewAnnex(WithTTL(time.Hour), WithClock(func() time.Time { return now }))
	ex := annex.Exchange{Conversation: "c1", Request: annex.Message{From: "U2", ID: "m1", Text: "hi", Timestamp: "2024-03-04T09:00:00Z"},
		Reply: annex.Message{From: annex.BotFrom, ID: "b1", Text: "hello"}, At: now}
	for range 2 { // a retried request keeps one copy
		if err := s.SaveExchange(ctx, ex); err != nil {
			t.Fatal(err)
		}
	}
	got, _ := s.Exchanges(ctx, "c1")
	if len(got) != 1 || got[0].Reply.Text != "hello" {
		t.Errorf("exchanges: got %+v, want the one exchange", got)
	}
	now = now.Add(time.Hour)
	if got, _ := s.Exchanges(ctx, "c1"); len(got) != 0 {
		t.Errorf("after the TTL: got %d exchanges, want 0", len(got))
	}

	if _, err := s.LoadPersona(ctx, "Ada"); !errors.Is(err, duet.ErrNotFound) {
		t.Errorf("LoadPersona before import: got %v, want ErrNotFound", err)
	}
	p := annex.PersonaData{Name: "Ada", ID: "U1", Pairs: []annex.Pair{{Prompt: "q", Answer: "a"}, {Answer: "b"}}}
	if err := s.SavePersona(ctx, p); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"Ada", "ada", " ADA "} {
		got2, err := s.LoadPersona(ctx, name)
		if err != nil || got2.Name != "Ada" || got2.ID != "U1" || len(got2.Pairs) != 2 || got2.Pairs[1].Answer != "b" {
			t.Errorf("LoadPersona(%q): got %+v, %v; want what was saved, named Ada", name, got2, err)
		}
	}
}

// TestAnnexBounded: 100,000 requests of 32 KB keep the store under its
// byte cap and the heap flat; expired exchanges are deleted, not only
// skipped on read.
func TestAnnexBounded(t *testing.T) {
	const maxBytes = 8 << 20
	ctx := context.Background()
	now := time.Date(2026, 11, 25, 2, 0, 0, 0, time.UTC)
	var logged bytes.Buffer
	s := NewAnnex(WithTTL(time.Hour), WithClock(func() time.Time { return now }), WithMaxBytes(maxBytes),
		WithLogger(slog.New(slog.NewTextHandler(&logged, nil))))
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := heap()
	var at10k uint64
	requests := 100_000
	if RaceDetector {
		requests = 20_000
	}
	for i := range requests {
		id := strconv.Itoa(i)
		ex := annex.Exchange{Conversation: "c" + strconv.Itoa(i%500), At: now,
			Request: annex.Message{From: "U2", ID: id, Text: id + strings.Repeat("x", 32<<10), Timestamp: "2026-11-25T02:00:00Z"},
			Reply:   annex.Message{From: annex.BotFrom, ID: "r" + id, Text: "a reply"}}
		if err := s.SaveExchange(ctx, ex); err != nil {
			t.Fatal(err)
		}
		if b := s.Bytes(); b > maxBytes {
			t.Fatalf("after %d requests: the store holds %d bytes, over its cap of %d", i+1, b, maxBytes)
		}
		if i == 10_000 {
			at10k = heap()
		}
	}
	end := heap()
	t.Logf("heap grew %d KB after 10,000 requests, %d KB after %d; %d exchanges kept", (int64(at10k)-int64(before))>>10, (int64(end)-int64(before))>>10, requests, s.Count())
	if end > at10k+at10k/4 {
		t.Errorf("heap grew from %d KB at 10,000 requests to %d KB at %d, want flat", at10k>>10, end>>10, requests)
	}
	if grew := int64(end) - int64(before); grew > 2*maxBytes {
		t.Errorf("heap grew %d KB for a store capped at %d KB: the estimate is off", grew>>10, maxBytes>>10)
	}
	if got := strings.Count(logged.String(), "\n"); got != 1 || !strings.Contains(logged.String(), "level=WARN msg=\"embedded store full: evicted the least recently used annex exchange") {
		t.Errorf("logged %q, want one line (the first eviction; the clock stood still)", logged.String())
	}

	// Past the TTL the next write deletes every expired exchange.
	now = now.Add(time.Hour)
	ex := annex.Exchange{Conversation: "new", At: now, Request: annex.Message{From: "U2", ID: "n", Text: "hello"}}
	if err := s.SaveExchange(ctx, ex); err != nil {
		t.Fatal(err)
	}
	if n, b := s.Count(), s.Bytes(); n != 1 || b > 4<<10 {
		t.Errorf("after the TTL: %d exchanges, %d bytes kept; want the new one alone", n, b)
	}
}
