package poller

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/duet"
	"github.com/duetbot/duet/shared/telegram"
)

// source serves fixed batches, then blocks until the context ends, like a
// long poll with nothing queued. It records the offsets it was sent.
type source struct {
	mu      sync.Mutex
	batches [][]telegram.Update
	offsets []int64
	fail    int // fail this many calls first
}

func (s *source) GetUpdates(ctx context.Context, offset int64, timeout time.Duration) ([]telegram.Update, error) {
	s.mu.Lock()
	if timeout < time.Second {
		s.mu.Unlock()
		return nil, fmt.Errorf("timeout %s: the 2018 router answers [] to anything under 1s", timeout)
	}
	s.offsets = append(s.offsets, offset)
	if s.fail > 0 {
		s.fail--
		s.mu.Unlock()
		return nil, errors.New("connection reset")
	}
	if len(s.batches) > 0 {
		b := s.batches[0]
		s.batches = s.batches[1:]
		s.mu.Unlock()
		return b, nil
	}
	s.mu.Unlock()
	<-ctx.Done()
	return nil, ctx.Err()
}

// engine records each chat's texts in the order handled and can fail.
type engine struct {
	mu        sync.Mutex
	got       map[int64][]string
	failures  map[string]error // text → error returned once
	delivered map[int64]int
	all       int
	done      chan struct{}
	want      int
}

func (e *engine) Handle(_ context.Context, u convai.Update) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if err, ok := e.failures[u.Text]; ok {
		delete(e.failures, u.Text)
		if duet.Code(err) == duet.ENOTFOUND {
			e.count() // final: the poller must not retry it
			return err
		}
		if !errors.Is(err, convai.ErrUndelivered) {
			return err // nothing stored: a retry must handle it again
		}
		e.got[u.ChatID] = append(e.got[u.ChatID], u.Text) // stored, not sent
		return err
	}
	e.got[u.ChatID] = append(e.got[u.ChatID], u.Text)
	e.count()
	return nil
}

func (e *engine) Deliver(_ context.Context, chatID int64) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.delivered[chatID]++
	e.count()
	return nil
}

func (e *engine) count() {
	e.all++
	if e.all == e.want {
		close(e.done)
	}
}

func msg(id, chat int64, text string) telegram.Update {
	return telegram.Update{UpdateID: id, Message: &telegram.Message{Chat: telegram.Chat{ID: chat}, Text: text}}
}

func TestPollerOrderOffsetsAndRetries(t *testing.T) {
	src := &source{fail: 1, batches: [][]telegram.Update{
		{msg(0, -1, "a1"), msg(0, 2, "b1"), msg(0, -1, "a2")}, // 2017 server: every id 0
		{msg(7, 2, "b2"), msg(8, -1, "a3"), {UpdateID: 9}},    // a non-message update
		{msg(10, 1<<40, "c1")},
	}}
	eng := &engine{
		got:       map[int64][]string{},
		delivered: map[int64]int{},
		done:      make(chan struct{}),
		want:      6,
		failures: map[string]error{
			"a2": duet.Errorf(duet.EUNAVAILABLE, "store down"),
			"b2": duet.Wrap(duet.EUNAVAILABLE, fmt.Errorf("%w: 502", convai.ErrUndelivered), "send"),
			"c1": duet.Errorf(duet.ENOTFOUND, "no chat"),
		},
	}
	ctx, cancel := context.WithCancel(context.Background())
	p := &Poller{Source: src, Engine: eng, Backoff: time.Millisecond, Log: slog.New(slog.DiscardHandler)}
	errc := make(chan error, 1)
	go func() { errc <- p.Run(ctx) }()
	select {
	case <-eng.done:
	case <-time.After(10 * time.Second):
		t.Fatal("updates were not all processed")
	}
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("Run = %v, want context.Canceled", err)
	}

	want := map[int64][]string{-1: {"a1", "a2", "a3"}, 2: {"b1", "b2"}}
	for chat, texts := range want {
		if fmt.Sprint(eng.got[chat]) != fmt.Sprint(texts) {
			t.Errorf("chat %d handled %q, want %q in order", chat, eng.got[chat], texts)
		}
	}
	if len(eng.got[1<<40]) != 0 {
		t.Errorf("an update for an unknown chat was retried: %q", eng.got[1<<40])
	}
	if eng.delivered[2] != 1 {
		t.Errorf("undelivered answer of chat 2 retried with Deliver %d times, want 1", eng.delivered[2])
	}
	src.mu.Lock()
	defer src.mu.Unlock()
	// The fifth call, with offset 11, may or may not have been made yet.
	wantOffsets := []int64{0, 0, 0, 10, 11}
	if n := len(src.offsets); n < 4 || fmt.Sprint(src.offsets) != fmt.Sprint(wantOffsets[:n]) {
		t.Errorf("offsets sent = %v, want %v (acknowledge non-zero ids only)", src.offsets, wantOffsets)
	}
}

// instant answers [] at once, as the 2017 server does whatever the timeout.
type instant struct{ calls atomic.Int64 }

func (s *instant) GetUpdates(context.Context, int64, time.Duration) ([]telegram.Update, error) {
	s.calls.Add(1)
	return nil, nil
}

// TestPollerPacesEmptyAnswers: a server that answers [] at once is not
// called in a tight loop.
func TestPollerPacesEmptyAnswers(t *testing.T) {
	src := &instant{}
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	p := &Poller{Source: src, Engine: &engine{}, MinInterval: 100 * time.Millisecond, Log: slog.New(slog.DiscardHandler)}
	_ = p.Run(ctx)
	// 500 ms at one call per 100 ms is about 5 calls; a tight loop makes millions.
	if n := src.calls.Load(); n > 10 {
		t.Errorf("getUpdates called %d times in 500 ms with a 100 ms interval, want about 5", n)
	}
}

// TestPollerLargestUpdateID: an update_id of the largest int64 cannot be
// acknowledged (id+1 overflows): the poller says so, handles it once and
// skips its repeats, and never sends a negative offset.
func TestPollerLargestUpdateID(t *testing.T) {
	last := msg(math.MaxInt64, 5, "last")
	src := &source{batches: [][]telegram.Update{{msg(41, 5, "before")}, {last}, {last}, {last}}}
	eng := &engine{got: map[int64][]string{}, delivered: map[int64]int{}, done: make(chan struct{}), want: 2}
	var logged bytes.Buffer
	var logMu sync.Mutex
	p := &Poller{Source: src, Engine: eng, MinInterval: time.Millisecond, Log: slog.New(slog.NewTextHandler(&lockedWriter{w: &logged, mu: &logMu}, nil))}
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- p.Run(ctx) }()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		src.mu.Lock()
		served := len(src.batches) == 0 && len(src.offsets) == 5
		src.mu.Unlock()
		if served {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the batches were not all fetched")
		}
	}
	cancel()
	<-errc
	eng.mu.Lock()
	got := eng.got[5]
	eng.mu.Unlock()
	if fmt.Sprint(got) != "[before last]" {
		t.Errorf("chat 5 handled %q, want before, then last once", got)
	}
	src.mu.Lock()
	offsets := fmt.Sprint(src.offsets)
	src.mu.Unlock()
	if want := fmt.Sprint([]int64{0, 42, math.MaxInt64, math.MaxInt64, math.MaxInt64}); offsets != want {
		t.Errorf("offsets sent %s, want %s", offsets, want)
	}
	logMu.Lock()
	defer logMu.Unlock()
	if n := strings.Count(logged.String(), "update_id is the largest int64"); n != 1 {
		t.Errorf("logged %q, want one error about the unacknowledgeable update", logged.String())
	}
}

// lockedWriter serialises writes to w.
type lockedWriter struct {
	w  io.Writer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}
