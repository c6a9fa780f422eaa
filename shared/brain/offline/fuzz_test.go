package offline

import (
	"context"
	"fmt"
	"slices"
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

// FuzzFill: filling a template's slots in one pass (appendFilled) gives
// what replacing {a}, then {b}, then {c} everywhere gives, for fills without
// braces (topics never hold one) and templates whose every "{" opens a slot,
// as Duet's do (a stray one could make a new slot as the slots are
// replaced: "{b{a}}" with an empty {a} becomes "{b}"); and whatever the
// template and the fills hold, the text is the template's with each slot
// replaced once.
func FuzzFill(f *testing.F) {
	f.Add("I saw {a} near {c}. Did {b}?", "the wasp", "your dog", "a park")
	f.Add("{a}{b}{c}{d}{", "x", "", "{a}")
	f.Add("{{a}b}", "", "b", "c")
	f.Add("{b{a}}", "", "0", "0")
	f.Fuzz(func(t *testing.T, tmpl, a, b, c string) {
		fl := fill{a, b, c}
		got := string(appendFilled(nil, tmpl, fl))
		slots := strings.Count(tmpl, "{a}") + strings.Count(tmpl, "{b}") + strings.Count(tmpl, "{c}")
		if strings.Count(tmpl, "{") == slots && !strings.ContainsAny(a+b+c, "{}") {
			want := strings.ReplaceAll(tmpl, "{a}", a)
			want = strings.ReplaceAll(want, "{b}", b)
			want = strings.ReplaceAll(want, "{c}", c)
			if got != want {
				t.Errorf("appendFilled(%q, %q) = %q, replacing one slot after another gives %q", tmpl, fl, got, want)
			}
		}
		// Replacing the slots by marks that cannot occur in any input
		// shows where each fill went: a fill is copied, never read.
		marks := string(appendFilled(nil, tmpl, fill{"\x00A\x00", "\x00B\x00", "\x00C\x00"}))
		if strings.Contains(tmpl, "\x00") {
			return
		}
		want := strings.NewReplacer("\x00A\x00", a, "\x00B\x00", b, "\x00C\x00", c).Replace(marks)
		if got != want {
			t.Errorf("appendFilled(%q, %q) = %q, but its slots are at %q", tmpl, fl, got, marks)
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

// FuzzNewBag: a bag made at once from a list (newBag, in the list's own
// storage) holds what adding its words one by one gives, in the same order,
// with an index from the same size on.
func FuzzNewBag(f *testing.F) {
	f.Add("a b a c b d", uint8(1))
	f.Add("a b", uint8(60)) // 62 distinct words, over bagIndexAt, with repeats
	f.Fuzz(func(t *testing.T, words string, times uint8) {
		var list []string
		for i := range int(times%64) + 1 {
			for _, w := range strings.Fields(words) {
				list = append(list, fmt.Sprintf("%s%d", w, i%(int(times%64)/2+1)))
			}
		}
		var want bag
		for _, w := range list {
			want.add(w)
		}
		got := newBag(slices.Clone(list))
		if !slices.Equal(got.list, want.list) || (got.index == nil) != (want.index == nil) || len(got.index) != len(want.index) {
			t.Fatalf("newBag(%q) = %q (index %d), adding one by one gives %q (index %d)", list, got.list, len(got.index), want.list, len(want.index))
		}
		for _, w := range list {
			if !got.has(w) || !got.hasBytes([]byte(w)) {
				t.Fatalf("newBag(%q) has no %q", list, w)
			}
		}
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
		h := newHistory([]brain.Turn{{Role: brain.Bot, Text: said}, {Role: brain.Partner, Text: s}}, &readCache{})
		if got, want := h.says(s), h.has(normalize(s)); got != want {
			t.Errorf("said %q: says(%q) = %v, has(normalize) = %v", said, s, got, want)
		}
		p, n := normalize(s), normalize(said)
		want := strings.HasPrefix(n, p) && (len(n) == len(p) || n[len(p)] == ' ')
		if got := h.opensNormal(appendNormalized(nil, s)); got != want {
			t.Errorf("said %q: opensNormal(normalize(%q)) = %v, want %v", said, s, got, want)
		}
	})
}
