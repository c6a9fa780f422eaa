package annex

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/duet"
	"github.com/duetbot/duet/shared/embed"
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
			if resp.Message == "" || strings.Contains(resp.Message, "@") || embed.Echoes(resp.Message, tt.req.Message.Text) {
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
		for _, text := range []string{"hello there", "?", "@bob what now"} {
			resp, err := e.Answer(context.Background(), Request{Message: Message{From: "U2", Text: text}})
			if err != nil {
				t.Fatal(err)
			}
			if strings.TrimSpace(resp.Message) == "" || embed.Echoes(resp.Message, text) || strings.Contains(resp.Message, "@") {
				t.Errorf("%s, %q: got %q, want a non-empty reply that is no echo", d.Name, text, resp.Message)
			}
		}
	}
}

// say is a brain.Replier that always answers text.
type say string

func (s say) Reply(context.Context, brain.Request) (string, error) { return string(s), nil }

// TestEngineEchoFallsBackToOffline checks that a back end's echo or
// near-echo of the message is not sent: the offline persona answers in its
// place, with the person's own words when they fit.
func TestEngineEchoFallsBackToOffline(t *testing.T) {
	d := PersonaData{Name: "Ada", ID: "U1", Pairs: []Pair{{Prompt: "Should we deploy on Friday?", Answer: "Short answer: no. Friday deploys mean weekend pages."}}}
	msg := "Should we deploy on Friday?"
	for _, echo := range []string{msg, "should we deploy on friday", "Should we deploy on Friday? Hmm.", "Should we deploy on Friday? Good question, let me see."} {
		t.Run(echo, func(t *testing.T) {
			p, err := NewPersona(context.Background(), d, nil)
			if err != nil {
				t.Fatal(err)
			}
			rec := &recorder{}
			e, err := NewEngine(p, rec, WithReplier(say(echo)))
			if err != nil {
				t.Fatal(err)
			}
			resp, err := e.Answer(context.Background(), Request{Message: Message{From: "U2", ID: "m1", Text: msg}})
			if err != nil {
				t.Fatal(err)
			}
			if want := d.Pairs[0].Answer; resp.Message != want {
				t.Errorf("reply: got %q, want the offline persona's %q", resp.Message, want)
			}
		})
	}
}

// TestEngineStripsMentions checks every mention form is defused in what the
// back end writes.
func TestEngineStripsMentions(t *testing.T) {
	p, err := NewPersona(context.Background(), PersonaData{Name: "Ada"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewEngine(p, &recorder{}, WithReplier(say(`ask "@ben", cc:@chloe, [@dev], <@U02BEN>, @Ægir or @@ada; mail ada@example.com <!here>`)))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := e.Answer(context.Background(), Request{Message: Message{From: "U2", Text: "who owns billing?"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := `ask "ben", cc:chloe, [dev], U02BEN, Ægir or ada; mail ada@example.com here`; resp.Message != want {
		t.Errorf("reply: got %q, want %q", resp.Message, want)
	}
}

func TestEngineRejectsEmptyText(t *testing.T) {
	e, rec := newTestEngine(t, PersonaData{Name: "Ada"})
	for _, text := range []string{"", "  \n\t "} {
		_, err := e.Answer(context.Background(), Request{Message: Message{From: "U2", ID: "m1", Text: text}})
		if duet.Code(err) != duet.EINVALID || duet.Message(err) != "message.text is empty" {
			t.Errorf("text %q: got %v (code %q), want EINVALID \"message.text is empty\"", text, err, duet.Code(err))
		}
	}
	if len(rec.saved) != 0 {
		t.Errorf("saved: got %d exchanges, want none", len(rec.saved))
	}
}

// invalidStore refuses every exchange as the caller's fault, the way the
// DynamoDB store reports a ValidationException.
type invalidStore struct{ recorder }

func (invalidStore) SaveExchange(context.Context, Exchange) error {
	return duet.Wrap(duet.EINVALID, errors.New("ValidationException: item too large"), "the message is too large to record")
}

func TestEngineStoreErrors(t *testing.T) {
	p, err := NewPersona(context.Background(), PersonaData{Name: "Ada"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var logged bytes.Buffer
	e, err := NewEngine(p, &invalidStore{}, WithLogger(slog.New(slog.NewTextHandler(&logged, nil))))
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 2; i++ {
		resp, err := e.Answer(context.Background(), Request{Message: Message{From: "U2", Text: "hi there"}})
		if err != nil || resp.Message == "" {
			t.Fatalf("a store that cannot record: got %q, %v; want the reply all the same", resp.Message, err)
		}
		if got := e.Unrecorded(); got != int64(i) {
			t.Errorf("Unrecorded = %d after %d failed recordings", got, i)
		}
	}
	if !strings.Contains(logged.String(), "annex exchange not recorded") || !strings.Contains(logged.String(), "unrecorded=2") {
		t.Errorf("log %q: want a warning per unrecorded exchange", logged.String())
	}
}

func TestHistoryInTimeOrder(t *testing.T) {
	tests := []struct {
		name string
		req  Request
		want string
	}{
		{"merged by time", Request{
			Conversation: Conversations{{ID: "k", Messages: []Message{
				{From: "U2", ID: "q1", Text: "q1", Timestamp: "2024-03-04T09:00:00Z"},
				{From: "BOT", ID: "a1", Text: "a1", Timestamp: "2024-03-04T09:00:05Z"},
				{From: "U2", ID: "q2", Text: "q2", Timestamp: "2024-03-04T09:10:00Z"},
			}}},
			Context: []Message{
				{From: "U3", ID: "c1", Text: "c1", Timestamp: "2024-03-04T08:59:00Z"},
				{From: "U3", ID: "c2", Text: "c2", Timestamp: "2024-03-04T11:02:00+02:00"}, // 09:02 UTC
				{From: "U2", ID: "q2", Text: "q2", Timestamp: "2024-03-04T09:10:00Z"},
			},
			Message: Message{From: "U2", ID: "m", Text: "now", Timestamp: "2024-03-04T09:20:00Z"}},
			"c1 q1 a1 c2 q2"},
		{"equal times keep input order", Request{
			Conversation: Conversations{{Messages: []Message{{From: "U2", ID: "b", Text: "b", Timestamp: "2024-03-04T09:00:00Z"}}}},
			Context:      []Message{{From: "U2", ID: "a", Text: "a", Timestamp: "2024-03-04T09:00:00.000Z"}},
			Message:      Message{From: "U2", Text: "now"}},
			"b a"},
		{"a timestamp that does not parse: input order", Request{
			Conversation: Conversations{{Messages: []Message{{From: "U2", ID: "q1", Text: "q1", Timestamp: "2024-03-04T09:00:00Z"}}}},
			Context:      []Message{{From: "U2", ID: "c1", Text: "c1", Timestamp: "yesterday"}, {From: "U2", ID: "c0", Text: "c0", Timestamp: "2024-03-04T08:00:00Z"}},
			Message:      Message{From: "U2", Text: "now"}},
			"q1 c1 c0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, m := range tt.req.History() {
				got = append(got, m.Text)
			}
			if strings.Join(got, " ") != tt.want {
				t.Errorf("History: got %q, want %q", strings.Join(got, " "), tt.want)
			}
		})
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
