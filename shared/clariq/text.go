package clariq

import (
	"strings"
	"unicode"
)

// stopwords are function words and the phrasing of requests and
// clarifying questions ("tell me about", "are you looking for"), which
// say nothing of the topic.
var stopwords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a about above after again against all am an and any are as at be because been
before being below between both but by can could did do does doing down during each few for from further
had has have having he her here hers herself him himself his how i if in into is it its itself just
me more most my myself no nor not now of off on once only or other our ours out over own same she
should so some such than that the their theirs them themselves then there these they this those
through to too under until up very was we were what when where which while who whom why will with
would you your yours yourself s t don ll m re ve d
tell find information info give show want like looking look know learn interested interest
please need needs wanting search searching im id`) {
		m[w] = true
	}
	return m
}()

// words splits s into lower-case words of letters and digits; an
// apostrophe inside a word is dropped ("obama's" → "obamas" → stem "obama").
func words(s string) []string {
	var out []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			out = append(out, b.String())
			b.Reset()
		}
	}
	for _, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(unicode.ToLower(r))
		case r == '\'' || r == '’':
			// keep the word whole
		default:
			flush()
		}
	}
	flush()
	return out
}

// terms returns the stemmed content words of s, in order, with repeats.
func terms(s string) []string {
	ws := words(s)
	out := ws[:0]
	for _, w := range ws {
		if stopwords[w] {
			continue
		}
		st := stem(w)
		if st == "" || stopwords[st] {
			continue
		}
		out = append(out, st)
	}
	return out
}

// stem is a light English suffix stripper: plurals, -ing, -ed, -ly. It
// conflates the forms requests and questions use ("hummingbirds",
// "hummingbird") without Porter's aggressive merges.
func stem(w string) string {
	n := len(w)
	switch {
	case n > 4 && strings.HasSuffix(w, "ies"):
		w = w[:n-3] + "y"
	case n > 4 && (strings.HasSuffix(w, "sses") || strings.HasSuffix(w, "xes") || strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes")):
		w = w[:n-2]
	case n > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		w = w[:n-1]
	}
	n = len(w)
	switch {
	case n > 5 && strings.HasSuffix(w, "ing"):
		w = w[:n-3]
	case n > 4 && strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed"):
		w = w[:n-2]
	case n > 5 && strings.HasSuffix(w, "ly"):
		w = w[:n-2]
	}
	return w
}
