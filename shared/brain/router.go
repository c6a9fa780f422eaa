package brain

import (
	"strings"
	"unicode"
)

// The ConvAI2 router refuses a bot message that shares a word n-gram with
// the bot's own profile (the message is lost, and ten such messages in a
// row end the chat). It splits both texts the way Python's
// re.sub(r'\W+', ' ', text).lower().split(' ') does: every run of
// characters other than letters, digits and '_' is a boundary, so "I'm" is
// "i m", and n-grams run across the profile's sentences. The documents say
// trigrams (the public code has 5-grams): Duet holds its replies to
// trigrams, which is the stricter rule, and counts every trigram of the
// message, the last one too (the router skips it).

// RouterWords splits s into lower-case words as the router does, leaving
// out the empty words its split gives at the ends of the text.
func RouterWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || unicode.IsMark(r))
	})
}

// Trigrams is a set of word trigrams, "w1 w2 w3", as the router reads them.
type Trigrams map[string]struct{}

// ProfileTrigrams returns the word trigrams of a bot's profile, the text
// the router sent after /start.
func ProfileTrigrams(profile string) Trigrams {
	ws := RouterWords(profile)
	out := Trigrams{}
	for i := 0; i+3 <= len(ws); i++ {
		out[ws[i]+" "+ws[i+1]+" "+ws[i+2]] = struct{}{}
	}
	return out
}

// Has reports whether g is one of the trigrams.
func (t Trigrams) Has(g string) bool {
	_, ok := t[g]
	return ok
}

// Refuses reports whether the router would refuse msg from a bot whose
// profile has the trigrams t: msg repeats one of them.
func (t Trigrams) Refuses(msg string) bool {
	if len(t) == 0 {
		return false
	}
	ws := RouterWords(msg)
	for i := 0; i+3 <= len(ws); i++ {
		if t.Has(ws[i] + " " + ws[i+1] + " " + ws[i+2]) {
			return true
		}
	}
	return false
}
