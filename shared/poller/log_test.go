package poller

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/duetbot/duet/shared/telegram"
)

type ctxKey struct{}

// ctxRecorder is a slog handler that keeps, for each message, the value
// ctxKey had in the context it was logged with.
type ctxRecorder struct {
	mu      sync.Mutex
	records map[string]any
}

func (h *ctxRecorder) Enabled(context.Context, slog.Level) bool { return true }
func (h *ctxRecorder) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *ctxRecorder) WithGroup(string) slog.Handler            { return h }
func (h *ctxRecorder) Handle(ctx context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.records[r.Message] = ctx.Value(ctxKey{})
	return nil
}

func (h *ctxRecorder) get(msg string) (any, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	v, ok := h.records[msg]
	return v, ok
}

// TestLogsCarryTheContext checks that the poller's retry warnings are
// logged with Run's context, values and all.
func TestLogsCarryTheContext(t *testing.T) {
	src := &source{fail: 1, batches: [][]telegram.Update{{msg(1, 7, "hello")}}}
	eng := &engine{got: map[int64][]string{}, delivered: map[int64]int{}, done: make(chan struct{}), want: 1,
		failures: map[string]error{"hello": errors.New("store unreachable")}}
	rec := &ctxRecorder{records: map[string]any{}}
	p := &Poller{Source: src, Engine: eng, Backoff: time.Millisecond, Log: slog.New(rec)}
	ctx, cancel := context.WithCancel(context.WithValue(context.Background(), ctxKey{}, "run-1"))
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx) }()
	select {
	case <-eng.done:
	case <-time.After(10 * time.Second):
		t.Fatal("the update was not handled")
	}
	cancel()
	<-done
	for _, m := range []string{"getUpdates failed", "update failed, retrying"} {
		got, ok := rec.get(m)
		if !ok || got != "run-1" {
			t.Errorf("%q: logged %v with context value %v, want run-1", m, ok, got)
		}
	}
}
