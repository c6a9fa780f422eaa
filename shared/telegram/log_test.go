package telegram

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"
)

// ctxKey marks a context the way lambdacontext marks it with the request id.
type ctxKey struct{}

// ctxRecorder is a slog handler that keeps, for each record, the message
// and the value ctxKey had in the context it was logged with.
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

// TestLogsCarryTheContext checks that the retry warning and the debug line
// are logged with the caller's context, so that a Lambda's request id
// reaches them.
func TestLogsCarryTheContext(t *testing.T) {
	srv, _ := scripted(t, []step{{status: 502, body: "bad gateway"}, {status: 200, body: `{"ok":true,"result":true}`}})
	rec := &ctxRecorder{records: map[string]any{}}
	c := newClient(t, srv.URL, WithLogger(slog.New(rec)), WithSleep(func(context.Context, time.Duration) error { return nil }))
	ctx := context.WithValue(context.Background(), ctxKey{}, "req-42")
	if _, err := c.SendMessage(ctx, 1, "x"); err != nil {
		t.Fatalf("SendMessage: %v", err)
	}
	for _, msg := range []string{"telegram call failed, retrying", "sendMessage answered with no message"} {
		got, ok := rec.records[msg]
		if !ok {
			t.Errorf("no %q record; got %v", msg, rec.records)
			continue
		}
		if got != "req-42" {
			t.Errorf("%q logged with context value %v, want req-42", msg, got)
		}
	}
}
