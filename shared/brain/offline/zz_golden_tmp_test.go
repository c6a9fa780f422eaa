package offline

// TEMPORARY golden test for the performance work; to be deleted.

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/duetbot/duet/shared/brain"
)

const goldenPath = "/tmp/perf/golden.txt"

func goldenF(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

func goldenSignals(s Signals) string {
	return fmt.Sprintf("%s %s %s %s %d %d %s %v %v %v", goldenF(s.Relevance), goldenF(s.Substance),
		goldenF(s.Novelty), goldenF(s.Engagement), s.Words, s.ContentWords, goldenF(s.RealWordRatio),
		s.Question, s.AddressesBot, s.Repeat)
}

func TestGoldenTmp(t *testing.T) {
	contexts := []string{
		wasp,
		"",
		"Your best friend invites you to a birthday party on Monday night, but you have an exam on Tuesday.",
		"What is the best way to spend a rainy weekend?",
		"My neighbour plays loud music every night.",
		"Вы смотрите телевизор, и вдруг оса ползёт по запястью.",
		"...",
		"You find a WALLET with $500 and an ID card on the street. NASA calls. What do you do?",
		"The İstanbul café’s Straße — ǅemal’s naïve ΣΟΦΙΑ plan {a} {b}!",
		strings.Repeat("You're sitting watching TV, and suddenly you discover a wasp crawling on your wrist. ", 8192/85),
		strings.Repeat("the wasp is on my wrist and I am watching TV ", 200),
	}
	partners := []string{
		onTopic, offTopic, "ok", "maybe", "idk", "it depends", "yes", "sure", "asdkjh qwpeoi", "zzzzzz", "huh?",
		"Would you stay still or brush it off?", "Do you prefer tea or coffee?", "Do you like wasps?",
		"What would you do?", "Why?", "I'd freeze. Is the wasp dangerous?",
		"My dog once ate a wasp and his face swelled up for two days.",
		"\U0001F41D\U0001F41D?", "{a} or {b}?", "Tough one \u2014 would you swat it or wait?",
		"Что бы вы сделали?", strings.Repeat("the wasp is on my wrist and I am watching TV ", 200),
		"?!?", "WHAT WOULD YOU DO WITH THE WASP?", "I would stay still and let it fly away.",
		"Have you ever been stung by a wasp?", "Honestly I am more scared of bees than wasps.",
		"My cat once chased a wasp around the living room.", "how about you", "is it safe or not?",
		"Is it a bee or a wasp?", "Would the wasp sting or fly?", "What do you prefer, tea or coffee?",
		"When?", "Where would you go?", "Who would you call?", "How would you do it?", "Which one?",
		"Are you scared of my wasps, your bees or their hornets?", "I’d call my mom’s friend’s doctor.",
		"The İstanbul café’s Straße plan, ǅemal said — naïve?", "ΣΟΦΙΑ ΚΑΙ ΟΔΟΣ", "lol", "k",
		"I'm watching TV too. Are you?", "a , b . c ? d ! e", "  spaces   everywhere  ?  ",
		"Thank you! You're great, you know? What's your favourite TV show?",
		strings.Repeat("word ", 100) + "?", "x\xffy invalid \xc3 utf8?",
		"Do you think the Tuesday exam or the Monday party matters more?",
		"Would I rather stay home or go to the party?", "Could we leave or stay?",
		"Is it your wrist or my wrist?",
	}
	var out strings.Builder
	b := New()
	ctx := context.Background()
	record := func(tag string, req brain.Request) string {
		r, err := b.Reply(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		rt, _ := b.Rate(ctx, req)
		fin, _ := b.Final(ctx, req)
		fmt.Fprintf(&out, "%s\nR %q\nS %s\nT %d\nF %v\n", tag, r, goldenSignals(b.Signals(req)), rt, fin)
		return r
	}
	// Self-play: each context with each partner message repeated, bot
	// replies fed back, which drives the repeat-avoidance paths.
	for ci, c := range contexts {
		for pi, p := range partners {
			req := brain.Request{Context: c}
			turns := 6
			if pi%5 == 0 {
				turns = 14
			}
			for turn := range turns {
				if turn > 0 {
					req.Turns = append(req.Turns, brain.Turn{Role: brain.Partner, Text: p})
				}
				got := record(fmt.Sprintf("self c%d p%d t%d", ci, pi, turn), req)
				req.Turns = append(req.Turns, brain.Turn{Role: brain.Bot, Text: got})
			}
		}
	}
	// Mixed styles: random partner messages, bot replies fed back.
	rng := rand.New(rand.NewPCG(1, 2))
	for k := range 300 {
		c := contexts[rng.IntN(len(contexts))]
		req := brain.Request{Context: c}
		n := rng.IntN(12)
		for turn := range n {
			if turn > 0 || rng.IntN(2) == 0 {
				req.Turns = append(req.Turns, brain.Turn{Role: brain.Partner, Text: partners[rng.IntN(len(partners))]})
			}
			got := record(fmt.Sprintf("mix %d t%d", k, turn), req)
			req.Turns = append(req.Turns, brain.Turn{Role: brain.Bot, Text: got})
		}
		req.Turns = append(req.Turns, brain.Turn{Role: brain.Partner, Text: partners[rng.IntN(len(partners))]})
		record(fmt.Sprintf("mix %d end", k), req)
	}
	// Fixture chats (fixed bot lines), as the package's tests build them.
	for ci, c := range contexts {
		for pi := range partners {
			msgs := []string{partners[pi], partners[(pi+7)%len(partners)], partners[(pi*3)%len(partners)]}
			for k := 1; k <= len(msgs); k++ {
				record(fmt.Sprintf("fixture c%d p%d k%d", ci, pi, k), chat(t, c, msgs[:k]...))
			}
		}
	}
	// The text helpers directly.
	var samples []string
	samples = append(samples, contexts...)
	samples = append(samples, partners...)
	for _, list := range [][]tmpl{openers, clarifyVague, clarifyGarbled, answerSelf, answerWhat,
		answerWhy, answerHow, answerWhen, answerWhere, answerWho, answerYouYesNo, answerYesNo,
		answerOther, questionsBack, reactions, followUps} {
		for _, tm := range list {
			samples = append(samples, tm.text, strings.ReplaceAll(tm.text, "{a}", "the İstanbul café"))
		}
	}
	samples = append(samples, "the wasp and your wrist , huh? what now", "  hello   {a} there ", "",
		"ǅemal ǆ ǈ ß ẞ İ ı ς Σ", strings.Repeat("é ", 300), strings.Repeat("a ", 300),
		"end…", "a \u00a0b\u2003c\td\ne", "x\xffy \xc3", "1. 2? 3! x", ". . . ?", "hi...", "¿qué? ¡sí!")
	for _, s := range samples {
		fmt.Fprintf(&out, "P %q -> %q\nN %q -> %q\n", s, polish(s), s, normalize(s))
	}
	if os.Getenv("GOLDEN_WRITE") == "1" {
		if err := os.WriteFile(goldenPath, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %d bytes", out.Len())
		return
	}
	want, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != string(want) {
		os.WriteFile(goldenPath+".got", []byte(got), 0o644)
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("golden mismatch at line %d:\n got %s\nwant %s", i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("golden mismatch: %d lines, want %d", len(gl), len(wl))
	}
}
