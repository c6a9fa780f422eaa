package offline

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/duetbot/duet/shared/brain"
)

// FuzzPolish: the one-pass ASCII path of polish gives what the general
// path gives, whenever it applies.
func FuzzPolish(f *testing.F) {
	for _, s := range []string{"the wasp and your wrist , huh? what now", "  hello   {a} there ", "", "a.b!c?d", "x ,y", strings.Repeat("word ", 70)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !isASCII(s) {
			return
		}
		fast, ok := polishASCII(s)
		if !ok {
			return
		}
		if slow := polishAny(s); fast != slow {
			t.Errorf("polishASCII(%q) = %q, polishAny = %q", s, fast, slow)
		}
	})
}

// FuzzNormalize: the ASCII path of appendNormalized gives what the general
// path gives.
func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"Hello, World!", "I'd stay   still.", "", "A1-b2_C3", "x\ty\nz"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !isASCII(s) {
			return
		}
		fast, slow := appendNormalizedASCII(nil, s), appendNormalizedAny(nil, s)
		if string(fast) != string(slow) {
			t.Errorf("appendNormalizedASCII(%q) = %q, appendNormalizedAny = %q", s, fast, slow)
		}
	})
}

// FuzzProfile reads any context as the router's /start text: when it is
// a profile, every fact has paraphrases, none that the router would refuse
// for repeating a trigram of the profile; and the bot's replies over a few
// turns are well formed and never repeat.
func FuzzProfile(f *testing.F) {
	f.Add(horses, "do you have pets?")
	f.Add("i am a vegan and i love hummus.\nhello i just moved here from germany.", "what do you do?")
	f.Add("knitting is my passion.\nmy favorite color is blue.\ni've a dogs.", "i have two cats. and you?")
	f.Add("in my free time i like to watch nascar.\ni'm {a} and %s.", "{b}?")
	f.Fuzz(func(t *testing.T, context, msg string) {
		if !utf8.ValidString(context) || !utf8.ValidString(msg) || len(context) > 2000 {
			return
		}
		if pr := parseProfile(context); pr != nil {
			for _, fc := range pr.facts {
				if len(fc.says) == 0 || len(fc.says) != len(fc.sentences) {
					t.Fatalf("fact %q has paraphrases %q, sentences %q", fc.source, fc.says, fc.sentences)
				}
				for _, s := range fc.says {
					if pr.router.Refuses(s) || strings.TrimSpace(s) == "" {
						t.Errorf("fact %q: paraphrase %q repeats a trigram of the profile: the router refuses it", fc.source, s)
					}
				}
			}
		}
		fuzzChat(t, context, msg)
	})
}

// fuzzChat plays a few turns of msg against the bot on context.
func fuzzChat(t *testing.T, ctxText, msg string) {
	t.Helper()
	b := New()
	req := brain.Request{Context: ctxText}
	seen := map[string]bool{}
	for range 4 {
		got, err := b.Reply(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if got == "" || !utf8.ValidString(got) || utf8.RuneCountInString(got) > 300 || strings.ContainsAny(got, "{}") {
			t.Fatalf("context %q, message %q: reply %q is not a chat message", ctxText, msg, got)
		}
		if seen[normalize(got)] {
			t.Fatalf("context %q, message %q: reply %q repeats", ctxText, msg, got)
		}
		seen[normalize(got)] = true
		req.Turns = append(req.Turns, brain.Turn{Role: brain.Bot, Text: got}, brain.Turn{Role: brain.Partner, Text: msg})
	}
}

// FuzzSays: the history's checks of a message as sent, normalised on the
// stack, agree with the plain reading on normalize(s).
func FuzzSays(f *testing.F) {
	f.Add("Do you like wasps?", "do you LIKE wasps")
	f.Add("Hi there! How are you?", "Hi there")
	f.Add("Café au lait", "CAFÉ")
	f.Fuzz(func(t *testing.T, said, s string) {
		h := newHistory([]brain.Turn{{Role: brain.Bot, Text: said}, {Role: brain.Partner, Text: s}}, nil)
		if got, want := h.says(s), h.has(normalize(s)); got != want {
			t.Errorf("said %q: says(%q) = %v, has(normalize) = %v", said, s, got, want)
		}
		p, n := normalize(s), normalize(said)
		want := strings.HasPrefix(n, p) && (len(n) == len(p) || n[len(p)] == ' ')
		if got := h.opens(s); got != want {
			t.Errorf("said %q: opens(%q) = %v, want %v", said, s, got, want)
		}
	})
}
