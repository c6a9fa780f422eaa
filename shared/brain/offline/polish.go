package offline

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// distinguish appends clauses to s until it differs from every reply the bot
// has sent.
func distinguish(s string, said *history) string {
	for n := 0; ; n++ {
		extra := lastResort[n%len(lastResort)]
		if n >= len(lastResort) {
			extra += " (" + strconv.Itoa(n/len(lastResort)+1) + ")"
		}
		if c := polish(s + " " + extra); !said.says(c) {
			return c
		}
	}
}

// sanitize drops characters that would read as template slots.
func sanitize(r rune) rune {
	if r == '{' || r == '}' {
		return -1
	}
	return r
}

// polish makes a filled template read like a chat message: no slot
// leftovers, single spaces, no space before punctuation, capitals at the
// start of sentences, a final punctuation mark, at most maxReply characters.
func polish(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 1)
	space, capital := false, true // a space is pending; a capital is due
	for _, r := range s {
		switch {
		case r == '{' || r == '}':
			continue
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		}
		if space && !closesClause(r) {
			b.WriteByte(' ')
		}
		space = false
		switch {
		case capital && unicode.IsLetter(r):
			r = unicode.ToUpper(r)
			capital = false
		case r == '.' || r == '?' || r == '!':
			capital = true
		default:
			capital = false
		}
		b.WriteRune(r)
	}
	s = b.String()
	if utf8.RuneCountInString(s) > maxReply {
		s = string([]rune(s)[:maxReply])
		if i := strings.LastIndexByte(s, ' '); i > 0 {
			s = s[:i]
		}
		s = strings.TrimRight(s, " ,;:\u2014") + "\u2026"
	}
	if s == "" {
		return "Tell me more?"
	}
	if r, _ := utf8.DecodeLastRuneInString(s); !strings.ContainsRune(".?!\u2026", r) {
		s += "."
	}
	return s
}

// normalize reduces a message to its lower-case words (letters and
// digits) joined by single spaces, for repeat checks.
func normalize(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		r = unicode.ToLower(r)
		if !isWordRune(r) {
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
		space = false
	}
	return b.String()
}

// closesClause reports punctuation that follows a word without a space.
func closesClause(r rune) bool {
	switch r {
	case ',', '.', '?', '!', ';', ':':
		return true
	}
	return false
}
