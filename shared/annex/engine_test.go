package annex

import (
	"context"
	"strings"
	"testing"
	"time"
)

// recorder is an in-package Store that keeps what it was given.
type recorder struct{ saved []Exchange }

func (r *recorder) SaveExchange(_ context.Context, ex Exchange) error {
	r.saved = append(r.saved, ex)
	return nil
}
func (r *recorder) LoadPersona(context.Context, string) (PersonaData, error) {
	return PersonaData{}, nil
}
func (r *recorder) SavePersona(context.Context, PersonaData) error { return nil }

func newTestEngine(t *testing.T, d PersonaData) (*Engine, *recorder) {
	t.Helper()
	p, err := NewPersona(context.Background(), d, nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	e, err := NewEngine(p, rec, WithClock(func() time.Time { return time.Date(2024, 3, 4, 9, 0, 0, 0, time.UTC) }))
	if err != nil {
		t.Fatal(err)
	}
	return e, rec
}

func TestEngineAnswers(t *testing.T) {
	ada := PersonaData{Name: "Ada", ID: "U1", Username: "ada", Pairs: []Pair{
		{Prompt: "Should we move the billing service to Kubernetes?", Answer: "Short answer: no. Boring tech wins."},
		{Prompt: "Postgres or DynamoDB for the jobs table?", Answer: "Honestly, Postgres. Boring tech wins."},
		{Answer: "Honestly, measure first. Caches hide bugs 🙂"},
	}}
	tests := []struct {
		name  string
		req   Request
		want  string // the reply, when it must be exactly that
		about string // a word the reply must contain, otherwise
	}{
		{name: "a learned prompt", req: Request{Message: Message{From: "U2", ID: "m1", Text: "@ada should we move billing to Kubernetes?"}},
			want: "Short answer: no. Boring tech wins."},
		{name: "learned from the request: the person by username", req: Request{
			Users:   []User{{ID: "X9", Username: "Ada"}},
			Context: []Message{{From: "U2", ID: "c1", Text: "Tabs or spaces for the new repo?"}, {From: "X9", ID: "c2", Text: "Tabs. Always tabs."}},
			Message: Message{From: "U3", ID: "m2", Text: "Tabs or spaces in the new repo?"}},
			want: "Tabs. Always tabs."},
		{name: "learned from the request: the bot's own reply", req: Request{
			Conversation: Conversations{{ID: "k", Messages: []Message{{From: "U2", ID: "c1", Text: "Which editor do you use?"}, {From: "BOT", ID: "c2", Text: "Vim, obviously."}}}},
			Message:      Message{From: "U3", ID: "m3", Text: "Which editor do you use these days?"}},
			want: "Vim, obviously."},
		{name: "nothing close: composed", req: Request{Message: Message{From: "U2", ID: "m4", Text: "What do you think of the new office coffee machine?"}},
			about: "Honestly"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, rec := newTestEngine(t, ada)
			resp, err := e.Answer(context.Background(), tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if tt.want != "" && resp.Message != tt.want {
				t.Errorf("reply: got %q, want %q", resp.Message, tt.want)
			}
			if tt.about != "" && !strings.Contains(resp.Message, tt.about) {
				t.Errorf("reply: got %q, want it to contain %q", resp.Message, tt.about)
			}
			if resp.Message == "" || strings.Contains(resp.Message, "@") || sameText(resp.Message, tt.req.Message.Text) {
				t.Errorf("reply: got %q, want non-empty, no @mention, no echo", resp.Message)
			}
			if len(rec.saved) != 1 || rec.saved[0].Request.ID != tt.req.Message.ID || rec.saved[0].Reply.Text != resp.Message || rec.saved[0].Reply.From != BotFrom {
				t.Errorf("saved: got %+v, want the exchange", rec.saved)
			}
		})
	}
}

func TestEngineNeverEmptyOrEcho(t *testing.T) {
	// A persona that knows nothing, and one whose only answer is the question.
	for _, d := range []PersonaData{{Name: "Nobody"}, {Name: "Parrot", Pairs: []Pair{{Prompt: "hello there", Answer: "hello there"}}}} {
		e, _ := newTestEngine(t, d)
		for _, text := range []string{"hello there", "", "?", "@bob what now"} {
			resp, err := e.Answer(context.Background(), Request{Message: Message{From: "U2", Text: text}})
			if err != nil {
				t.Fatal(err)
			}
			if strings.TrimSpace(resp.Message) == "" || sameText(resp.Message, text) && text != "" || strings.Contains(resp.Message, "@") {
				t.Errorf("%s, %q: got %q, want a non-empty reply that is no echo", d.Name, text, resp.Message)
			}
		}
	}
}

func TestMannerOf(t *testing.T) {
	m := MannerOf([]string{
		"Honestly, Postgres. Boring tech wins 🙂",
		"Honestly, measure first. Caches hide bugs 🙂",
		"Short answer: no. Boring tech wins.",
	})
	if len(m.Openers) == 0 || m.Openers[0] != "Honestly," {
		t.Errorf("openers: got %q, want Honestly, first", m.Openers)
	}
	if len(m.Closers) == 0 || m.Closers[0] != "🙂" {
		t.Errorf("closers: got %q, want 🙂", m.Closers)
	}
	if m.Words < 4 || m.Words > 7 {
		t.Errorf("typical length: got %d words, want about 5", m.Words)
	}
}
