package offline

import (
	"context"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/duetbot/duet/shared/brain"
)

// testBrain answers every test's chats, as one process answers all its
// chats: a profile is analysed once, not once per question.
var testBrain = New()

func reply(t testing.TB, req brain.Request) string {
	t.Helper()
	got, err := testBrain.Reply(context.Background(), req)
	if err != nil {
		t.Fatalf("Reply: %v", err)
	}
	checkWellFormed(t, got)
	return got
}

// checkWellFormed fails when s does not read like a finished chat message.
func checkWellFormed(t testing.TB, s string) {
	t.Helper()
	switch {
	case strings.TrimSpace(s) == "":
		t.Fatalf("got an empty reply")
	case utf8.RuneCountInString(s) > 300:
		t.Errorf("reply %q has %d characters, want at most 300", s, utf8.RuneCountInString(s))
	case strings.ContainsAny(s, "{}"):
		t.Errorf("reply %q has a slot left over", s)
	case strings.Contains(s, "  "), strings.Contains(s, " ,"), strings.Contains(s, " ."),
		strings.Contains(s, " ?"), strings.Contains(s, "the the"), strings.Contains(s, ",,"):
		t.Errorf("reply %q has bad spacing or an empty slot", s)
	case !strings.ContainsAny(s[len(s)-1:], ".?!") && !strings.HasSuffix(s, "\u2026"):
		t.Errorf("reply %q does not end with punctuation", s)
	case strings.ToUpper(s[:1]) != s[:1]:
		t.Errorf("reply %q does not start with a capital", s)
	}
}

// waspWords are the context's topics; an on-topic reply names one.
var waspWords = []string{"wasp", "wrist", "TV"}

func mentionsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

func TestReplyFirst(t *testing.T) {
	contexts := []struct {
		context string
		words   []string
	}{
		{wasp, waspWords},
		{"Your best friend invites you to a birthday party on Monday night, but you have an exam on Tuesday.", []string{"party", "friend", "Monday", "exam", "Tuesday"}},
		{"What is the best way to spend a rainy weekend?", []string{"weekend"}},
		{"My neighbour plays loud music every night.", []string{"neighbour", "music"}},
	}
	for _, c := range contexts {
		t.Run(c.context, func(t *testing.T) {
			got := reply(t, brain.Request{Context: c.context})
			if !mentionsAny(got, c.words) {
				t.Errorf("got %q, want it to mention one of %q", got, c.words)
			}
			if !strings.Contains(got, "?") {
				t.Errorf("got %q, want a question", got)
			}
		})
	}
	t.Run("no context", func(t *testing.T) {
		reply(t, brain.Request{})
	})
}

func TestReplyPersona(t *testing.T) {
	_, err := New().Reply(context.Background(), brain.Request{Context: wasp, Persona: &brain.Persona{Name: "Ann"}})
	if !errors.Is(err, ErrPersona) {
		t.Errorf("got error %v, want ErrPersona", err)
	}
}

func TestReplyAnswersQuestion(t *testing.T) {
	tests := []struct {
		name string
		msg  string
		want []string // the reply contains one of these
	}{
		{"choice", "Would you stay still or brush it off?", []string{"I'd stay still", "I'd brush it off"}},
		{"choice of things", "Do you prefer tea or coffee?", []string{"go with tea", "go with coffee"}},
		{"reuses the question's words", "Do you like wasps?", []string{"wasps"}},
		{"about the bot", "What would you do?", []string{"I'd"}},
		{"why", "Why?", []string{"because", "Because", "reason", "has to do with"}},
		{"question after a statement", "I'd freeze. Is the wasp dangerous?", []string{"wasp"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := reply(t, chat(t, wasp, tt.msg))
			if !mentionsAny(got, tt.want) {
				t.Errorf("Reply to %q = %q, want one of %q", tt.msg, got, tt.want)
			}
			if strings.HasPrefix(got, "What do you mean") || strings.HasPrefix(got, "Sorry") {
				t.Errorf("Reply to %q = %q, want an answer, not a clarifying question", tt.msg, got)
			}
		})
	}
}

func TestReplyClarifies(t *testing.T) {
	for _, msg := range []string{"ok", "maybe", "idk", "it depends", "yes", "sure", "asdkjh qwpeoi", "zzzzzz", "huh?"} {
		t.Run(msg, func(t *testing.T) {
			got := reply(t, chat(t, wasp, msg))
			if !strings.HasSuffix(got, "?") && !strings.Contains(got, "? ") {
				t.Errorf("Reply to %q = %q, want a question", msg, got)
			}
			if !mentionsAny(got, waspWords) {
				t.Errorf("Reply to %q = %q, want it to name one of %q", msg, got, waspWords)
			}
		})
	}
}

func TestReplyReacts(t *testing.T) {
	got := reply(t, chat(t, wasp, "My dog once ate a wasp and his face swelled up for two days."))
	if !strings.Contains(got, "dog") {
		t.Errorf("got %q, want a reaction to the dog", got)
	}
	if !strings.Contains(got, "?") {
		t.Errorf("got %q, want a follow-up question", got)
	}
}

func TestReplyNeverRepeats(t *testing.T) {
	partners := []struct{ name, msg string }{
		{"vague", "ok"},
		{"gibberish", "asdkjh"},
		{"question", "What would you do?"},
		{"substantive", onTopic},
	}
	for _, p := range partners {
		t.Run(p.name, func(t *testing.T) {
			partner := p.msg
			req := brain.Request{Context: wasp}
			seen := map[string]int{}
			for turn := range 26 {
				if turn > 0 {
					req.Turns = append(req.Turns, brain.Turn{Role: brain.Partner, Text: partner})
				}
				got := reply(t, req)
				if prev, ok := seen[normalize(got)]; ok {
					t.Fatalf("turn %d: reply %q repeats turn %d", turn, got, prev)
				}
				seen[normalize(got)] = turn
				req.Turns = append(req.Turns, brain.Turn{Role: brain.Bot, Text: got})
			}
		})
	}
}

func TestReplyDeterministic(t *testing.T) {
	for _, req := range []brain.Request{
		{Context: wasp},
		chat(t, wasp, "ok"),
		chat(t, wasp, onTopic),
		chat(t, wasp, offTopic),
	} {
		first := reply(t, req)
		for range 5 {
			if got := reply(t, req); got != first {
				t.Fatalf("got %q, then %q for the same request", first, got)
			}
		}
	}
}

func TestPolish(t *testing.T) {
	tests := []struct{ in, want string }{
		{"the wasp and your wrist , huh? what now", "The wasp and your wrist, huh? What now."},
		{"  hello   {a} there ", "Hello a there."},
		{"", "Tell me more?"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := polish(tt.in); got != tt.want {
				t.Errorf("polish(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestDistinguish(t *testing.T) {
	s := "What do you mean?"
	said := newHistory([]brain.Turn{{Role: brain.Bot, Text: s}}, &readCache{})
	for range 10 {
		got := distinguish(s, &said)
		if said.says(got) {
			t.Fatalf("distinguish returned %q, which the bot already said", got)
		}
		said.add(normalize(got))
	}
}

func TestReplyOddInput(t *testing.T) {
	long := strings.Repeat("the wasp is on my wrist and I am watching TV ", 200)
	inputs := []struct{ name, context, msg string }{
		{"emoji", wasp, "\U0001F41D\U0001F41D?"},
		{"slot syntax", wasp, "{a} or {b}?"},
		{"em dash choice", wasp, "Tough one \u2014 would you swat it or wait?"},
		{"non-latin", "Вы смотрите телевизор, и вдруг оса ползёт по запястью.", "Что бы вы сделали?"},
		{"long message", wasp, long},
		{"long context", long, "ok"},
		{"punctuation only", "...", "?!?"},
		{"shouting", wasp, "WHAT WOULD YOU DO WITH THE WASP?"},
	}
	for _, in := range inputs {
		t.Run(in.name, func(t *testing.T) {
			got := reply(t, chat(t, in.context, in.msg))
			if !utf8.ValidString(got) {
				t.Errorf("reply %q is not valid UTF-8", got)
			}
			New().Signals(chat(t, in.context, in.msg)).Rating()
		})
	}
}

// TestReplyClosing: when the chat ends after the reply, the bot takes leave
// instead of asking something, mentioning the topic, never twice the same.
func TestReplyClosing(t *testing.T) {
	b := New()
	req := brain.Request{
		Context: "You're sitting watching TV, and suddenly you discover a wasp crawling on your wrist.",
		Turns:   []brain.Turn{{Role: brain.Partner, Text: "OK. See you!"}},
		Closing: true,
	}
	got, err := b.Reply(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(got, "?") || !strings.Contains(strings.ToLower(got), "wasp") {
		t.Errorf("closing reply %q: want a farewell about the wasp, not a question", got)
	}
	req.Turns = append(req.Turns, brain.Turn{Role: brain.Bot, Text: got}, brain.Turn{Role: brain.Partner, Text: "bye"})
	again, err := b.Reply(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if again == got {
		t.Errorf("second closing reply repeats the first: %q", got)
	}
}

// TestParagraphVoice: a context of facts to discuss (the 2017 server's
// SQuAD-style paragraphs) is not answered as a situation to act in ("what
// would you do about the longest railway?"), whatever the partner says;
// the seed's situation still is.
func TestParagraphVoice(t *testing.T) {
	situational := []string{"would you do", "deal with", "keep still", "first move", "stay calm",
		"situation", "step by step", "panicking", "handle it", "act right away", "bother you"}
	partner := []string{"", "ok", "What would you do?", "How does it work?", "When was it built?",
		"Where is it?", "Who made it?", "I read about it once.", "and you?", "idk", "Do you like it?"}
	b := New()
	ctx := context.Background()
	for _, c := range []string{
		"The Trans-Siberian Railway is the longest railway line in the world. It connects Moscow with Vladivostok.",
		"Chess is a board game for two players. It is played on a board of 64 squares.",
		"Coffee is one of the most traded goods in the world.",
	} {
		req := brain.Request{Context: c}
		for _, msg := range partner {
			if msg != "" {
				req.Turns = append(req.Turns, brain.Turn{Role: brain.Partner, Text: msg})
			}
			reply, err := b.Reply(ctx, req)
			if err != nil {
				t.Fatalf("%q, %q: %v", c, msg, err)
			}
			for _, w := range situational {
				if strings.Contains(strings.ToLower(reply), w) {
					t.Errorf("context %.30q…, partner %q: reply %q speaks of a situation (%q)", c, msg, reply, w)
				}
			}
			req.Turns = append(req.Turns, brain.Turn{Role: brain.Bot, Text: reply})
		}
	}
	wasp := brain.Request{Context: "You're sitting watching TV, and suddenly you discover a wasp crawling on your wrist. What you gonna do?"}
	if v := voiceOf(analyze(wasp.Context)); v != situationVoice {
		t.Errorf("the seed's wasp context is not read as a situation")
	}
}
