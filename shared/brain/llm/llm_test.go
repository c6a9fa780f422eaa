package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/duetbot/duet/shared/annex"
	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/brain/offline"
	"github.com/duetbot/duet/shared/metrics"
)

// fakeModel answers with its function, recording the requests.
type fakeModel struct {
	mu   sync.Mutex
	reqs []ChatRequest
	chat func(ctx context.Context, n int, req ChatRequest) (ChatResponse, error)
}

func (f *fakeModel) Chat(ctx context.Context, req ChatRequest) (ChatResponse, error) {
	f.mu.Lock()
	f.reqs = append(f.reqs, req)
	n := len(f.reqs)
	f.mu.Unlock()
	return f.chat(ctx, n, req)
}

func answer(text string) func(context.Context, int, ChatRequest) (ChatResponse, error) {
	return func(context.Context, int, ChatRequest) (ChatResponse, error) {
		return ChatResponse{Text: text, InputTokens: 100, OutputTokens: 7, StopReason: "stop"}, nil
	}
}

var chatReq = brain.Request{
	Context: "The Eiffel Tower was built for the 1889 World's Fair in Paris.",
	Turns: []brain.Turn{
		{Role: brain.Bot, Text: "Did you know the tower was meant to be temporary?"},
		{Role: brain.Partner, Text: "hmm, that thing?"},
	},
}

// newBrain returns a Brain over m with the offline fallbacks, logging to a
// buffer, with waits recorded instead of slept.
func newBrain(t testing.TB, m Model, timeout time.Duration) (*Brain, *bytes.Buffer, *[]time.Duration) {
	t.Helper()
	var logs bytes.Buffer
	off := offline.New()
	b, err := New(m, Options{
		Fallback: off, FallbackPersona: annex.Offline{}, FallbackEvaluator: off,
		Timeout: timeout, Reserve: time.Millisecond,
		Log:     slog.New(slog.NewJSONHandler(&logs, nil)),
		Backend: "fake", ModelID: "fake-1",
	})
	if err != nil {
		t.Fatal(err)
	}
	var waits []time.Duration
	b.sleep = func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }
	return b, &logs, &waits
}

func offlineReply(t testing.TB, req brain.Request) string {
	t.Helper()
	want, err := offline.New().Reply(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return want
}

// lastLog decodes the last log record.
func lastLog(t testing.TB, logs *bytes.Buffer) map[string]any {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	var rec map[string]any
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &rec); err != nil {
		t.Fatalf("log %q: %v", lines[len(lines)-1], err)
	}
	return rec
}

func TestReply(t *testing.T) {
	throttled := &Error{Status: 429, Code: "rate_limit_exceeded", Throttled: true, RetryAfter: 20 * time.Millisecond, Err: errors.New("slow down")}
	tests := []struct {
		name         string
		chat         func(context.Context, int, ChatRequest) (ChatResponse, error)
		wantModel    string // "" means the offline reply
		wantCalls    int
		wantWaits    int
		wantReason   string
		wantFallback bool
	}{
		{name: "model answers", chat: answer(`"Bot: The tower, yes! Which part interests you?"`), wantModel: "The tower, yes! Which part interests you?", wantCalls: 1},
		{name: "error", chat: func(context.Context, int, ChatRequest) (ChatResponse, error) {
			return ChatResponse{}, &Error{Status: 500, Err: errors.New("boom")}
		}, wantCalls: 1, wantReason: "error", wantFallback: true},
		{name: "refusal", chat: func(context.Context, int, ChatRequest) (ChatResponse, error) {
			return ChatResponse{StopReason: "content_filter"}, ErrRefused
		}, wantCalls: 1, wantReason: "refused", wantFallback: true},
		{name: "empty", chat: answer("  "), wantCalls: 1, wantReason: "invalid_output", wantFallback: true},
		{name: "throttled then ok", chat: func(_ context.Context, n int, _ ChatRequest) (ChatResponse, error) {
			if n == 1 {
				return ChatResponse{}, throttled
			}
			return ChatResponse{Text: "Which part?"}, nil
		}, wantModel: "Which part?", wantCalls: 2, wantWaits: 1},
		{name: "throttled throughout", chat: func(context.Context, int, ChatRequest) (ChatResponse, error) {
			return ChatResponse{}, throttled
		}, wantCalls: DefaultMaxAttempts, wantWaits: DefaultMaxAttempts - 1, wantReason: "throttled", wantFallback: true},
		{name: "too slow", chat: func(ctx context.Context, _ int, _ ChatRequest) (ChatResponse, error) {
			<-ctx.Done()
			return ChatResponse{}, ctx.Err()
		}, wantCalls: 1, wantReason: "timeout", wantFallback: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &fakeModel{chat: tt.chat}
			b, logs, waits := newBrain(t, m, 200*time.Millisecond)
			tally := &metrics.Tally{}
			b.opt.Metrics = tally
			got, err := b.Reply(context.Background(), chatReq)
			if err != nil {
				t.Fatal(err)
			}
			replies, fallbacks := tally.Total(metrics.ModelReplies), tally.Sum(metrics.ModelFallbacks, metrics.Reason(tt.wantReason))
			if tt.wantFallback && (replies != 0 || fallbacks != 1) || !tt.wantFallback && (replies != 1 || tally.Total(metrics.ModelFallbacks) != 0) {
				t.Errorf("metrics: ModelReplies %v, ModelFallbacks{Reason=%s} %v; want the %s counted once",
					replies, tt.wantReason, fallbacks, map[bool]string{true: "fallback", false: "model reply"}[tt.wantFallback])
			}
			want := tt.wantModel
			if want == "" {
				want = offlineReply(t, chatReq)
			}
			if got != want {
				t.Errorf("reply: got %q, want %q", got, want)
			}
			if len(m.reqs) != tt.wantCalls {
				t.Errorf("model calls: got %d, want %d", len(m.reqs), tt.wantCalls)
			}
			if len(*waits) != tt.wantWaits {
				t.Errorf("waits: got %v, want %d", *waits, tt.wantWaits)
			}
			rec := lastLog(t, logs)
			if rec["fallback"] != tt.wantFallback || rec["op"] != "reply" || rec["backend"] != "fake" || rec["model"] != "fake-1" {
				t.Errorf("log: got %v, want op reply, backend fake, model fake-1, fallback %v", rec, tt.wantFallback)
			}
			if r, _ := rec["reason"].(string); r != tt.wantReason {
				t.Errorf("log reason: got %q, want %q", r, tt.wantReason)
			}
			for _, k := range []string{"latency_ms", "tokens_in", "tokens_out", "attempts"} {
				if _, ok := rec[k]; !ok {
					t.Errorf("log: no %s in %v", k, rec)
				}
			}
		})
	}
}

func TestReplyPrompt(t *testing.T) {
	m := &fakeModel{chat: answer("ok then")}
	b, _, _ := newBrain(t, m, time.Second)
	if _, err := b.Reply(context.Background(), chatReq); err != nil {
		t.Fatal(err)
	}
	r := m.reqs[0]
	for _, want := range []string{chatReq.Context, "clarifying question", "1-2 short sentences", "no JSON"} {
		if !strings.Contains(r.System, want) {
			t.Errorf("system prompt lacks %q:\n%s", want, r.System)
		}
	}
	want := []Message{{RoleUser, startChat}, {RoleAssistant, chatReq.Turns[0].Text}, {RoleUser, chatReq.Turns[1].Text}}
	if len(r.Messages) != len(want) {
		t.Fatalf("messages: got %v, want %v", r.Messages, want)
	}
	for i := range want {
		if r.Messages[i] != want[i] {
			t.Errorf("message %d: got %v, want %v", i, r.Messages[i], want[i])
		}
	}
	if r.JSON {
		t.Error("reply asked for JSON")
	}
}

func TestPersona(t *testing.T) {
	req := brain.Request{
		Context: "bob: lunch?\n",
		Turns: []brain.Turn{
			{Role: brain.Partner, Text: "lunch?"},
			{Role: brain.Bot, Text: "sure"},
			{Role: brain.Partner, Text: "what do you think of the new build system?"},
		},
		Persona: &brain.Persona{
			Name: "Ada Lovelace",
			Examples: []brain.Example{
				{Prompt: "thoughts on bazel?", Answer: "honestly it's fine once it's set up", Similarity: 0.4},
				{Prompt: "do you like make?", Answer: "make is a classic, leave it be", Similarity: 0.3},
			},
			Samples: []string{"lol ok", "ship it"},
		},
	}
	m := &fakeModel{chat: answer("Ada: honestly, ask @bob, he set it up")}
	b, logs, _ := newBrain(t, m, time.Second)
	got, err := b.Reply(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if want := "honestly, ask bob, he set it up"; got != want {
		t.Errorf("reply: got %q, want %q", got, want)
	}
	sys := m.reqs[0].System
	for _, want := range []string{"Ada Lovelace", "thoughts on bazel?", "honestly it's fine once it's set up", "do you like make?", "ship it", "do not @mention"} {
		if !strings.Contains(sys, want) {
			t.Errorf("persona prompt lacks %q:\n%s", want, sys)
		}
	}
	if strings.Contains(sys, "bob: lunch?") {
		t.Error("persona prompt repeats the context the turns already carry")
	}
	msgs := m.reqs[0].Messages
	if last := msgs[len(msgs)-1]; last.Role != RoleUser || last.Content != req.Turns[2].Text {
		t.Errorf("last message: got %v, want the partner's question", last)
	}
	if rec := lastLog(t, logs); rec["op"] != "persona" {
		t.Errorf("log op: got %v, want persona", rec["op"])
	}

	// When the model fails, the offline persona replier answers.
	failing := &fakeModel{chat: func(context.Context, int, ChatRequest) (ChatResponse, error) {
		return ChatResponse{}, errors.New("down")
	}}
	b, _, _ = newBrain(t, failing, time.Second)
	got, err = b.Reply(context.Background(), req)
	want, werr := annex.Offline{}.Reply(context.Background(), req)
	if err != nil || werr != nil || got != want {
		t.Errorf("fallback: got %q, %v, want %q, %v", got, err, want, werr)
	}
}

func TestRate(t *testing.T) {
	wantOffline, err := offline.New().Rate(context.Background(), chatReq)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		answer   string
		want     int
		fallback bool
	}{
		{`{"evaluation": 8}`, 8, false},
		{"```json\n{\"evaluation\": 2, \"why\": \"vague\"}\n```", 2, false},
		{`{"evaluation": 11}`, wantOffline, true},
		{`seven`, wantOffline, true},
		{`{"evaluation": "7"}`, wantOffline, true},
	}
	for _, tt := range tests {
		t.Run(tt.answer, func(t *testing.T) {
			m := &fakeModel{chat: answer(tt.answer)}
			b, logs, _ := newBrain(t, m, time.Second)
			got, err := b.Rate(context.Background(), chatReq)
			if err != nil || got != tt.want {
				t.Errorf("Rate: got %d, %v, want %d", got, err, tt.want)
			}
			r := m.reqs[0]
			if !r.JSON || !strings.Contains(r.System, `{"evaluation": N}`) || !strings.Contains(r.Messages[0].Content, "hmm, that thing?") {
				t.Errorf("rate request: got %+v, want JSON asked and the last message quoted", r)
			}
			if rec := lastLog(t, logs); rec["fallback"] != tt.fallback {
				t.Errorf("log fallback: got %v, want %v", rec["fallback"], tt.fallback)
			}
		})
	}
}

func TestFinal(t *testing.T) {
	wantOffline, err := offline.New().Final(context.Background(), chatReq)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		answer string
		want   brain.Scores
	}{
		{`{"quality": 7, "breadth": 5, "engagement": 9}`, brain.Scores{Quality: 7, Breadth: 5, Engagement: 9}},
		{`{"quality": 7, "breadth": 5}`, wantOffline},
		{`{"quality": 7, "breadth": 5, "engagement": 0}`, wantOffline},
	}
	for _, tt := range tests {
		m := &fakeModel{chat: answer(tt.answer)}
		b, _, _ := newBrain(t, m, time.Second)
		got, err := b.Final(context.Background(), chatReq)
		if err != nil || got != tt.want {
			t.Errorf("Final(%s): got %+v, %v, want %+v", tt.answer, got, err, tt.want)
		}
	}
}

// TestFinalJudge answers the router's evaluation request with the model,
// and falls back to the offline evaluator when the model's score is out
// of the range or its guess names no listed profile.
func TestFinalJudge(t *testing.T) {
	req := chatReq
	req.Judge = &brain.Judge{Min: 1, Max: 5, Profiles: [][]string{{"i am a pilot."}, {"i like towers."}}}
	wantOffline, err := offline.New().Final(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	one := 1
	tests := []struct {
		answer string
		want   brain.Scores
	}{
		{`{"quality": 7, "breadth": 5, "engagement": 9, "score": 4, "profile_idx": 1}`, brain.Scores{Quality: 7, Breadth: 5, Engagement: 9, Score: 4, Profile: &one}},
		{`{"quality": 7, "breadth": 5, "engagement": 9, "score": 6, "profile_idx": 1}`, wantOffline},
		{`{"quality": 7, "breadth": 5, "engagement": 9, "score": 4, "profile_idx": 2}`, wantOffline},
		{`{"quality": 7, "breadth": 5, "engagement": 9, "score": 4}`, wantOffline},
		{`{"quality": 7, "breadth": 5, "engagement": 9}`, wantOffline},
	}
	for _, tt := range tests {
		m := &fakeModel{chat: answer(tt.answer)}
		b, _, _ := newBrain(t, m, time.Second)
		got, err := b.Final(context.Background(), req)
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Final(%s): got %+v, %v, want %+v", tt.answer, got, err, tt.want)
		}
		if len(m.reqs) == 0 || !strings.Contains(m.reqs[0].Messages[0].Content, "Profile 1: i like towers.") {
			t.Errorf("Final(%s): the prompt lacks the candidate profiles", tt.answer)
		}
	}
}

func TestBudget(t *testing.T) {
	t.Run("parent deadline shortens it", func(t *testing.T) {
		var budget time.Duration
		m := &fakeModel{chat: func(ctx context.Context, _ int, _ ChatRequest) (ChatResponse, error) {
			dl, _ := ctx.Deadline()
			budget = time.Until(dl)
			return ChatResponse{Text: "fine"}, nil
		}}
		b, _, _ := newBrain(t, m, time.Hour)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if _, err := b.Reply(ctx, chatReq); err != nil {
			t.Fatal(err)
		}
		if budget > time.Minute {
			t.Errorf("budget: got %v, want at most the parent's minute", budget)
		}
	})
	t.Run("no time left", func(t *testing.T) {
		m := &fakeModel{chat: answer("never asked")}
		b, logs, _ := newBrain(t, m, time.Second)
		b.opt.Reserve = time.Hour
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		got, err := b.Reply(ctx, chatReq)
		if err != nil || got != offlineReply(t, chatReq) {
			t.Errorf("reply: got %q, %v, want the offline reply", got, err)
		}
		if len(m.reqs) != 0 {
			t.Errorf("model calls: got %d, want 0", len(m.reqs))
		}
		if rec := lastLog(t, logs); rec["reason"] != "budget" {
			t.Errorf("log reason: got %v, want budget", rec["reason"])
		}
	})
	t.Run("retry-after beyond the budget", func(t *testing.T) {
		m := &fakeModel{chat: func(context.Context, int, ChatRequest) (ChatResponse, error) {
			return ChatResponse{}, &Error{Status: 429, Throttled: true, RetryAfter: time.Minute, Err: errors.New("slow down")}
		}}
		b, _, waits := newBrain(t, m, time.Second)
		if got, err := b.Reply(context.Background(), chatReq); err != nil || got != offlineReply(t, chatReq) {
			t.Errorf("reply: got %q, %v, want the offline reply", got, err)
		}
		if len(m.reqs) != 1 || len(*waits) != 0 {
			t.Errorf("calls %d, waits %v: want 1 call and no wait", len(m.reqs), *waits)
		}
	})
}

func TestNoFallback(t *testing.T) {
	m := &fakeModel{chat: answer("")}
	b, err := New(m, Options{Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Reply(context.Background(), chatReq); !errors.Is(err, ErrInvalid) {
		t.Errorf("Reply: got %v, want ErrInvalid", err)
	}
	if _, err := b.Rate(context.Background(), chatReq); !errors.Is(err, ErrInvalid) {
		t.Errorf("Rate: got %v, want ErrInvalid", err)
	}
	if _, err := New(nil, Options{}); err == nil {
		t.Error("New(nil): got no error")
	}
}

// TestPersonaEchoFallsBack: a model that repeats the message it should
// answer has not answered; the offline persona does instead.
func TestPersonaEchoFallsBack(t *testing.T) {
	req := brain.Request{
		Turns:   []brain.Turn{{Role: brain.Partner, Text: "Should we deploy the billing service on Friday?"}},
		Persona: &brain.Persona{Name: "Ada", Examples: []brain.Example{{Prompt: "Friday deploy?", Answer: "Short answer: no. Ship it Monday.", Similarity: 0.9}}},
	}
	b, logs, _ := newBrain(t, &fakeModel{chat: answer("Should we deploy the billing service on Friday?")}, time.Second)
	got, err := b.Reply(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	want, err := annex.Offline{}.Reply(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("reply to an echoing model = %q, want the offline persona's %q", got, want)
	}
	if rec := lastLog(t, logs); rec["fallback"] != true || rec["reason"] != "invalid_output" {
		t.Errorf("log = %v, want fallback=true reason=invalid_output", rec)
	}
}

// TestReplyRepeatingProfile: in a ConvAI2 chat a model reply that repeats
// three words of the bot's profile in a row, which the router would drop,
// goes to the fallback; a paraphrase is kept.
func TestReplyRepeatingProfile(t *testing.T) {
	req := brain.Request{
		Context: "i love reading mystery novels.\ni volunteer at the animal shelter.",
		Turns:   []brain.Turn{{Role: brain.Partner, Text: "Hi! What do you do for fun?"}},
	}
	for _, tt := range []struct{ model, want string }{
		{"I love reading mystery novels, and you?", offlineReply(t, req)},
		{"Mostly whodunits. And you?", "Mostly whodunits. And you?"},
	} {
		b, logs, _ := newBrain(t, &fakeModel{chat: answer(tt.model)}, time.Second)
		got, err := b.Reply(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if got != tt.want {
			t.Errorf("model said %q: reply %q, want %q", tt.model, got, tt.want)
		}
		if brain.ProfileTrigrams(req.Context).Refuses(got) {
			t.Errorf("reply %q repeats the profile", got)
		}
		if fell := lastLog(t, logs)["fallback"] == true; fell != (tt.want != tt.model) {
			t.Errorf("model said %q: fallback %v", tt.model, fell)
		}
	}
}
