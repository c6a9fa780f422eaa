package offline

import (
	"context"
	"fmt"
	"testing"

	"github.com/duetbot/duet/shared/brain"
)

const wasp = "You're sitting watching TV, and suddenly you discover a wasp crawling on your wrist. What you gonna do?"

const onTopic = "I would stay very still and let the wasp fly away, they only sting when they feel threatened. Have you ever been stung?"

const offTopic = "My favourite football team won the championship last weekend after an amazing final match."

// chat builds a request: the bot opens, then partner and bot alternate,
// with the partner's messages given.
func chat(t testing.TB, context string, partner ...string) brain.Request {
	t.Helper()
	req := brain.Request{Context: context}
	req.Turns = append(req.Turns, brain.Turn{Role: brain.Bot, Text: "What would you do about the wasp?"})
	for i, p := range partner {
		if i > 0 {
			req.Turns = append(req.Turns, brain.Turn{Role: brain.Bot, Text: "Interesting. Tell me more?"})
		}
		req.Turns = append(req.Turns, brain.Turn{Role: brain.Partner, Text: p})
	}
	return req
}

func rate(t testing.TB, req brain.Request) int {
	t.Helper()
	got, err := New().Rate(context.Background(), req)
	if err != nil {
		t.Fatalf("Rate: %v", err)
	}
	return got
}

func TestRate(t *testing.T) {
	tests := []struct {
		name     string
		msg      string
		min, max int
	}{
		{"gibberish", "asdkjh qwpeoi", 1, 3},
		{"repeated letters", "zzzzzz", 1, 3},
		{"keyboard mash sentence", "asdfgh jkl qwerty zxcvb", 1, 3},
		{"one word ok", "ok", 1, 3},
		{"one word yes", "yes", 1, 3},
		{"one word on topic", "wasp?", 1, 3},
		{"vague", "it depends", 1, 3},
		{"on topic, substantive", onTopic, 7, 10},
		{"on topic, plain", "I would slowly blow on my wrist so the wasp flies off without stinging me.", 7, 10},
		{"off topic, substantive", offTopic, 4, 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Rated both as the first message and as an answer to the bot.
			for _, req := range []brain.Request{
				{Context: wasp, Turns: []brain.Turn{{Role: brain.Partner, Text: tt.msg}}},
				chat(t, wasp, tt.msg),
			} {
				if got := rate(t, req); got < tt.min || got > tt.max {
					t.Errorf("Rate(%q) with %d turns = %d, want %d..%d (signals %+v)",
						tt.msg, len(req.Turns), got, tt.min, tt.max, New().Signals(req))
				}
			}
		})
	}
}

func TestRateRepeatScoresLower(t *testing.T) {
	tests := []struct{ name, msg string }{
		{"on topic", onTopic},
		{"off topic", offTopic},
		{"one word", "ok"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			first := rate(t, chat(t, wasp, tt.msg))
			again := rate(t, chat(t, wasp, tt.msg, tt.msg))
			if again >= first {
				t.Errorf("repeat rated %d, want less than the first time's %d", again, first)
			}
		})
	}
}

func TestRateWithoutPartner(t *testing.T) {
	if got := rate(t, brain.Request{Context: wasp}); got != 1 {
		t.Errorf("got %d, want 1", got)
	}
}

func TestSignals(t *testing.T) {
	tests := []struct {
		name string
		req  brain.Request
		want func(Signals) bool
		what string
	}{
		{"relevance from the context", chat(t, wasp, "wasps scare me"),
			func(s Signals) bool { return s.Relevance > 0.5 }, "Relevance > 0.5"},
		{"relevance is stemmed", chat(t, wasp, "the stinging wasps are crawling"),
			func(s Signals) bool { return s.Relevance > 0.85 }, "Relevance > 0.85"},
		{"no relevance off topic", brain.Request{Context: wasp, Turns: []brain.Turn{{Role: brain.Partner, Text: offTopic}}},
			func(s Signals) bool { return s.Relevance == 0 }, "Relevance == 0"},
		{"relevance from the bot's message", brain.Request{Context: wasp, Turns: []brain.Turn{
			{Role: brain.Bot, Text: "Do you like honey"}, {Role: brain.Partner, Text: "honey is sweet"}}},
			func(s Signals) bool { return s.Relevance > 0.3 && s.Relevance < 0.5 }, "0.3 < Relevance < 0.5"},
		{"gibberish has no substance", chat(t, wasp, "asdkjh qwpeoi"),
			func(s Signals) bool { return s.Substance == 0 && s.RealWordRatio == 0 }, "Substance == 0"},
		{"long message has full substance", chat(t, wasp, onTopic),
			func(s Signals) bool { return s.Substance > 0.95 }, "Substance > 0.95"},
		{"repeat has no novelty", chat(t, wasp, "ok", "ok"),
			func(s Signals) bool { return s.Novelty == 0 && s.Repeat }, "Novelty == 0 and Repeat"},
		{"new words are novel", chat(t, wasp, "ok", "the wasp is scary"),
			func(s Signals) bool { return s.Novelty == 1 && !s.Repeat }, "Novelty == 1"},
		{"partial overlap", chat(t, wasp, "wasps scare me", "wasps are beautiful"),
			func(s Signals) bool { return s.Novelty == 0.5 }, "Novelty == 0.5"},
		{"question and you engage", chat(t, wasp, "what would you do?"),
			func(s Signals) bool { return s.Engagement == 1 && s.Question && s.AddressesBot }, "Engagement == 1"},
		{"statement does not engage", chat(t, wasp, "I ran away."),
			func(s Signals) bool { return s.Engagement == 0 }, "Engagement == 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := New().Signals(tt.req); !tt.want(got) {
				t.Errorf("got %+v, want %s", got, tt.what)
			}
		})
	}
}

func TestFinal(t *testing.T) {
	good := chat(t, wasp,
		"I would stay very still and let the wasp fly away. Have you ever been stung?",
		"Once, at a picnic when I was a kid. My whole arm swelled up and my mum put ice on it.",
		"Honestly I'd switch off the TV and slowly walk to the window so it can leave. What would you do?",
		"Bees are different, they die after stinging, but wasps can sting again and again.",
		"Do you think wasps are useful at all? I read they eat garden pests.",
	)
	gibberish := chat(t, wasp, "asdkjh qwpeoi", "zzzzzz", "ok", "ok", "sdfg hjkl")
	silent := brain.Request{Context: wasp, Turns: []brain.Turn{{Role: brain.Bot, Text: "What would you do about the wasp?"}}}

	final := func(req brain.Request) brain.Scores {
		t.Helper()
		s, err := New().Final(context.Background(), req)
		if err != nil {
			t.Fatalf("Final: %v", err)
		}
		for _, n := range []int{s.Quality, s.Breadth, s.Engagement} {
			if n < 1 || n > 10 {
				t.Fatalf("Final = %+v, want every score in 1..10", s)
			}
		}
		return s
	}
	g, b, s := final(good), final(gibberish), final(silent)
	t.Logf("good %+v, gibberish %+v, silent %+v", g, b, s)
	t.Run("good beats gibberish", func(t *testing.T) {
		if g.Quality <= b.Quality || g.Breadth <= b.Breadth || g.Engagement <= b.Engagement {
			t.Errorf("good chat %+v, gibberish chat %+v: want good higher on every score", g, b)
		}
	})
	t.Run("good scores high", func(t *testing.T) {
		if g.Quality < 7 || g.Breadth < 7 || g.Engagement < 7 {
			t.Errorf("good chat %+v, want every score at least 7", g)
		}
	})
	t.Run("gibberish scores low", func(t *testing.T) {
		if b.Quality > 3 || b.Breadth > 3 || b.Engagement > 3 {
			t.Errorf("gibberish chat %+v, want every score at most 3", b)
		}
	})
	t.Run("silent partner scores low", func(t *testing.T) {
		if want := (brain.Scores{Quality: 1, Breadth: 1, Engagement: 1}); s != want {
			t.Errorf("silent chat %+v, want %+v", s, want)
		}
	})
}

func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req := chat(t, wasp, onTopic)
	if _, err := New().Rate(ctx, req); err == nil {
		t.Error("Rate: got no error, want the context's")
	}
	if _, err := New().Final(ctx, req); err == nil {
		t.Error("Final: got no error, want the context's")
	}
	if _, err := New().Reply(ctx, req); err == nil {
		t.Error("Reply: got no error, want the context's")
	}
}

// TestConcurrent shares one Brain (and its context cache) between chats;
// run with -race.
func TestConcurrent(t *testing.T) {
	b := New()
	contexts := []string{wasp, "My neighbour plays loud music every night.", "What is the best way to spend a rainy weekend?"}
	want := make([]string, len(contexts))
	for i, c := range contexts {
		want[i], _ = New().Reply(context.Background(), chat(t, c, onTopic))
	}
	done := make(chan error)
	for g := range 8 {
		go func() {
			for n := range 50 {
				i := (g + n) % len(contexts)
				req := chat(t, contexts[i], onTopic)
				got, err := b.Reply(context.Background(), req)
				if err == nil && got != want[i] {
					err = fmt.Errorf("got %q, want %q", got, want[i])
				}
				if err == nil {
					_, err = b.Rate(context.Background(), req)
				}
				if err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	for range 8 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
