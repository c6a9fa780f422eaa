package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/duetbot/duet/shared/apigw"
)

// testLimits are defaultServerLimits shrunk so that the tests are fast.
var testLimits = serverLimits{
	ReadHeader:     300 * time.Millisecond,
	Read:           500 * time.Millisecond,
	Write:          2 * time.Second,
	Idle:           300 * time.Millisecond,
	MaxHeaderBytes: 4 << 10,
}

// startServer serves h with limits on a loopback port and returns its address.
func startServer(t *testing.T, h http.Handler, limits serverLimits) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(h, limits)
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return ln.Addr().String()
}

// closedWithin reads from conn until the server closes it, and fails the
// test if that takes longer than d.
func closedWithin(t *testing.T, conn net.Conn, d time.Duration) {
	t.Helper()
	if err := conn.SetReadDeadline(time.Now().Add(d)); err != nil {
		t.Fatal(err)
	}
	_, err := io.Copy(io.Discard, conn)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("connection still open after %s", d)
	}
}

func TestServerCutsOffSlowAndIdleClients(t *testing.T) {
	echo := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.ReadAll(r.Body); err != nil {
			http.Error(w, "read body", http.StatusBadRequest)
			return
		}
		fmt.Fprintln(w, `{"ok":true}`)
	})
	tests := []struct {
		name string
		// talk writes to the server; it may keep writing in the background.
		talk func(t *testing.T, conn net.Conn)
	}{
		{"slow body", func(t *testing.T, conn net.Conn) {
			fmt.Fprint(conn, "POST /telegram HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
			// Trickle one byte at a time, as a slowloris client does: each
			// byte arrives well within any per-read timeout.
			go func() {
				for {
					time.Sleep(50 * time.Millisecond)
					if _, err := conn.Write([]byte(" ")); err != nil {
						return
					}
				}
			}()
		}},
		{"slow headers", func(t *testing.T, conn net.Conn) {
			fmt.Fprint(conn, "POST /telegram HTTP/1.1\r\nHost: x\r\n")
			go func() {
				for {
					time.Sleep(50 * time.Millisecond)
					if _, err := conn.Write([]byte("X-A: b\r\n")); err != nil {
						return
					}
				}
			}()
		}},
		{"idle keep-alive", func(t *testing.T, conn net.Conn) {
			fmt.Fprint(conn, "POST /telegram HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}")
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatalf("first request: %v", err)
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK || resp.Close {
				t.Fatalf("first request: got status %d, close %v; want 200 on a kept-alive connection", resp.StatusCode, resp.Close)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			addr := startServer(t, echo, testLimits)
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			tc.talk(t, conn)
			closedWithin(t, conn, 5*time.Second)
		})
	}
}

func TestServerRefusesHugeHeaders(t *testing.T) {
	addr := startServer(t, http.NotFoundHandler(), testLimits)
	req, err := http.NewRequest(http.MethodPost, "http://"+addr+"/telegram", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Padding", strings.Repeat("a", 2*testLimits.MaxHeaderBytes))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("got status %d, want %d", resp.StatusCode, http.StatusRequestHeaderFieldsTooLarge)
	}
}

// TestDefaultServerLimits keeps the limits above the handlers' own budget:
// a webhook delivery may take up to ~25 s and must not be cut off.
func TestDefaultServerLimits(t *testing.T) {
	l := defaultServerLimits
	const handler = apigw.RequestTimeout
	if l.Write <= handler || l.Read <= handler || l.Idle <= 0 || l.ReadHeader <= 0 || l.MaxHeaderBytes <= 0 {
		t.Errorf("got %+v; want Read and Write over %s and every limit set", l, handler)
	}
}
