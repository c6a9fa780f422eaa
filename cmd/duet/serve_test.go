package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
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

// lockedBuffer is a bytes.Buffer safe for the server's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestServeVerbose: `serve -v` logs the configuration with its secrets
// masked, and every request (method, path, status) — on the command's
// stderr, and never a secret.
func TestServeVerbose(t *testing.T) {
	secrets := map[string]string{
		"TELEGRAM_BOT_TOKEN":      "123:bot-token-secret",
		"TELEGRAM_WEBHOOK_SECRET": "webhook-secret-value",
		"ANNEX_CALLER_KEY":        "caller-key-secret-0123",
		"TELEGRAM_API_URL":        "http://127.0.0.1:1",
	}
	for k, v := range secrets {
		t.Setenv(k, v)
	}
	t.Setenv("ANNEX_PERSON_NAME", "Ada")
	for _, k := range []string{"SESSIONS_TABLE", "ANNEX_PERSONA_FILE", "BRAIN"} {
		t.Setenv(k, "")
	}
	ctx, cancel := context.WithCancel(context.Background())
	stdoutR, stdoutW := io.Pipe()
	stderr := &lockedBuffer{}
	done := make(chan error, 1)
	go func() {
		done <- runServe(ctx, []string{"-v", "-addr", "127.0.0.1:0"}, stdoutW, stderr)
		stdoutW.Close()
	}()
	line, err := bufio.NewReader(stdoutR).ReadString('\n')
	if err != nil {
		cancel()
		t.Fatalf("duet serve did not start: %v (%v); stderr:\n%s", err, <-done, stderr.String())
	}
	go func() { _, _ = io.Copy(io.Discard, stdoutR) }()
	addr := strings.Fields(line[strings.Index(line, "http://"):])[0]
	resp, err := http.Get(addr + "/healthz")
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	resp.Body.Close()
	cancel()
	if err := <-done; err != nil {
		t.Errorf("duet serve: %v", err)
	}
	logs := stderr.String()
	for _, want := range []string{"msg=configuration", "token=set", "msg=request", "method=GET", "path=/healthz", "status=200"} {
		if !strings.Contains(logs, want) {
			t.Errorf("serve -v logs lack %q:\n%s", want, logs)
		}
	}
	for k, v := range secrets {
		if k != "TELEGRAM_API_URL" && strings.Contains(logs, v) {
			t.Errorf("serve -v logs %s:\n%s", k, logs)
		}
	}
}

// TestServeMetrics: `serve -metrics` writes an EMF line for each metric a
// request drives (here an annex request: AnnexRequests, AnnexLatency) to
// its log, with no secret in it; without the flag, none.
func TestServeMetrics(t *testing.T) {
	t.Setenv("ANNEX_CALLER_KEY", "caller-key-secret-0123")
	t.Setenv("ANNEX_PERSON_NAME", "Ada")
	t.Setenv("TELEGRAM_API_URL", "http://127.0.0.1:1")
	for _, k := range []string{"SESSIONS_TABLE", "ANNEX_PERSONA_FILE", "BRAIN", "TELEGRAM_BOT_TOKEN", "TELEGRAM_WEBHOOK_SECRET"} {
		t.Setenv(k, "")
	}
	for _, on := range []bool{true, false} {
		t.Run(fmt.Sprintf("metrics=%v", on), func(t *testing.T) {
			args := []string{"-addr", "127.0.0.1:0"}
			if on {
				args = append(args, "-metrics")
			}
			ctx, cancel := context.WithCancel(context.Background())
			stdoutR, stdoutW := io.Pipe()
			stderr := &lockedBuffer{}
			done := make(chan error, 1)
			go func() {
				done <- runServe(ctx, args, stdoutW, stderr)
				stdoutW.Close()
			}()
			line, err := bufio.NewReader(stdoutR).ReadString('\n')
			if err != nil {
				cancel()
				t.Fatalf("duet serve did not start: %v (%v); stderr:\n%s", err, <-done, stderr.String())
			}
			go func() { _, _ = io.Copy(io.Discard, stdoutR) }()
			addr := strings.Fields(line[strings.Index(line, "http://"):])[0]
			req, _ := http.NewRequest(http.MethodPost, addr+"/annex", strings.NewReader(`{"message": {"from": "U2", "id": "m1", "text": "@ada what do you think of Go?"}}`))
			req.Header.Set("X-CALLER-KEY", "caller-key-secret-0123")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				cancel()
				t.Fatal(err)
			}
			resp.Body.Close()
			cancel()
			if err := <-done; err != nil {
				t.Errorf("duet serve: %v", err)
			}
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("POST /annex: %d", resp.StatusCode)
			}
			var emf []string
			for _, l := range strings.Split(stderr.String(), "\n") {
				if strings.Contains(l, `"_aws"`) {
					emf = append(emf, l)
				}
			}
			if !on {
				if len(emf) > 0 {
					t.Errorf("serve without -metrics logged %q", emf)
				}
				return
			}
			names := map[string]bool{}
			for _, l := range emf {
				var line struct {
					AWS struct {
						CloudWatchMetrics []struct {
							Namespace string
							Metrics   []struct{ Name string }
						}
					} `json:"_aws"`
					Function string
				}
				if err := json.Unmarshal([]byte(l), &line); err != nil || len(line.AWS.CloudWatchMetrics) != 1 || line.Function != "serve" {
					t.Errorf("log line %s: not an EMF line of serve (%v)", l, err)
					continue
				}
				for _, m := range line.AWS.CloudWatchMetrics[0].Metrics {
					names[m.Name] = true
				}
				if strings.Contains(l, "caller-key-secret-0123") {
					t.Errorf("metric line %s shows the caller key", l)
				}
			}
			if !names["AnnexRequests"] || !names["AnnexLatency"] {
				t.Errorf("metric lines %q: want AnnexRequests and AnnexLatency", emf)
			}
		})
	}
}
