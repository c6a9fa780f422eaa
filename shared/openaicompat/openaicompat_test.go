package openaicompat_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/openai/openai-go/v3"

	"github.com/duetbot/duet/shared/brain/llm"
	brainopenai "github.com/duetbot/duet/shared/brain/openai"
	embedopenai "github.com/duetbot/duet/shared/embed/openai"
	"github.com/duetbot/duet/shared/openaicompat"
)

func TestBaseURL(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"", openaicompat.DefaultBaseURL},
		{"  ", openaicompat.DefaultBaseURL},
		{"http://localhost:11434", "http://localhost:11434/v1"},
		{"http://localhost:11434/", "http://localhost:11434/v1"},
		{"http://localhost:11434/v1/", "http://localhost:11434/v1"},
		{"http://host/api", "http://host/api"},
		{"https://example.com/api/openai/", "https://example.com/api/openai"},
		{"https://api.groq.com/openai/v1", "https://api.groq.com/openai/v1"},
		{"https://generativelanguage.googleapis.com/v1beta/openai/", "https://generativelanguage.googleapis.com/v1beta/openai"},
	} {
		if got, err := openaicompat.BaseURL(tt.in); err != nil || got != tt.want {
			t.Errorf("BaseURL(%q): got %q, %v, want %q", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{
		"localhost:11434", "ftp://host/v1", "http://", "http://host/v1?api-version=1", "http://host/v1#x",
		"http://host/v1/chat/completions", "http://host/v1/embeddings/", "://x",
	} {
		if got, err := openaicompat.BaseURL(bad); err == nil {
			t.Errorf("BaseURL(%q): got %q, want an error", bad, got)
		}
	}
}

// fakeAPI speaks the OpenAI wire format for both endpoints under one
// prefix and records the paths it was asked for.
type fakeAPI struct {
	t      *testing.T
	prefix string
	mu     sync.Mutex
	paths  []string
}

func (f *fakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.paths = append(f.paths, r.URL.Path)
	f.mu.Unlock()
	body, _ := io.ReadAll(r.Body)
	var req map[string]any
	if r.Method != http.MethodPost || json.Unmarshal(body, &req) != nil {
		f.t.Errorf("got %s %s %s, want a POST of JSON", r.Method, r.URL.Path, body)
	}
	if r.Header.Get("Authorization") != "Bearer sk-test" {
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	switch r.URL.Path {
	case f.prefix + "/chat/completions":
		_, _ = io.WriteString(w, `{"id":"chatcmpl-1","object":"chat.completion","created":1700000000,"model":"m",
			"choices":[{"index":0,"finish_reason":"stop","logprobs":null,"message":{"role":"assistant","content":"hello","refusal":null}}],
			"usage":{"prompt_tokens":5,"completion_tokens":1,"total_tokens":6}}`)
	case f.prefix + "/embeddings":
		_, _ = io.WriteString(w, `{"object":"list","model":"m","data":[{"object":"embedding","index":0,"embedding":[0.5,-0.25]}],
			"usage":{"prompt_tokens":1,"total_tokens":1}}`)
	default:
		w.WriteHeader(http.StatusNotFound)
		_, _ = io.WriteString(w, `{"error":{"message":"no such endpoint","type":"invalid_request_error","code":null}}`)
	}
}

// TestOneBaseURLRuleForBothEndpoints gives the same OPENAI_BASE_URL to the
// chat model and the embedder: both reach their endpoint under the same
// base, whatever form the URL takes.
func TestOneBaseURLRuleForBothEndpoints(t *testing.T) {
	for _, tt := range []struct{ suffix, prefix string }{
		{"", "/v1"},
		{"/", "/v1"},
		{"/v1", "/v1"},
		{"/v1/", "/v1"},
		{"/api", "/api"}, // was /api/chat/completions but /api/v1/embeddings
		{"/api/v1", "/api/v1"},
		{"/openai/v1beta/", "/openai/v1beta"},
	} {
		t.Run("base"+tt.suffix, func(t *testing.T) {
			f := &fakeAPI{t: t, prefix: tt.prefix}
			srv := httptest.NewServer(f)
			defer srv.Close()
			base := srv.URL + tt.suffix
			ctx := context.Background()

			m, err := brainopenai.New(base, "sk-test", "m")
			if err != nil {
				t.Fatalf("brain/openai.New(%q): %v", base, err)
			}
			res, err := m.Chat(ctx, llm.ChatRequest{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}})
			if err != nil || res.Text != "hello" {
				t.Errorf("Chat: got %q, %v, want hello", res.Text, err)
			}

			e, err := embedopenai.New(base, "sk-test", "m")
			if err != nil {
				t.Fatalf("embed/openai.New(%q): %v", base, err)
			}
			vecs, err := e.Embed(ctx, []string{"x"})
			if err != nil || len(vecs) != 1 || len(vecs[0]) != 2 || vecs[0][0] != 0.5 || vecs[0][1] != -0.25 {
				t.Errorf("Embed: got %v, %v, want [[0.5 -0.25]]", vecs, err)
			}
			want := []string{tt.prefix + "/chat/completions", tt.prefix + "/embeddings"}
			if strings.Join(f.paths, " ") != strings.Join(want, " ") {
				t.Errorf("got paths %q, want %q", f.paths, want)
			}
		})
	}
}

// TestErrorAnswers reads code, throttling and wait from real error answers.
func TestErrorAnswers(t *testing.T) {
	for _, tt := range []struct {
		name      string
		status    int
		header    map[string]string
		body      string
		code      string
		throttled bool
		wait      time.Duration
		waitOK    bool
	}{
		{"rate limit with retry-after-ms", 429, map[string]string{"Retry-After": "2", "Retry-After-Ms": "1500"},
			`{"error":{"message":"Rate limit reached","type":"requests","param":null,"code":"rate_limit_exceeded"}}`, "rate_limit_exceeded", true, 1500 * time.Millisecond, true},
		{"rate limit with seconds", 429, map[string]string{"Retry-After": "7"},
			`{"error":{"message":"slow down","type":"requests","code":null}}`, "requests", true, 7 * time.Second, true},
		{"exhausted quota", 429, nil,
			`{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}}`, "insufficient_quota", false, 0, false},
		{"numeric code", 400, nil,
			`{"error":{"message":"model not found","type":"invalid_request_error","code":404}}`, "404", false, 0, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				for k, v := range tt.header {
					w.Header().Set(k, v)
				}
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(tt.status)
				_, _ = io.WriteString(w, tt.body)
			}))
			defer srv.Close()
			c, err := openaicompat.New(openaicompat.Config{BaseURL: srv.URL})
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.Embeddings.New(context.Background(), sdk.EmbeddingNewParams{
				Model: "m", Input: sdk.EmbeddingNewParamsInputUnion{OfString: sdk.String("x")},
			})
			e, ok := openaicompat.APIError(err)
			if !ok {
				t.Fatalf("got %v, want an *sdk.Error", err)
			}
			wait, waitOK := openaicompat.RetryAfter(e)
			if got := openaicompat.Code(e); got != tt.code || openaicompat.Throttled(e) != tt.throttled || wait != tt.wait || waitOK != tt.waitOK {
				t.Errorf("got code %q, throttled %v, wait %v %v; want %q, %v, %v %v",
					got, openaicompat.Throttled(e), wait, waitOK, tt.code, tt.throttled, tt.wait, tt.waitOK)
			}
		})
	}
	if _, ok := openaicompat.APIError(errors.New("dial tcp: connection refused")); ok {
		t.Error("a network error read as an error answer")
	}
}
