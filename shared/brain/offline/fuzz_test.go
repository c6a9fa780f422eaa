package offline

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/duetbot/duet/shared/brain"
)

// FuzzFill: whatever a template and the fills hold (a fill may be the
// partner's words), the text is the template's with each slot replaced
// once: a fill is copied, never searched for slots.
func FuzzFill(f *testing.F) {
	f.Add("I saw {a} near {c}. Did {b}?", "the wasp", "your dog", "a park")
	f.Add("{a}{b}{c}{d}{", "x", "", "{a}")
	f.Add("{{a}b}", "", "b", "c")
	f.Add("{b{a}}", "", "0", "0")
	f.Fuzz(func(t *testing.T, tmpl, a, b, c string) {
		if strings.Contains(tmpl, "\x00") {
			return
		}
		// Filling the slots with marks that cannot occur in the template
		// shows where each fill goes.
		filled := func(f fill) string {
			var sb strings.Builder
			writeFilled(&sb, tmpl, f)
			return sb.String()
		}
		marks := filled(fill{"\x00A\x00", "\x00B\x00", "\x00C\x00"})
		want := strings.NewReplacer("\x00A\x00", a, "\x00B\x00", b, "\x00C\x00", c).Replace(marks)
		if got := filled(fill{a, b, c}); got != want {
			t.Errorf("writeFilled(%q, %q) wrote %q, but its slots are at %q", tmpl, fill{a, b, c}, got, marks)
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
					if !keeps(strings.Fields(fc.source), s) && !(fc.part && keepsPart(strings.Fields(fc.source), s)) {
						t.Errorf("fact %q: paraphrase %q drops part of it, and is no first part of it (partSays)", fc.source, s)
					}
				}
			}
		}
		fuzzChat(t, context, msg)
	})
}

// keepsPart reports whether say keeps a first part of sentence ws, cut
// where partSays may cut it.
func keepsPart(ws []string, say string) bool {
	for k := minPart; k < len(ws); k++ {
		if cuts.has(ws[k]) && keeps(ws[:k], say) {
			return true
		}
	}
	return false
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
