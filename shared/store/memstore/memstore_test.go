package memstore_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/convai/convaitest"
	"github.com/duetbot/duet/shared/duet"
	"github.com/duetbot/duet/shared/store/memstore"
	"github.com/duetbot/duet/shared/store/storetest"
)

func TestContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T, now func() time.Time, ttl time.Duration) convai.Store {
		return memstore.New(memstore.WithClock(now), memstore.WithTTL(ttl))
	})
}

// TestFaults races the delivery guarantees with two engines on one
// embedded store (see storetest.RunFaults).
func TestFaults(t *testing.T) {
	storetest.RunFaults(t, storetest.FaultConfig{Chats: 60, Messages: 8}, func(*testing.T) convai.Store {
		return memstore.New()
	})
}

// TestBounded: past the cap the least recently active chat is evicted and
// logged (once a minute at most, in the logger's format); an ended, delivered chat is dropped after the retention; memory
// stays flat across 100,000 one-message chats.
// TestBoundedBytes: the chats' bytes are capped too. 2,000 chats of long
// emoji messages (some 250 MB of text) keep the store's estimate under
// the cap and the heap near it; the newest chats are kept.
func TestBoundedBytes(t *testing.T) {
	const maxBytes = 16 << 20
	s := memstore.New(memstore.WithMaxBytes(maxBytes), memstore.WithLogger(slog.New(slog.DiscardHandler)))
	e := &convai.Engine{Store: s, Sender: &convaitest.Outbox{}, Replier: convaitest.Echo{}, Evaluator: convaitest.Echo{},
		Log: slog.New(slog.DiscardHandler)}
	ctx := context.Background()
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := heap()
	chats := int64(2000)
	if memstore.RaceDetector {
		chats = 400 // still 50 MB of text past a 16 MB cap
	}
	for id := range chats {
		if err := e.Handle(ctx, convai.Update{ChatID: id, Text: "/start emoji"}); err != nil {
			t.Fatal(err)
		}
		for i := range 8 {
			// 4,000 emoji of 4 bytes, each message its own string.
			text := strconv.Itoa(i) + strings.Repeat("😀", 4000)
			if err := e.Handle(ctx, convai.Update{ChatID: id, Text: text}); err != nil {
				t.Fatal(err)
			}
		}
		if b := s.Bytes(); b > maxBytes {
			t.Fatalf("after chat %d: the store holds %d bytes, over its cap of %d", id, b, maxBytes)
		}
	}
	grew := int64(heap()) - int64(before)
	t.Logf("store estimate %d KB, %d chats kept; heap grew %d KB", s.Bytes()>>10, s.Len(), grew>>10)
	if grew > 2*maxBytes {
		t.Errorf("heap grew %d KB for a store capped at %d KB: the estimate is off", grew>>10, maxBytes>>10)
	}
	if _, err := s.Load(ctx, chats-1); err != nil {
		t.Errorf("the newest chat: %v", err)
	}
	if _, err := s.Load(ctx, 0); !errors.Is(err, duet.ErrNotFound) {
		t.Errorf("the oldest chat: got %v, want it evicted", err)
	}
	runtime.KeepAlive(s)
}

func TestBounded(t *testing.T) {
	var logged bytes.Buffer
	clock := convaitest.NewClock(time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC))
	s := memstore.New(memstore.WithClock(clock.Now), memstore.WithMaxChats(100), memstore.WithRetention(time.Minute),
		memstore.WithLogger(slog.New(slog.NewTextHandler(&logged, nil))))
	e := &convai.Engine{Store: s, Sender: &convaitest.Outbox{}, Replier: convaitest.Echo{}, Evaluator: convaitest.Echo{},
		Now: clock.Now, Log: slog.New(slog.DiscardHandler)}
	ctx := context.Background()
	handle := func(id int64, text string) {
		t.Helper()
		if err := e.Handle(ctx, convai.Update{ChatID: id, Text: text}); err != nil {
			t.Fatalf("chat %d %q: %v", id, text, err)
		}
	}
	for id := range int64(150) {
		handle(id, "/start hello")
		clock.Advance(time.Millisecond)
	}
	if n := s.Len(); n != 100 {
		t.Errorf("after 150 chats with a cap of 100: %d kept", n)
	}
	if _, err := s.Load(ctx, 0); !errors.Is(err, duet.ErrNotFound) {
		t.Errorf("the least recently active chat: got %v, want it evicted", err)
	}
	if _, err := s.Load(ctx, 149); err != nil {
		t.Errorf("the most recent chat: %v", err)
	}
	if got, want := logged.String(), "level=WARN msg=\"embedded store full: evicted the least recently used chat"; strings.Count(got, "\n") != 1 || !strings.Contains(got, want) || !strings.Contains(got, " chat=0 ") {
		t.Errorf("logged %q, want one line %q… naming chat 0 (the first of 50 evictions within a minute)", got, want)
	}
	clock.Advance(time.Minute)
	handle(150, "/start one more")
	if got := logged.String(); strings.Count(got, "\n") != 2 || !strings.Contains(got, "evicted=50") {
		t.Errorf("logged %q, want a second line a minute later counting the 50 evictions since the first", got)
	}

	handle(149, "/end")
	clock.Advance(30 * time.Second)
	handle(148, "still here") // a write elsewhere lets the store prune
	if _, err := s.Load(ctx, 149); err != nil {
		t.Errorf("an ended chat within its retention: %v", err)
	}
	clock.Advance(time.Minute)
	if _, err := s.Load(ctx, 149); !errors.Is(err, duet.ErrNotFound) {
		t.Errorf("an ended chat past its retention: got %v, want it dropped", err)
	}

	// 100,000 one-message chats on the default cap: the heap stays flat.
	big := memstore.New(memstore.WithLogger(slog.New(slog.DiscardHandler)))
	e.Store, e.Now = big, nil
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	var at20k uint64
	for id := range int64(100_000) {
		if err := e.Handle(ctx, convai.Update{ChatID: id, Text: "/start a chat of its own, number " + strconv.FormatInt(id, 10)}); err != nil {
			t.Fatal(err)
		}
		if err := e.Handle(ctx, convai.Update{ChatID: id, Text: "one message"}); err != nil {
			t.Fatal(err)
		}
		if id == 20_000 {
			at20k = heap()
		}
	}
	end := heap()
	t.Logf("heap after 20,000 chats %d KB, after 100,000 %d KB; %d chats kept", at20k>>10, end>>10, big.Len())
	if big.Len() != memstore.DefaultMaxChats {
		t.Errorf("kept %d chats, want the cap %d", big.Len(), memstore.DefaultMaxChats)
	}
	if end > at20k+at20k/4 {
		t.Errorf("heap grew from %d KB at 20,000 chats to %d KB at 100,000, want flat", at20k>>10, end>>10)
	}
}

// TestWindowInAnyOrder: whatever order records arrive in (a session's
// turns before its start, a new session after an old one's turns), a Load
// returns the newest session's start and its newest convai.Window others.
func TestWindowInAnyOrder(t *testing.T) {
	ctx := context.Background()
	at := time.Now()
	for _, tc := range []struct {
		name  string
		order [][2]int64 // session, seq
		want  [][2]int64
	}{
		{"in order", seqs(1, 0, 12), append([][2]int64{{1, 0}}, seqs(1, 5, 12)...)},
		{"turns before the start", append(seqs(1, 1, 10), [2]int64{1, 0}), append([][2]int64{{1, 0}}, seqs(1, 3, 10)...)},
		{"a new session", append(seqs(1, 0, 5), seqs(2, 0, 3)...), seqs(2, 0, 3)},
		{"a new session without its start", append(seqs(1, 0, 5), [2]int64{2, 1}), [][2]int64{{2, 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := memstore.New()
			for _, k := range tc.order {
				if err := s.Append(ctx, 1, &convai.Record{Session: k[0], Seq: k[1], At: at}); err != nil {
					t.Fatal(err)
				}
			}
			c, err := s.Load(ctx, 1)
			if err != nil {
				t.Fatal(err)
			}
			var got [][2]int64
			for _, r := range c.Records {
				got = append(got, [2]int64{r.Session, r.Seq})
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got records %v, want %v", got, tc.want)
			}
		})
	}
}

// seqs returns the keys of session's records from..to.
func seqs(session, from, to int64) [][2]int64 {
	var out [][2]int64
	for seq := from; seq <= to; seq++ {
		out = append(out, [2]int64{session, seq})
	}
	return out
}
