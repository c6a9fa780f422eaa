package poller

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/duet"
	"github.com/duetbot/duet/shared/telegram"
)

// blockingEngine signals when it is called and then behaves as told: it
// blocks ignoring its context (as convai.Engine does, which runs under
// its own deadline), or fails with a retryable error.
type blockingEngine struct {
	called  chan struct{}
	once    sync.Once
	block   chan struct{} // when non-nil, Handle waits for it
	failure error
}

func (e *blockingEngine) Handle(context.Context, convai.Update) error {
	e.once.Do(func() { close(e.called) })
	if e.block != nil {
		<-e.block
	}
	return e.failure
}

func (e *blockingEngine) Deliver(context.Context, int64) error { return e.failure }

// TestRunStopsPromptly: once its context ends (SIGINT or SIGTERM in
// `duet poll`), Run returns within seconds whatever it was waiting for.
func TestRunStopsPromptly(t *testing.T) {
	const update = `{"ok":true,"result":[{"update_id":5,"message":{"message_id":1,"chat":{"id":7,"type":"private"},"date":1795255200,"text":"/start hello"}}]}`
	tests := []struct {
		name string
		// getUpdates answers the fake Bot API's getUpdates; reached is
		// closed when the poller is in the state to interrupt.
		getUpdates func(w http.ResponseWriter, r *http.Request, reached func())
		engine     *blockingEngine
	}{
		{
			name: "getUpdates long poll",
			getUpdates: func(w http.ResponseWriter, r *http.Request, reached func()) {
				reached()
				select { // a long poll with nothing to deliver
				case <-r.Context().Done():
				case <-time.After(time.Minute):
				}
				fmt.Fprint(w, `{"ok":true,"result":[]}`)
			},
		},
		{
			name: "the client's wait after a 429",
			getUpdates: func(w http.ResponseWriter, r *http.Request, reached func()) {
				reached()
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusTooManyRequests)
				fmt.Fprint(w, `{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 25","parameters":{"retry_after":25}}`)
			},
		},
		{
			name: "the poller's wait after a failed getUpdates",
			getUpdates: func(w http.ResponseWriter, r *http.Request, reached func()) {
				reached()
				w.WriteHeader(http.StatusUnauthorized)
				fmt.Fprint(w, `{"ok":false,"error_code":401,"description":"Unauthorized"}`)
			},
		},
		{
			name:   "a handler that does not return",
			engine: &blockingEngine{block: make(chan struct{})},
		},
		{
			name:   "the wait before retrying a failed update",
			engine: &blockingEngine{failure: duet.Errorf(duet.EUNAVAILABLE, "store down")},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reachedc := make(chan struct{})
			var once sync.Once
			reached := func() { once.Do(func() { close(reachedc) }) }
			var mu sync.Mutex
			served := 0
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != "/bottest-token/getUpdates" {
					w.WriteHeader(http.StatusNotFound)
					fmt.Fprint(w, `{"ok":false,"error_code":404,"description":"Not Found"}`)
					return
				}
				// Reading the body lets the server notice the client hanging up.
				var params struct {
					Offset  int64 `json:"offset"`
					Timeout int   `json:"timeout"`
				}
				if err := json.NewDecoder(r.Body).Decode(&params); err != nil || params.Timeout < 1 {
					w.WriteHeader(http.StatusBadRequest)
					fmt.Fprint(w, `{"ok":false,"error_code":400,"description":"Bad Request: bad parameters"}`)
					return
				}
				_, _ = io.Copy(io.Discard, r.Body)
				mu.Lock()
				first := served == 0
				served++
				mu.Unlock()
				if tt.getUpdates != nil {
					tt.getUpdates(w, r, reached)
					return
				}
				if first {
					w.Header().Set("Content-Type", "application/json")
					fmt.Fprint(w, update)
					return
				}
				<-r.Context().Done()
			}))
			defer srv.Close()
			client, err := telegram.New(srv.URL, "test-token", telegram.WithLogger(slog.New(slog.DiscardHandler)))
			if err != nil {
				t.Fatal(err)
			}
			eng := tt.engine
			if eng == nil {
				eng = &blockingEngine{}
			}
			eng.called = make(chan struct{})
			if tt.engine != nil {
				go func() { <-eng.called; reached() }()
			}
			if eng.block != nil {
				defer close(eng.block)
			}
			p := &Poller{Source: client, Engine: eng, Timeout: 30 * time.Second, Backoff: time.Minute,
				StopGrace: 200 * time.Millisecond, Log: slog.New(slog.DiscardHandler)}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			errc := make(chan error, 1)
			go func() { errc <- p.Run(ctx) }()
			select {
			case <-reachedc:
			case <-time.After(10 * time.Second):
				t.Fatal("the poller never reached the state under test")
			}
			cancel()
			select {
			case err := <-errc:
				if !errors.Is(err, context.Canceled) {
					t.Errorf("Run = %v, want context.Canceled", err)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("Run still running 5s after its context ended")
			}
		})
	}
}
