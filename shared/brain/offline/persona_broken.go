package offline

import (
	"slices"
	"strings"

	"github.com/duetbot/duet/shared/brain"
)

// Which of breakSay's renderings a fact keeps: the one or two that read
// best, in the first person and whole.

// brokenSays says the fact of profile sentence ws (source, joined) when no
// paraphrase of says reads whole without a profile trigram: each of them,
// and the sentence itself, broken by breakSay; the one or two that read
// best and keep the whole fact. An earlier paraphrase is preferred a
// little, as it reads better whole.
func brokenSays(grams brain.Trigrams, ws []string, source string, says, moved []string) []string {
	type option struct {
		s    string
		cost float64
	}
	if danglers.has(ws[len(ws)-1]) {
		return nil // a sentence the releases cut short: "when i was a"
	}
	var opts []option
	ns := keptPhrases(ws)
	held := heldPhrases(ws, ns)
	for i, s := range append(slices.Clone(says), source) {
		b, cost := breakSay(grams, capitalI(s), held)
		if b != "" && keeps(ws, b) && !tokensEqual(b, source) && readsWhole(b) && !repeatsSoftener(ws, b) && keepsNames(ns, b) {
			opts = append(opts, option{b, cost + 0.25*float64(i)})
		}
	}
	// A paraphrase that moves the sentence's parts ("a pickup truck, a red
	// one") reads a little worse broken, but better than the sentence
	// broken by more fillers.
	for _, s := range moved {
		if slices.Contains(says, s) {
			continue
		}
		b, cost := breakSay(grams, capitalI(s), held)
		if b != "" && fillerCount(b) <= 2 && keeps(ws, b) && !tokensEqual(b, source) && readsWhole(b) && !repeatsSoftener(ws, b) && keepsNames(ns, b) {
			opts = append(opts, option{b, cost + 1})
		}
	}
	slices.SortStableFunc(opts, func(a, b option) int {
		switch {
		case a.cost < b.cost:
			return -1
		case a.cost > b.cost:
			return 1
		}
		return 0
	})
	var out []string
	for _, o := range opts {
		if len(out) < 2 && !slices.Contains(out, o.s) {
			out = append(out, o.s)
		}
	}
	return out
}

// readsWhole reports whether a rendering reads as the bot's own sentence:
// in the first person ("I", "we", "our"), and not ending on a word that needs another ("when
// I was a", a sentence the releases cut short).
func readsWhole(s string) bool {
	ws := strings.Fields(s)
	if len(ws) == 0 || danglers.has(strings.ToLower(trimPunct(ws[len(ws)-1]))) {
		return false
	}
	for _, w := range ws {
		switch trimPunct(w) {
		case "I", "I'm", "I've", "I'd", "my", "My", "me", "we", "We", "we're", "we've", "our", "Our", "us":
			return true
		}
	}
	return false
}

// alternateFillers says every second ", like," of s as ", you know,".
func alternateFillers(s string) string {
	parts := strings.Split(s, ", like, ")
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			if i%2 == 0 {
				b.WriteString(", you know, ")
			} else {
				b.WriteString(", like, ")
			}
		}
		b.WriteString(p)
	}
	return b.String()
}
