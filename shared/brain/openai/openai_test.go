package openai_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/duetbot/duet/shared/annex"
	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/brain/llm"
	"github.com/duetbot/duet/shared/brain/offline"
	"github.com/duetbot/duet/shared/brain/openai"
)

const key = "sk-test-SECRET-0123456789"

// fakeAPI speaks the Chat Completions wire format. Each request is answered
// by the next of answers (the last one repeats).
type fakeAPI struct {
	t       testing.TB
	answers []func(w http.ResponseWriter, r *http.Request)

	mu        sync.Mutex
	bodies    []map[string]any
	cancelled chan struct{}
}

func newFake(t testing.TB, answers ...func(w http.ResponseWriter, r *http.Request)) (*fakeAPI, *httptest.Server) {
	t.Helper()
	f := &fakeAPI{t: t, answers: answers, cancelled: make(chan struct{}, 8)}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, srv
}

func (f *fakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		f.t.Errorf("request: got %s %s, want POST /v1/chat/completions", r.Method, r.URL.Path)
		http.NotFound(w, r)
		return
	}
	raw, _ := io.ReadAll(r.Body)
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil {
		f.t.Errorf("request body %s: %v", raw, err)
	}
	f.mu.Lock()
	f.bodies = append(f.bodies, body)
	answer := f.answers[min(len(f.bodies), len(f.answers))-1]
	f.mu.Unlock()
	if r.Header.Get("Authorization") != "Bearer "+key {
		unauthorized(w, r)
		return
	}
	answer(w, r)
}

func (f *fakeAPI) requests() []map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]map[string]any(nil), f.bodies...)
}

func completion(text string) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"id": "chatcmpl-1", "object": "chat.completion", "created": 1700000000, "model": "gpt-test",
			"choices": []any{map[string]any{
				"index": 0, "finish_reason": "stop", "logprobs": nil,
				"message": map[string]any{"role": "assistant", "content": text, "refusal": nil},
			}},
			"usage": map[string]any{"prompt_tokens": 321, "completion_tokens": 12, "total_tokens": 333},
		})
	}
}

func apiError(status int, code string, header map[string]string) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, _ *http.Request) {
		for k, v := range header {
			w.Header().Set(k, v)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, `{"error":{"message":"something went wrong","type":"error","param":null,"code":"`+code+`"}}`)
	}
}

func unauthorized(w http.ResponseWriter, r *http.Request) {
	apiError(http.StatusUnauthorized, "invalid_api_key", nil)(w, r)
}

// hang answers nothing until the client gives up.
func (f *fakeAPI) hang(_ http.ResponseWriter, r *http.Request) {
	<-r.Context().Done()
	f.cancelled <- struct{}{}
}

func malformed(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, `{"id": "chatcmpl-1", "choices": [{"message": {"content": "unterminated`)
}

var chatReq = brain.Request{
	Context: "Honey never spoils: edible honey was found in ancient Egyptian tombs.",
	Turns: []brain.Turn{
		{Role: brain.Bot, Text: "Would you eat 3000-year-old honey?"},
		{Role: brain.Partner, Text: "maybe. why?"},
	},
}

// newBrain returns an llm.Brain over the fake at url, with the offline
// fallbacks and the logs in a buffer.
func newBrain(t testing.TB, url, apiKey string, timeout time.Duration) (*llm.Brain, *bytes.Buffer) {
	t.Helper()
	m, err := openai.New(url, apiKey, "gpt-test")
	if err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	off := offline.New()
	b, err := llm.New(m, llm.Options{
		Fallback: off, FallbackPersona: annex.Offline{}, FallbackEvaluator: off,
		Timeout: timeout, Log: slog.New(slog.NewJSONHandler(&logs, nil)),
		Backend: "openai", ModelID: "gpt-test",
	})
	if err != nil {
		t.Fatal(err)
	}
	return b, &logs
}

func offlineReply(t testing.TB) string {
	t.Helper()
	s, err := offline.New().Reply(context.Background(), chatReq)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestReply(t *testing.T) {
	tests := []struct {
		name      string
		key       string
		answers   func(f *fakeAPI) []func(http.ResponseWriter, *http.Request)
		want      string // "" means the offline reply
		wantCalls int
		reason    string
		cancelled bool
	}{
		{name: "model answers", key: key, answers: func(*fakeAPI) []func(http.ResponseWriter, *http.Request) {
			return []func(http.ResponseWriter, *http.Request){completion("Because it keeps forever. Have you tasted raw honey?")}
		}, want: "Because it keeps forever. Have you tasted raw honey?", wantCalls: 1},
		{name: "wrong key", key: "sk-wrong", answers: func(*fakeAPI) []func(http.ResponseWriter, *http.Request) {
			return []func(http.ResponseWriter, *http.Request){completion("unreachable")}
		}, wantCalls: 1, reason: "error"},
		{name: "rate limited then ok", key: key, answers: func(*fakeAPI) []func(http.ResponseWriter, *http.Request) {
			return []func(http.ResponseWriter, *http.Request){
				apiError(http.StatusTooManyRequests, "rate_limit_exceeded", map[string]string{"Retry-After": "0.05"}),
				completion("Because bacteria cannot live in it."),
			}
		}, want: "Because bacteria cannot live in it.", wantCalls: 2},
		{name: "rate limited past the budget", key: key, answers: func(*fakeAPI) []func(http.ResponseWriter, *http.Request) {
			return []func(http.ResponseWriter, *http.Request){
				apiError(http.StatusTooManyRequests, "rate_limit_exceeded", map[string]string{"Retry-After": "20"}),
				completion("unreachable"),
			}
		}, wantCalls: 1, reason: "throttled"},
		{name: "quota exhausted", key: key, answers: func(*fakeAPI) []func(http.ResponseWriter, *http.Request) {
			return []func(http.ResponseWriter, *http.Request){
				apiError(http.StatusTooManyRequests, "insufficient_quota", nil),
				completion("unreachable"),
			}
		}, wantCalls: 1, reason: "error"},
		{name: "server error", key: key, answers: func(*fakeAPI) []func(http.ResponseWriter, *http.Request) {
			return []func(http.ResponseWriter, *http.Request){apiError(http.StatusInternalServerError, "server_error", nil), completion("unreachable")}
		}, wantCalls: 1, reason: "error"},
		{name: "never answers", key: key, answers: func(f *fakeAPI) []func(http.ResponseWriter, *http.Request) {
			return []func(http.ResponseWriter, *http.Request){f.hang}
		}, wantCalls: 1, reason: "timeout", cancelled: true},
		{name: "malformed JSON", key: key, answers: func(*fakeAPI) []func(http.ResponseWriter, *http.Request) {
			return []func(http.ResponseWriter, *http.Request){malformed}
		}, wantCalls: 1, reason: "error"},
		{name: "empty text", key: key, answers: func(*fakeAPI) []func(http.ResponseWriter, *http.Request) {
			return []func(http.ResponseWriter, *http.Request){completion("")}
		}, wantCalls: 1, reason: "invalid_output"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, srv := newFake(t)
			f.answers = tt.answers(f)
			b, logs := newBrain(t, srv.URL+"/v1", tt.key, 300*time.Millisecond)
			got, err := b.Reply(context.Background(), chatReq)
			if err != nil {
				t.Fatal(err)
			}
			want := tt.want
			if want == "" {
				want = offlineReply(t)
			}
			if got != want {
				t.Errorf("reply: got %q, want %q", got, want)
			}
			if n := len(f.requests()); n != tt.wantCalls {
				t.Errorf("requests: got %d, want %d", n, tt.wantCalls)
			}
			if tt.cancelled {
				select {
				case <-f.cancelled:
				case <-time.After(5 * time.Second):
					t.Error("the server never saw the request cancelled")
				}
			}
			var rec map[string]any
			if err := json.Unmarshal(logs.Bytes(), &rec); err != nil {
				t.Fatalf("log %q: %v", logs, err)
			}
			if rec["backend"] != "openai" || rec["model"] != "gpt-test" || rec["fallback"] != (tt.want == "") {
				t.Errorf("log: got %v, want backend openai, model gpt-test, fallback %v", rec, tt.want == "")
			}
			if r, _ := rec["reason"].(string); r != tt.reason {
				t.Errorf("log reason: got %q, want %q", r, tt.reason)
			}
			if tt.want != "" && (rec["tokens_in"] != float64(321) || rec["tokens_out"] != float64(12)) {
				t.Errorf("log tokens: got %v in, %v out, want 321, 12", rec["tokens_in"], rec["tokens_out"])
			}
			if strings.Contains(logs.String(), key) || strings.Contains(logs.String(), "sk-wrong") {
				t.Errorf("the log holds the API key: %s", logs)
			}
		})
	}
}

func TestRequestBody(t *testing.T) {
	f, srv := newFake(t, completion("ok"))
	b, _ := newBrain(t, srv.URL+"/v1/", key, time.Second)
	if _, err := b.Reply(context.Background(), chatReq); err != nil {
		t.Fatal(err)
	}
	body := f.requests()[0]
	if body["model"] != "gpt-test" || body["max_tokens"] == nil || body["temperature"] == nil || body["response_format"] != nil {
		t.Errorf("body: got %v, want model gpt-test, max_tokens, temperature and no response_format", body)
	}
	msgs, _ := body["messages"].([]any)
	roles := ""
	for _, m := range msgs {
		roles += m.(map[string]any)["role"].(string) + " "
	}
	if roles != "system user assistant user " {
		t.Errorf("roles: got %q, want system user assistant user", roles)
	}
	if sys := msgs[0].(map[string]any)["content"].(string); !strings.Contains(sys, chatReq.Context) {
		t.Errorf("system prompt lacks the context: %s", sys)
	}
}

func TestPersonaPrompt(t *testing.T) {
	f, srv := newFake(t, completion("@bob meh, ask me tomorrow"))
	b, _ := newBrain(t, srv.URL, key, time.Second)
	req := brain.Request{
		Turns: []brain.Turn{{Role: brain.Partner, Text: "are you coming to the offsite?"}},
		Persona: &brain.Persona{Name: "Grace Hopper", Examples: []brain.Example{
			{Prompt: "joining the team dinner?", Answer: "only if there's cake", Similarity: 0.5},
		}},
	}
	got, err := b.Reply(context.Background(), req)
	if err != nil || got != "bob meh, ask me tomorrow" {
		t.Errorf("reply: got %q, %v, want the model's, mention defused", got, err)
	}
	raw, _ := json.Marshal(f.requests()[0])
	for _, want := range []string{"Grace Hopper", "joining the team dinner?", "only if there's cake", "are you coming to the offsite?"} {
		if !bytes.Contains(raw, []byte(want)) {
			t.Errorf("request lacks %q: %s", want, raw)
		}
	}
}

func TestRate(t *testing.T) {
	wantOffline, err := offline.New().Rate(context.Background(), chatReq)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		answer func(http.ResponseWriter, *http.Request)
		want   int
	}{
		{"valid", completion(`{"evaluation": 6}`), 6},
		{"out of range", completion(`{"evaluation": 11}`), wantOffline},
		{"not JSON", completion(`seven`), wantOffline},
		{"server error", apiError(http.StatusInternalServerError, "", nil), wantOffline},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, srv := newFake(t, tt.answer)
			b, _ := newBrain(t, srv.URL, key, time.Second)
			got, err := b.Rate(context.Background(), chatReq)
			if err != nil || got != tt.want {
				t.Errorf("Rate: got %d, %v, want %d", got, err, tt.want)
			}
			rf, _ := f.requests()[0]["response_format"].(map[string]any)
			if rf["type"] != "json_object" {
				t.Errorf("response_format: got %v, want json_object", rf)
			}
		})
	}
}

func TestFinal(t *testing.T) {
	_, srv := newFake(t, completion(`{"quality": 8, "breadth": 4, "engagement": 7}`))
	b, _ := newBrain(t, srv.URL, key, time.Second)
	got, err := b.Final(context.Background(), chatReq)
	if want := (brain.Scores{Quality: 8, Breadth: 4, Engagement: 7}); err != nil || got != want {
		t.Errorf("Final: got %+v, %v, want %+v", got, err, want)
	}
}

// A server that rejects response_format is asked again without it, and not
// asked with it any more.
func TestJSONModeRejected(t *testing.T) {
	f, srv := newFake(t)
	f.answers = []func(http.ResponseWriter, *http.Request){func(w http.ResponseWriter, r *http.Request) {
		if f.requests()[len(f.requests())-1]["response_format"] != nil {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, `{"error":{"message":"'response_format.type' must be 'json_schema'","type":"invalid_request_error","param":"response_format","code":null}}`)
			return
		}
		completion(`{"evaluation": 9}`)(w, r)
	}}
	b, _ := newBrain(t, srv.URL, key, time.Second)
	for range 2 {
		if got, err := b.Rate(context.Background(), chatReq); err != nil || got != 9 {
			t.Errorf("Rate: got %d, %v, want 9", got, err)
		}
	}
	if n := len(f.requests()); n != 3 {
		t.Errorf("requests: got %d, want 3 (one rejected, two without response_format)", n)
	}
}

func TestModelErrors(t *testing.T) {
	_, srv := newFake(t, apiError(http.StatusTooManyRequests, "rate_limit_exceeded", map[string]string{"Retry-After-Ms": "1500", "Retry-After": "2"}))
	m, err := openai.New(srv.URL, key, "gpt-test")
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Chat(context.Background(), llm.ChatRequest{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}})
	var e *llm.Error
	if !errors.As(err, &e) || !e.Throttled || e.Status != 429 || e.Code != "rate_limit_exceeded" || e.RetryAfter != 1500*time.Millisecond {
		t.Errorf("error: got %#v, want a throttled 429 asking for 1.5s", e)
	}
	if strings.Contains(err.Error(), key) {
		t.Errorf("error %q holds the key", err)
	}
}

func TestNew(t *testing.T) {
	if _, err := openai.New("", "", ""); err == nil {
		t.Error("New without a model: got no error")
	}
	if _, err := openai.New("localhost:11434", "", "llama3"); err == nil {
		t.Error("New with a relative base URL: got no error")
	}
	// The base URL rule itself is openaicompat's (TestOneBaseURLRuleForBothEndpoints).
	if _, err := openai.New("http://localhost:11434/v1/chat/completions", "", "llama3"); err == nil {
		t.Error("New with an endpoint for a base URL: got no error")
	}
}
