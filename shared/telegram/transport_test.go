package telegram

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/duetbot/duet/shared/convai"
)

// connCounter is a Bot API that answers every sendMessage and counts the
// TCP connections it accepted.
type connCounter struct {
	srv      *httptest.Server
	conns    atomic.Int64
	requests atomic.Int64
}

func newConnCounter(t testing.TB) *connCounter {
	t.Helper()
	c := &connCounter{}
	c.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.requests.Add(1)
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, okMessage)
	}))
	c.srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			c.conns.Add(1)
		}
	}
	c.srv.Start()
	t.Cleanup(c.srv.Close)
	return c
}

// sendAll sends n messages from each of workers goroutines at once.
func sendAll(t testing.TB, c *Client, workers, n int) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Go(func() {
			for i := range n {
				if _, err := c.SendMessage(context.Background(), int64(w+1), fmt.Sprint("message ", i)); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("SendMessage: %v", err)
	}
}

// TestPooledConnections sends sequentially, then in concurrent bursts,
// through the default client: connections are reused, so the server sees
// about one per concurrent sender, not one per message.
func TestPooledConnections(t *testing.T) {
	const (
		sequential = 200
		workers    = 16
		perWorker  = 10
		bursts     = 5
	)
	api := newConnCounter(t)
	c := newClient(t, api.srv.URL)

	sendAll(t, c, 1, sequential)
	if got := api.conns.Load(); got > 2 {
		t.Errorf("%d sequential sends opened %d connections, want 1 (2 at most, when a reply races its connection's return to the pool)", sequential, got)
	}

	before := api.conns.Load()
	for range bursts {
		sendAll(t, c, workers, perWorker)
	}
	sent := bursts * workers * perWorker
	opened := api.conns.Load() - before
	t.Logf("%d concurrent sends (%d at once, %d bursts) opened %d connections", sent, workers, bursts, opened)
	if opened > 2*workers {
		t.Errorf("%d concurrent sends, %d at once, opened %d connections, want at most %d", sent, workers, opened, 2*workers)
	}
	if got := api.requests.Load(); got != int64(sequential+sent) {
		t.Errorf("server saw %d requests, want %d", got, sequential+sent)
	}
}

// BenchmarkSendMessage sends through the pooled default client and through
// net/http's default one (2 idle connections per host), 16 senders at
// once, and reports the connections each opened per 1,000 messages.
func BenchmarkSendMessage(b *testing.B) {
	for _, bc := range []struct {
		name string
		opts []Option
	}{
		{"pooled", nil},
		{"net-http-default", []Option{WithHTTPClient(&http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()})}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			api := newConnCounter(b)
			c := newClient(b, api.srv.URL, bc.opts...)
			b.SetParallelism(8) // 8 × GOMAXPROCS senders
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if _, err := c.SendMessage(context.Background(), 1, "x"); err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.ReportMetric(float64(api.conns.Load())*1000/float64(b.N), "conns/1k-msgs")
		})
	}
}

// TestSendRetriesOnlyWhatWasNotSent checks the client's side of the
// delivery guarantee: sendMessage is retried when the request cannot have
// reached the server, and not once it was written.
func TestSendRetriesOnlyWhatWasNotSent(t *testing.T) {
	t.Run("connection refused is retried", func(t *testing.T) {
		// A port with nothing listening until the client's first retry.
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		var requests atomic.Int64
		srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			requests.Add(1)
			fmt.Fprint(w, okMessage)
		})}
		t.Cleanup(func() { srv.Close() })
		var retries int
		c := newClient(t, "http://"+addr, WithSleep(func(ctx context.Context, d time.Duration) error {
			retries++
			if retries == 1 {
				ln, err := net.Listen("tcp", addr)
				if err != nil {
					return fmt.Errorf("listen again on %s: %w", addr, err)
				}
				go srv.Serve(ln)
			}
			return nil
		}))
		if _, err := c.SendMessage(context.Background(), 1, "x"); err != nil {
			t.Fatalf("SendMessage: %v", err)
		}
		if retries != 1 || requests.Load() != 1 {
			t.Errorf("got %d retries and %d requests, want 1 and 1", retries, requests.Load())
		}
	})

	// Servers that read the whole request and then fail without an answer.
	hangup := func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
			conn.Close()
		}
	}
	stall := func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		<-r.Context().Done()
	}
	for _, tt := range []struct {
		name    string
		handler http.HandlerFunc
	}{{"connection dropped after the request", hangup}, {"no answer within the attempt's timeout", stall}} {
		t.Run(tt.name+" is not retried", func(t *testing.T) {
			var requests atomic.Int64
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				requests.Add(1)
				tt.handler(w, r)
			}))
			t.Cleanup(srv.Close)
			c := newClient(t, srv.URL, WithRequestTimeout(200*time.Millisecond),
				WithSleep(func(context.Context, time.Duration) error { return nil }))
			_, err := c.SendMessage(context.Background(), 1, "x")
			if !errors.Is(err, ErrMaybeSent) {
				t.Fatalf("got %v, want an error wrapping ErrMaybeSent", err)
			}
			if convai.Rejected(err) {
				t.Errorf("got a Rejected error %v: the engine would drop a message it should deliver", err)
			}
			if got := requests.Load(); got != 1 {
				t.Errorf("server saw %d requests, want 1", got)
			}
		})
	}

	t.Run("getUpdates is retried after a dropped connection", func(t *testing.T) {
		var requests atomic.Int64
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if requests.Add(1) == 1 {
				hangup(w, r)
				return
			}
			fmt.Fprint(w, `{"ok":true,"result":[{"update_id":5,"message":{"message_id":1,"chat":{"id":2},"text":"hi"}}]}`)
		}))
		t.Cleanup(srv.Close)
		c := newClient(t, srv.URL, WithSleep(func(context.Context, time.Duration) error { return nil }))
		ups, err := c.GetUpdates(context.Background(), 0, time.Second)
		if err != nil {
			t.Fatalf("GetUpdates: %v", err)
		}
		if len(ups) != 1 || ups[0].UpdateID != 5 || requests.Load() != 2 {
			t.Errorf("got %d updates after %d requests, want update 5 after 2", len(ups), requests.Load())
		}
	})
}
