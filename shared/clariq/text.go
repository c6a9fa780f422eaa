package clariq

import (
	"strings"

	"github.com/duetbot/duet/shared/embed"
)

// stopwords are the project's function words (embed.Stopwords, which the
// offline brain and the embeddings share) and the phrasing of requests and
// clarifying questions ("tell me about", "are you looking for"), which
// say nothing of the topic; the remaining function words of the NLTK list
// the model was first fitted with are kept, so the fitted weights keep
// their meaning.
var stopwords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range embed.Stopwords() {
		m[w] = true
	}
	for _, w := range strings.Fields(`above after again against before below between both d don during each few
because further her hers herself him himself his itself ll m myself nor now once other ours re theirs themselves
through under until ve while yours yourself
tell find information info give show want like looking look know learn interested interest
please need needs wanting search searching im id`) {
		m[w] = true
	}
	return m
}()

// words splits s into lower-case words as embed.Words does, with the
// apostrophes taken out ("obama's" → "obamas" → stem "obama").
func words(s string) []string {
	ws := embed.Words(s)
	for i, w := range ws {
		if strings.Contains(w, "'") {
			ws[i] = strings.ReplaceAll(w, "'", "")
		}
	}
	return ws
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
