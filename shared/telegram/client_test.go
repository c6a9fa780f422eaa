package telegram

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"
)

const testToken = "123456:SECRET-token_x"

// request is what a fake server saw of one call.
type request struct {
	path        string
	contentType string
	params      map[string]any // decoded with UseNumber
}

// recorder keeps the requests a fake server received.
type recorder struct {
	mu   sync.Mutex
	reqs []request
}

func (r *recorder) add(t testing.TB, req *http.Request) request {
	t.Helper()
	body, _ := io.ReadAll(req.Body)
	rec := request{path: req.URL.Path, contentType: req.Header.Get("Content-Type")}
	if strings.HasPrefix(rec.contentType, "application/json") {
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		if err := dec.Decode(&rec.params); err != nil {
			t.Errorf("request body %q is not JSON: %v", body, err)
		}
	}
	r.mu.Lock()
	r.reqs = append(r.reqs, rec)
	r.mu.Unlock()
	return rec
}

func (r *recorder) all() []request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]request(nil), r.reqs...)
}

func writeJSON(w http.ResponseWriter, contentType string, status int, v any) {
	w.Header().Set("Content-Type", contentType)
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func method(path string) string { return path[strings.LastIndex(path, "/")+1:] }

// telegramServer speaks like api.telegram.org: /bot<token>/<method>,
// wrapped answers, increasing update_id and offset acknowledging updates.
func telegramServer(t *testing.T, rec *recorder) *httptest.Server {
	ids := []int64{100, 101, 102}
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req := rec.add(t, r)
		if !strings.HasPrefix(r.URL.Path, "/bot"+testToken+"/") {
			writeJSON(w, "application/json", 404, map[string]any{"ok": false, "error_code": 404, "description": "Not Found"})
			return
		}
		switch method(r.URL.Path) {
		case "getUpdates":
			offset, _ := req.params["offset"].(json.Number).Int64()
			var ups []Update
			for _, id := range ids {
				if id >= offset {
					ups = append(ups, Update{UpdateID: id, Message: &Message{MessageID: id, From: &User{ID: 9, FirstName: "Anonym"},
						Chat: Chat{ID: 9, Type: "private"}, Date: json.RawMessage("1700000000"), Text: fmt.Sprint("m", id)}})
				}
			}
			writeJSON(w, "application/json", 200, map[string]any{"ok": true, "result": ups})
		case "sendMessage":
			id, _ := req.params["chat_id"].(json.Number).Int64()
			writeJSON(w, "application/json", 200, map[string]any{"ok": true, "result": Message{MessageID: 5, Chat: Chat{ID: id}, Text: req.params["text"].(string)}})
		default:
			writeJSON(w, "application/json", 200, map[string]any{"ok": true, "result": true})
		}
	}))
}

// server2017 speaks like the 2017 ConvAI server: /<token>/<method> under a
// path, bare answers served as text/plain, every id 0, no from, JSON
// bodies only.
func server2017(t *testing.T, rec *recorder) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req := rec.add(t, r)
		if !strings.HasPrefix(r.URL.Path, "/convai/"+testToken+"/") {
			http.Error(w, "not found", 404)
			return
		}
		if !strings.HasPrefix(req.contentType, "application/json") {
			http.Error(w, "expected a JSON body", 400)
			return
		}
		switch method(r.URL.Path) {
		case "getUpdates":
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(w, `[{"update_id":0,"message":{"message_id":0,"chat":{"id":-2147483648},"date":"24.07.2017","text":"/start ctx"}},`+
				`{"update_id":0,"message":{"message_id":0,"chat":{"id":77},"date":"24.07.2017","text":"hello"}}]`)
		case "sendMessage":
			id, _ := req.params["chat_id"].(json.Number).Int64()
			writeJSON(w, "text/plain", 200, Message{Chat: Chat{ID: id}, Text: req.params["text"].(string)})
		default:
			http.Error(w, "unknown method", 404)
		}
	}))
}

// router2018 speaks like the 2018 router: /bot<token>/<method>, wrapped
// answers, and getUpdates with timeout 0 answers [] even with updates queued.
func router2018(t *testing.T, rec *recorder) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req := rec.add(t, r)
		if !strings.HasPrefix(r.URL.Path, "/bot"+testToken+"/") {
			writeJSON(w, "application/json", 404, map[string]any{"ok": false, "error_code": 404, "description": "Not Found"})
			return
		}
		switch method(r.URL.Path) {
		case "getUpdates":
			timeout, _ := req.params["timeout"].(json.Number).Int64()
			ups := []Update{}
			if timeout > 0 {
				ups = append(ups, Update{UpdateID: 1, Message: &Message{Chat: Chat{ID: 1 << 40}, Text: "/start\nline one\nline two"}})
			}
			writeJSON(w, "application/json", 200, map[string]any{"ok": true, "result": ups})
		case "sendMessage":
			id, _ := req.params["chat_id"].(json.Number).Int64()
			writeJSON(w, "application/json", 200, map[string]any{"ok": true, "result": Message{MessageID: 1, Chat: Chat{ID: id}, Text: req.params["text"].(string)}})
		default:
			writeJSON(w, "application/json", 400, map[string]any{"ok": false, "error_code": 400, "description": "unsupported method"})
		}
	}))
}

func newClient(t testing.TB, base string, opts ...Option) *Client {
	t.Helper()
	c, err := New(base, testToken, append([]Option{WithLogger(slog.New(slog.DiscardHandler))}, opts...)...)
	if err != nil {
		t.Fatalf("New(%q): %v", base, err)
	}
	return c
}

func TestNew(t *testing.T) {
	tests := []struct {
		name, base, token string
		wantErr           bool
	}{
		{"telegram", "https://api.telegram.org", "t", false},
		{"trailing slash", "http://localhost:8080/", "t", false},
		{"2017 token template", "http://host/convai/{token}", "t", false},
		{"empty token", "https://api.telegram.org", "", true},
		{"no scheme", "api.telegram.org", "t", true},
		{"other scheme", "ftp://host", "t", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.base, tt.token)
			if (err != nil) != tt.wantErr {
				t.Errorf("New(%q) error %v, want error %v", tt.base, err, tt.wantErr)
			}
		})
	}
}

func TestGetUpdatesDialects(t *testing.T) {
	tests := []struct {
		name      string
		server    func(*testing.T, *recorder) *httptest.Server
		base      func(url string) string
		wantPath  string
		wantChats []int64
		wantTexts []string
	}{
		{"telegram", telegramServer, func(u string) string { return u }, "/bot" + testToken + "/getUpdates",
			[]int64{9, 9, 9}, []string{"m100", "m101", "m102"}},
		{"convai 2017", server2017, func(u string) string { return u + "/convai/{token}/" }, "/convai/" + testToken + "/getUpdates",
			[]int64{-2147483648, 77}, []string{"/start ctx", "hello"}},
		{"convai 2018", router2018, func(u string) string { return u }, "/bot" + testToken + "/getUpdates",
			[]int64{1 << 40}, []string{"/start\nline one\nline two"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{}
			srv := tt.server(t, rec)
			defer srv.Close()
			c := newClient(t, tt.base(srv.URL))
			ups, err := c.GetUpdates(context.Background(), 0, 0)
			if err != nil {
				t.Fatalf("GetUpdates: %v", err)
			}
			if len(ups) != len(tt.wantChats) {
				t.Fatalf("got %d updates, want %d", len(ups), len(tt.wantChats))
			}
			for i, u := range ups {
				if u.Message == nil || u.Message.Chat.ID != tt.wantChats[i] || u.Message.Text != tt.wantTexts[i] {
					t.Errorf("update %d: got %+v, want chat %d text %q", i, u.Message, tt.wantChats[i], tt.wantTexts[i])
				}
			}
			req := rec.all()[0]
			if req.path != tt.wantPath {
				t.Errorf("got path %q, want %q", req.path, tt.wantPath)
			}
			if got := req.params["timeout"]; got != json.Number("1") {
				t.Errorf("got timeout %v, want 1 (at least one second)", got)
			}
			if got, _ := json.Marshal(req.params["allowed_updates"]); string(got) != `["message"]` {
				t.Errorf("got allowed_updates %s, want [\"message\"]", got)
			}
		})
	}
}

func TestGetUpdatesOffset(t *testing.T) {
	rec := &recorder{}
	srv := telegramServer(t, rec)
	defer srv.Close()
	c := newClient(t, srv.URL)
	ups, err := c.GetUpdates(context.Background(), 0, 30*time.Second)
	if err != nil {
		t.Fatalf("GetUpdates: %v", err)
	}
	if len(ups) != 3 {
		t.Fatalf("got %d updates, want 3", len(ups))
	}
	next := ups[len(ups)-1].UpdateID + 1
	ups, err = c.GetUpdates(context.Background(), next, time.Second)
	if err != nil {
		t.Fatalf("GetUpdates(offset %d): %v", next, err)
	}
	if len(ups) != 0 {
		t.Errorf("got %d updates after acknowledging them all, want 0", len(ups))
	}
	reqs := rec.all()
	if got := reqs[0].params["timeout"]; got != json.Number("30") {
		t.Errorf("got timeout %v, want 30", got)
	}
	if got := reqs[1].params["offset"]; got != json.Number(fmt.Sprint(next)) {
		t.Errorf("got offset %v, want %d", got, next)
	}
}

func TestSendMessage(t *testing.T) {
	servers := []struct {
		name   string
		server func(*testing.T, *recorder) *httptest.Server
		base   func(string) string
	}{
		{"telegram", telegramServer, func(u string) string { return u }},
		{"convai 2017", server2017, func(u string) string { return u + "/convai/{token}" }},
		{"convai 2018", router2018, func(u string) string { return u }},
	}
	ids := []int64{-5, 1 << 40, -(1 << 40), 2147483647}
	for _, s := range servers {
		for _, id := range ids {
			t.Run(fmt.Sprintf("%s/%d", s.name, id), func(t *testing.T) {
				rec := &recorder{}
				srv := s.server(t, rec)
				defer srv.Close()
				c := newClient(t, s.base(srv.URL))
				text := `{"text":"hi","evaluation":5}`
				m, err := c.SendMessage(context.Background(), id, text)
				if err != nil {
					t.Fatalf("SendMessage: %v", err)
				}
				if m.Chat.ID != id || m.Text != text {
					t.Errorf("got message chat %d text %q, want %d %q", m.Chat.ID, m.Text, id, text)
				}
				req := rec.all()[0]
				if !strings.HasPrefix(req.contentType, "application/json") {
					t.Errorf("got Content-Type %q, want application/json", req.contentType)
				}
				if got, ok := req.params["chat_id"].(json.Number); !ok || got.String() != fmt.Sprint(id) {
					t.Errorf("got chat_id %#v, want the JSON number %d", req.params["chat_id"], id)
				}
				if req.params["text"] != text {
					t.Errorf("got text %v, want %q", req.params["text"], text)
				}
			})
		}
	}
}

func TestSendMessageNonMessageResult(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"ok":true,"result":true}`)
	}))
	defer srv.Close()
	m, err := newClient(t, srv.URL).SendMessage(context.Background(), 3, "x")
	if err != nil {
		t.Fatalf("SendMessage: %v", err)
	}
	if m.Chat.ID != 3 || m.Text != "x" {
		t.Errorf("got %+v, want the message as sent", m)
	}
}

// step is one canned answer of a scripted server.
type step struct {
	status int
	header map[string]string
	body   string
	hangup bool // close the connection without an answer
}

func scripted(t *testing.T, steps []step) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := int(n.Add(1) - 1)
		s := steps[min(i, len(steps)-1)]
		if s.hangup {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
			return
		}
		for k, v := range s.header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(s.status)
		fmt.Fprint(w, s.body)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// tooManyHour is Telegram's answer to a flood: wait an hour.
const tooManyHour = `{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 3600","parameters":{"retry_after":3600}}`

const okMessage = `{"ok":true,"result":{"message_id":1,"chat":{"id":1},"text":"x"}}`

func TestRetries(t *testing.T) {
	tests := []struct {
		name      string
		steps     []step
		attempts  int
		deadline  time.Duration
		wantCalls int
		wantErr   int // APIError code wanted; 0: success; -1: another error
		wantWaits []time.Duration
		maxWait   time.Duration // when set, every wait must be at most this (jittered backoff)
	}{
		{
			name:      "429 waits parameters.retry_after",
			steps:     []step{{status: 429, body: `{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 3","parameters":{"retry_after":3}}`}, {status: 200, body: okMessage}},
			wantCalls: 2,
			wantWaits: []time.Duration{3 * time.Second},
		},
		{
			name:      "429 waits the Retry-After header",
			steps:     []step{{status: 429, header: map[string]string{"Retry-After": "2"}, body: "slow down"}, {status: 200, body: okMessage}},
			wantCalls: 2,
			wantWaits: []time.Duration{2 * time.Second},
		},
		{
			name:      "5xx backs off and retries",
			steps:     []step{{status: 502, body: "bad gateway"}, {status: 500, body: `{"ok":false,"error_code":500,"description":"internal"}`}, {status: 200, body: okMessage}},
			wantCalls: 3,
			maxWait:   40 * time.Millisecond,
		},
		{
			name:      "connection dropped after the request is not retried",
			steps:     []step{{hangup: true}, {status: 200, body: okMessage}},
			wantCalls: 1,
			wantErr:   -1,
		},
		{
			name:      "ok:false in a 200 without error_code is permanent",
			steps:     []step{{status: 200, body: `{"ok":false,"description":"chat is over"}`}, {status: 200, body: okMessage}},
			wantCalls: 1,
			wantErr:   200,
		},
		{
			name:      "400 is not retried",
			steps:     []step{{status: 400, body: `{"ok":false,"error_code":400,"description":"Bad Request: chat not found"}`}},
			wantCalls: 1,
			wantErr:   400,
		},
		{
			name:      "403 is not retried",
			steps:     []step{{status: 403, body: `{"ok":false,"error_code":403,"description":"Forbidden: bot was blocked by the user"}`}},
			wantCalls: 1,
			wantErr:   403,
		},
		{
			name:      "attempts are bounded",
			steps:     []step{{status: 503, body: "unavailable"}},
			attempts:  3,
			wantCalls: 3,
			wantErr:   503,
			maxWait:   40 * time.Millisecond,
		},
		{
			name:      "no retry past the deadline",
			steps:     []step{{status: 429, body: `{"ok":false,"error_code":429,"description":"Too Many Requests","parameters":{"retry_after":60}}`}, {status: 200, body: okMessage}},
			deadline:  5 * time.Second,
			wantCalls: 1,
			wantErr:   429,
		},
		{
			name:      "429 longer than the deadline leaves is not slept",
			steps:     []step{{status: 429, body: tooManyHour}, {status: 200, body: okMessage}},
			deadline:  20 * time.Second,
			wantCalls: 1,
			wantErr:   429,
			wantWaits: []time.Duration{},
		},
		{
			name:      "429 longer than the cap is not slept without a deadline",
			steps:     []step{{status: 429, body: tooManyHour}, {status: 200, body: okMessage}},
			wantCalls: 1,
			wantErr:   429,
			wantWaits: []time.Duration{},
		},
		{
			name:      "429 within the cap and the deadline is slept",
			steps:     []step{{status: 429, body: `{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 3","parameters":{"retry_after":3}}`}, {status: 200, body: okMessage}},
			deadline:  20 * time.Second,
			wantCalls: 2,
			wantWaits: []time.Duration{3 * time.Second},
		},
		{
			name:      "2xx that is not JSON",
			steps:     []step{{status: 200, body: "<html>hello</html>"}},
			wantCalls: 1,
			wantErr:   -1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, calls := scripted(t, tt.steps)
			var waits []time.Duration
			opts := []Option{
				WithBackoff(10*time.Millisecond, 40*time.Millisecond),
				WithSleep(func(ctx context.Context, d time.Duration) error { waits = append(waits, d); return nil }),
			}
			if tt.attempts > 0 {
				opts = append(opts, WithMaxAttempts(tt.attempts))
			}
			c := newClient(t, srv.URL, opts...)
			ctx := context.Background()
			if tt.deadline > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tt.deadline)
				defer cancel()
			}
			_, err := c.SendMessage(ctx, 1, "x")
			var apiErr *APIError
			switch {
			case tt.wantErr == 0 && err != nil:
				t.Fatalf("got error %v, want success", err)
			case tt.wantErr > 0 && (!errors.As(err, &apiErr) || apiErr.Code != tt.wantErr):
				t.Fatalf("got error %v, want an *APIError with code %d", err, tt.wantErr)
			case tt.wantErr < 0 && err == nil:
				t.Fatal("got success, want an error")
			}
			if calls.Load() != int64(tt.wantCalls) {
				t.Errorf("got %d calls, want %d", calls.Load(), tt.wantCalls)
			}
			if tt.wantWaits != nil && fmt.Sprint(waits) != fmt.Sprint(tt.wantWaits) {
				t.Errorf("got waits %v, want %v", waits, tt.wantWaits)
			}
			if len(waits) != max(tt.wantCalls-1, 0) && tt.wantErr != 429 {
				t.Errorf("got %d waits, want %d", len(waits), tt.wantCalls-1)
			}
			for _, w := range waits {
				if tt.maxWait > 0 && (w <= 0 || w > tt.maxWait) {
					t.Errorf("got wait %v, want within (0, %v]", w, tt.maxWait)
				}
			}
		})
	}
}

// TestLong429ReturnsAtOnce runs with the real clock: a 429 asking for an
// hour fails the call at once with a retryable error, deadline or not.
func TestLong429ReturnsAtOnce(t *testing.T) {
	for _, deadline := range []time.Duration{0, 20 * time.Second} {
		t.Run(fmt.Sprint("deadline ", deadline), func(t *testing.T) {
			srv, calls := scripted(t, []step{{status: 429, body: tooManyHour}, {status: 200, body: okMessage}})
			c := newClient(t, srv.URL)
			ctx := context.Background()
			if deadline > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, deadline)
				defer cancel()
			}
			done := make(chan error, 1)
			go func() { _, err := c.SendMessage(ctx, 1, "x"); done <- err }()
			var err error
			select {
			case err = <-done:
			case <-time.After(5 * time.Second):
				t.Fatal("SendMessage still waiting after 5s")
			}
			var apiErr *APIError
			if !errors.As(err, &apiErr) || apiErr.Code != 429 || apiErr.RetryAfter != time.Hour || apiErr.Permanent() {
				t.Fatalf("got %v, want a retryable 429 *APIError asking for 1h", err)
			}
			if calls.Load() != 1 {
				t.Errorf("got %d calls, want 1", calls.Load())
			}
		})
	}
}

func TestCancelledContextStopsRetrying(t *testing.T) {
	srv, calls := scripted(t, []step{{status: 500, body: "down"}})
	ctx, cancel := context.WithCancel(context.Background())
	c := newClient(t, srv.URL, WithSleep(func(context.Context, time.Duration) error {
		cancel()
		return context.Canceled
	}))
	if _, err := c.SendMessage(ctx, 1, "x"); err == nil {
		t.Fatal("got success, want an error")
	}
	if calls.Load() != 1 {
		t.Errorf("got %d calls, want 1", calls.Load())
	}
}

func TestTokenNeverInErrors(t *testing.T) {
	closed := httptest.NewServer(http.NotFoundHandler())
	closedURL := closed.URL
	closed.Close()
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, "application/json", 401, map[string]any{"ok": false, "error_code": 401, "description": "Unauthorized " + r.URL.Path})
	}))
	defer echo.Close()
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no such path "+r.URL.Path, 404)
	}))
	defer plain.Close()
	garbage := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "oops "+r.URL.String())
	}))
	defer garbage.Close()

	tests := []struct{ name, base string }{
		{"connection refused", closedURL},
		{"connection refused, 2017 URL", closedURL + "/{token}"},
		{"description echoes the path", echo.URL},
		{"plain error echoes the path", plain.URL + "/x/{token}"},
		{"answer that is not JSON", garbage.URL},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newClient(t, tt.base, WithMaxAttempts(2), WithSleep(func(context.Context, time.Duration) error { return nil }))
			_, err := c.SendMessage(context.Background(), 1, "x")
			if err == nil {
				t.Fatal("got success, want an error")
			}
			for _, secret := range []string{testToken, "SECRET"} {
				if strings.Contains(err.Error(), secret) {
					t.Errorf("error %q contains the token", err)
				}
			}
		})
	}
}

func TestWebhookMethods(t *testing.T) {
	rec := &recorder{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec.add(t, r)
		switch method(r.URL.Path) {
		case "getWebhookInfo":
			fmt.Fprint(w, `{"ok":true,"result":{"url":"https://x.example/telegram","has_custom_certificate":false,"pending_update_count":3,"last_error_message":"Wrong response"}}`)
		default:
			fmt.Fprint(w, `{"ok":true,"result":true,"description":"Webhook was set"}`)
		}
	}))
	defer srv.Close()
	c := newClient(t, srv.URL)
	ctx := context.Background()
	if err := c.SetWebhook(ctx, "https://x.example/telegram", "s3cr3t"); err != nil {
		t.Fatalf("SetWebhook: %v", err)
	}
	info, err := c.GetWebhookInfo(ctx)
	if err != nil {
		t.Fatalf("GetWebhookInfo: %v", err)
	}
	if info.URL != "https://x.example/telegram" || info.PendingUpdateCount != 3 || info.LastErrorMessage != "Wrong response" {
		t.Errorf("got %+v, want the server's webhook info", info)
	}
	if err := c.DeleteWebhook(ctx); err != nil {
		t.Fatalf("DeleteWebhook: %v", err)
	}
	reqs := rec.all()
	if len(reqs) != 3 {
		t.Fatalf("got %d requests, want 3", len(reqs))
	}
	set := reqs[0].params
	if set["url"] != "https://x.example/telegram" || set["secret_token"] != "s3cr3t" || set["drop_pending_updates"] != false {
		t.Errorf("got setWebhook params %v, want url, secret_token and drop_pending_updates false", set)
	}
	if got, _ := json.Marshal(set["allowed_updates"]); string(got) != `["message"]` {
		t.Errorf("got allowed_updates %s, want [\"message\"]", got)
	}
	for i, want := range []string{"setWebhook", "getWebhookInfo", "deleteWebhook"} {
		if got := reqs[i].path; got != "/bot"+testToken+"/"+want {
			t.Errorf("request %d: got path %q, want %q", i, got, "/bot<token>/"+want)
		}
	}
	if reqs[2].params["drop_pending_updates"] != false {
		t.Errorf("got deleteWebhook params %v, want drop_pending_updates false", reqs[2].params)
	}
}

// TestSnippetCutsOnCharacters quotes long error answers without splitting
// a multi-byte character at the cut.
func TestSnippetCutsOnCharacters(t *testing.T) {
	for _, prefix := range []int{197, 198, 199, 200} {
		body := strings.Repeat("a", prefix) + strings.Repeat("é—😀", 20)
		got := snippet([]byte(body))
		if !utf8.ValidString(got) || !strings.HasSuffix(got, "…") || len(got) > snippetBytes+len("…") {
			t.Errorf("prefix %d: got %q, want valid UTF-8 of at most %d bytes and an ellipsis", prefix, got, snippetBytes)
		}
		if !strings.HasPrefix(body, strings.TrimSuffix(got, "…")) {
			t.Errorf("prefix %d: got %q, want the start of the answer", prefix, got)
		}
	}
}
