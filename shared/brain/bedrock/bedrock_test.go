package bedrock_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime"

	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/brain/bedrock"
	"github.com/duetbot/duet/shared/brain/llm"
	"github.com/duetbot/duet/shared/brain/offline"
)

const (
	modelID = "anthropic.claude-test-v1:0"
	secret  = "SECRETKEY-0123456789"
)

// fakeBedrock speaks the Converse wire format: POST /model/{modelId}/converse.
// Each request is answered by the next of answers (the last one repeats).
type fakeBedrock struct {
	t       testing.TB
	answers []func(w http.ResponseWriter, r *http.Request)

	mu        sync.Mutex
	bodies    []map[string]any
	cancelled chan struct{}
}

func newFake(t testing.TB) (*fakeBedrock, *bedrockruntime.Client) {
	t.Helper()
	f := &fakeBedrock{t: t, cancelled: make(chan struct{}, 8)}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	client := bedrockruntime.New(bedrockruntime.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(srv.URL),
		Credentials:  credentials.NewStaticCredentialsProvider("AKIDTEST", secret, ""),
	})
	return f, client
}

func (f *fakeBedrock) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path, _ := url.PathUnescape(r.URL.EscapedPath())
	if r.Method != http.MethodPost || path != "/model/"+modelID+"/converse" {
		f.t.Errorf("request: got %s %s, want POST /model/%s/converse", r.Method, path, modelID)
		http.NotFound(w, r)
		return
	}
	if !strings.HasPrefix(r.Header.Get("Authorization"), "AWS4-HMAC-SHA256 Credential=AKIDTEST/") {
		f.t.Errorf("request not signed: %q", r.Header.Get("Authorization"))
	}
	var body map[string]any
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		f.t.Errorf("request body: %v", err)
	}
	f.mu.Lock()
	f.bodies = append(f.bodies, body)
	answer := f.answers[min(len(f.bodies), len(f.answers))-1]
	f.mu.Unlock()
	answer(w, r)
}

func (f *fakeBedrock) requests() []map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]map[string]any(nil), f.bodies...)
}

func converse(text, stop string) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"output": map[string]any{"message": map[string]any{
				"role": "assistant", "content": []any{map[string]any{"text": text}},
			}},
			"stopReason": stop,
			"usage":      map[string]any{"inputTokens": 250, "outputTokens": 9, "totalTokens": 259},
			"metrics":    map[string]any{"latencyMs": 120},
		})
	}
}

func serviceError(status int, kind string) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Amzn-ErrorType", kind)
		w.WriteHeader(status)
		_, _ = io.WriteString(w, `{"message":"`+kind+` from the fake"}`)
	}
}

func (f *fakeBedrock) hang(_ http.ResponseWriter, r *http.Request) {
	<-r.Context().Done()
	f.cancelled <- struct{}{}
}

var chatReq = brain.Request{
	Context: "Octopuses have three hearts and blue blood.",
	Turns:   []brain.Turn{{Role: brain.Partner, Text: "three what?"}},
}

func TestModel(t *testing.T) {
	tests := []struct {
		name     string
		answer   func(*fakeBedrock) func(http.ResponseWriter, *http.Request)
		want     string
		throttle bool
		code     string
		wait     time.Duration
		refused  bool
	}{
		{name: "ok", answer: func(*fakeBedrock) func(http.ResponseWriter, *http.Request) {
			return converse("Three hearts!", "end_turn")
		}, want: "Three hearts!"},
		{name: "throttled", answer: func(*fakeBedrock) func(http.ResponseWriter, *http.Request) {
			return serviceError(http.StatusTooManyRequests, "ThrottlingException")
		}, throttle: true, code: "ThrottlingException"},
		{name: "throttled with Retry-After", answer: func(*fakeBedrock) func(http.ResponseWriter, *http.Request) {
			return func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Retry-After", "2")
				serviceError(http.StatusTooManyRequests, "ThrottlingException")(w, r)
			}
		}, throttle: true, code: "ThrottlingException", wait: 2 * time.Second},
		{name: "invalid", answer: func(*fakeBedrock) func(http.ResponseWriter, *http.Request) {
			return serviceError(http.StatusBadRequest, "ValidationException")
		}, code: "ValidationException"},
		{name: "guardrail", answer: func(*fakeBedrock) func(http.ResponseWriter, *http.Request) {
			return converse("Sorry, I cannot.", "guardrail_intervened")
		}, refused: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, client := newFake(t)
			f.answers = []func(http.ResponseWriter, *http.Request){tt.answer(f)}
			m, err := bedrock.New(client, modelID)
			if err != nil {
				t.Fatal(err)
			}
			res, err := m.Chat(context.Background(), llm.ChatRequest{
				System:      "be brief",
				Messages:    []llm.Message{{Role: llm.RoleUser, Content: "three what?"}},
				MaxTokens:   64,
				Temperature: 0.5,
			})
			if n := len(f.requests()); n != 1 {
				t.Errorf("requests: got %d, want 1 (the SDK must not retry)", n)
			}
			switch {
			case tt.want != "":
				if err != nil || res.Text != tt.want || res.InputTokens != 250 || res.OutputTokens != 9 || res.StopReason != "end_turn" {
					t.Errorf("Chat: got %+v, %v, want %q with 250/9 tokens", res, err, tt.want)
				}
				body, _ := json.Marshal(f.requests()[0])
				for _, want := range []string{`"system":[{"text":"be brief"}]`, `"messages":[{"content":[{"text":"three what?"}],"role":"user"}]`, `"maxTokens":64`, `"temperature":0.5`} {
					if !bytes.Contains(body, []byte(want)) {
						t.Errorf("body %s lacks %s", body, want)
					}
				}
			case tt.refused:
				if !errors.Is(err, llm.ErrRefused) {
					t.Errorf("Chat: got %v, want ErrRefused", err)
				}
			default:
				var e *llm.Error
				if !errors.As(err, &e) || e.Throttled != tt.throttle || e.Code != tt.code || llm.IsThrottle(err) != tt.throttle || e.RetryAfter != tt.wait {
					t.Errorf("Chat: got %v (%#v), want code %s, throttled %v, retry after %v", err, e, tt.code, tt.throttle, tt.wait)
				}
			}
		})
	}
}

func TestBrain(t *testing.T) {
	wantOffline, err := offline.New().Reply(context.Background(), chatReq)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		answers   func(*fakeBedrock) []func(http.ResponseWriter, *http.Request)
		want      string // "" means the offline reply
		wantCalls int
		cancelled bool
	}{
		{name: "model answers", answers: func(*fakeBedrock) []func(http.ResponseWriter, *http.Request) {
			return []func(http.ResponseWriter, *http.Request){converse("Three hearts, yes. Surprised?", "end_turn")}
		}, want: "Three hearts, yes. Surprised?", wantCalls: 1},
		{name: "throttled then ok", answers: func(*fakeBedrock) []func(http.ResponseWriter, *http.Request) {
			return []func(http.ResponseWriter, *http.Request){serviceError(http.StatusTooManyRequests, "ThrottlingException"), converse("Hearts. Three.", "end_turn")}
		}, want: "Hearts. Three.", wantCalls: 2},
		{name: "validation error", answers: func(*fakeBedrock) []func(http.ResponseWriter, *http.Request) {
			return []func(http.ResponseWriter, *http.Request){serviceError(http.StatusBadRequest, "ValidationException"), converse("unreachable", "end_turn")}
		}, wantCalls: 1},
		{name: "timeout", answers: func(f *fakeBedrock) []func(http.ResponseWriter, *http.Request) {
			return []func(http.ResponseWriter, *http.Request){f.hang}
		}, wantCalls: 1, cancelled: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, client := newFake(t)
			f.answers = tt.answers(f)
			m, err := bedrock.New(client, modelID)
			if err != nil {
				t.Fatal(err)
			}
			var logs bytes.Buffer
			off := offline.New()
			b, err := llm.New(m, llm.Options{
				Fallback: off, FallbackEvaluator: off, Timeout: time.Second,
				Log: slog.New(slog.NewJSONHandler(&logs, nil)), Backend: "bedrock", ModelID: modelID,
			})
			if err != nil {
				t.Fatal(err)
			}
			got, err := b.Reply(context.Background(), chatReq)
			want := tt.want
			if want == "" {
				want = wantOffline
			}
			if err != nil || got != want {
				t.Errorf("Reply: got %q, %v, want %q", got, err, want)
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
				t.Fatalf("log %q: %v", logs.String(), err)
			}
			if rec["backend"] != "bedrock" || rec["model"] != modelID || rec["fallback"] != (tt.want == "") {
				t.Errorf("log: got %v, want backend bedrock, model %s, fallback %v", rec, modelID, tt.want == "")
			}
			if strings.Contains(logs.String(), secret) {
				t.Errorf("the log holds the secret key: %s", logs.String())
			}
		})
	}
}

func TestNew(t *testing.T) {
	if _, err := bedrock.New(nil, modelID); err == nil {
		t.Error("New without a client: got no error")
	}
	_, client := newFake(t)
	if _, err := bedrock.New(client, " "); err == nil {
		t.Error("New without a model: got no error")
	}
}
