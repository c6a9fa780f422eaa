package openai

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// fakeAPI speaks the OpenAI embeddings wire format. Before answering it
// fails limited times with 429 and Retry-After: 7.
type fakeAPI struct {
	t       *testing.T
	key     string
	limited int
	calls   int
	inputs  [][]string
}

func (f *fakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.calls++
	w.Header().Set("Content-Type", "application/json")
	if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	if r.Header.Get("Authorization") != "Bearer "+f.key {
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte(`{"error":{"message":"Incorrect API key provided: wr***ey.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`))
		return
	}
	if f.limited > 0 {
		f.limited--
		w.Header().Set("Retry-After", "7")
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = w.Write([]byte(`{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`))
		return
	}
	var req struct {
		Model string   `json:"model"`
		Input []string `json:"input"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model == "" {
		f.t.Errorf("bad request body: %v %+v", err, req)
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	f.inputs = append(f.inputs, req.Input)
	type datum struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	var data []datum
	// Answer in reverse order: clients must sort by index.
	for i := len(req.Input) - 1; i >= 0; i-- {
		data = append(data, datum{"embedding", i, []float32{float32(len(req.Input[i])), float32(i)}})
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": req.Model,
		"usage": map[string]int{"prompt_tokens": 3, "total_tokens": 3}})
}

func TestEmbed(t *testing.T) {
	tests := []struct {
		name      string
		key       string
		limited   int
		retries   int
		wantErr   string
		wantWaits []time.Duration
	}{
		{name: "ok", key: "sk-test"},
		{name: "rate limited then ok", key: "sk-test", limited: 2, retries: 3, wantWaits: []time.Duration{7 * time.Second, 7 * time.Second}},
		{name: "rate limited too long", key: "sk-test", limited: 5, retries: 1, wantErr: "429 Rate limit reached (rate_limit_exceeded)", wantWaits: []time.Duration{7 * time.Second}},
		{name: "wrong key", key: "wrong-key", wantErr: "401 Incorrect API key provided"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api := &fakeAPI{t: t, key: "sk-test", limited: tt.limited}
			srv := httptest.NewServer(api)
			defer srv.Close()
			var waits []time.Duration
			c := mustNew(t, srv.URL, tt.key, "text-embedding-ada-002", WithMaxRetries(tt.retries),
				WithSleep(func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }))
			vecs, err := c.Embed(context.Background(), []string{"a", "bbb", ""})
			if len(waits) != len(tt.wantWaits) {
				t.Errorf("waits: got %v, want %v", waits, tt.wantWaits)
			}
			for i := range min(len(waits), len(tt.wantWaits)) {
				if waits[i] != tt.wantWaits[i] {
					t.Errorf("wait %d: got %v, want %v (Retry-After)", i, waits[i], tt.wantWaits[i])
				}
			}
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error: got %v, want one containing %q", err, tt.wantErr)
				}
				var apiErr *APIError
				if !errors.As(err, &apiErr) {
					t.Errorf("error %v: want an *APIError", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := [][]float32{{1, 0}, {3, 1}, {1, 2}} // "" is sent as " "
			for i := range want {
				if len(vecs[i]) != 2 || vecs[i][0] != want[i][0] || vecs[i][1] != want[i][1] {
					t.Errorf("vector %d: got %v, want %v", i, vecs[i], want[i])
				}
			}
			if len(api.inputs) != 1 || len(api.inputs[0]) != 3 {
				t.Errorf("requests: got inputs %v, want one batch of 3", api.inputs)
			}
		})
	}
}

func mustNew(t testing.TB, baseURL, key, model string, opts ...Option) *Client {
	t.Helper()
	c, err := New(baseURL, key, model, opts...)
	if err != nil {
		t.Fatalf("New(%q): %v", baseURL, err)
	}
	return c
}

// The rule that maps OPENAI_BASE_URL to the endpoint is openaicompat's, and
// tested there against both endpoints; here, that New refuses a bad one.
func TestNewBadBaseURL(t *testing.T) {
	for _, base := range []string{"localhost:11434", "ftp://host/v1", "http://host/v1/embeddings", "http://host/v1?x=1"} {
		if _, err := New(base, "", ""); err == nil {
			t.Errorf("New(%q): got no error", base)
		}
	}
}

func TestRetryWaits(t *testing.T) {
	tests := []struct {
		name      string
		header    map[string]string
		status    int
		code      string
		wantCalls int
		wantWaits int
	}{
		{"retry-after-ms", map[string]string{"Retry-After-Ms": "1500"}, 429, "rate_limit_exceeded", 2, 1},
		{"longer than the cap: not slept", map[string]string{"Retry-After": "3600"}, 429, "rate_limit_exceeded", 1, 0},
		{"no header: backoff", nil, 503, "overloaded", 2, 1},
		{"exhausted quota: not retried", nil, 429, "insufficient_quota", 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := 0
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				calls++
				w.Header().Set("Content-Type", "application/json")
				if calls == 1 {
					for k, v := range tt.header {
						w.Header().Set(k, v)
					}
					w.WriteHeader(tt.status)
					_, _ = w.Write([]byte(`{"error":{"message":"later","type":"requests","code":"` + tt.code + `"}}`))
					return
				}
				_, _ = w.Write([]byte(`{"object":"list","data":[{"object":"embedding","index":0,"embedding":[1]}],"model":"m"}`))
			}))
			defer srv.Close()
			var waits []time.Duration
			c := mustNew(t, srv.URL, "", "", WithSleep(func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }))
			_, err := c.Embed(context.Background(), []string{"x"})
			if (err == nil) != (tt.wantCalls == 2) {
				t.Errorf("got error %v after %d calls", err, calls)
			}
			if calls != tt.wantCalls || len(waits) != tt.wantWaits {
				t.Errorf("got %d calls and waits %v, want %d calls and %d waits", calls, waits, tt.wantCalls, tt.wantWaits)
			}
			if tt.header["Retry-After-Ms"] == "1500" && len(waits) == 1 && waits[0] != 1500*time.Millisecond {
				t.Errorf("got wait %v, want 1.5s", waits[0])
			}
			for _, w := range waits {
				if w <= 0 || w > maxRetryWait {
					t.Errorf("got wait %v, want within (0, %v]", w, maxRetryWait)
				}
			}
		})
	}
}

// Servers other than OpenAI may send the error code as a number.
func TestNumericErrorCode(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"error":{"message":"model not found","type":"invalid_request_error","code":404}}`))
	}))
	defer srv.Close()
	_, err := mustNew(t, srv.URL, "", "nope").Embed(context.Background(), []string{"x"})
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 400 || apiErr.Code != "404" || apiErr.Message != "model not found" || apiErr.Temporary() {
		t.Errorf("error: got %#v, want a permanent 400 with code 404 and the message", apiErr)
	}
}
