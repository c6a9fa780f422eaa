package offline

import (
	"slices"
	"strings"
)

// How natural a rendering of a profile sentence reads: the words it adds
// to break the profile's trigrams each cost a little, a chat filler a lot,
// and a softener said twice ("over in … over in") more than once. The
// renderings of a fact are ordered by it, so that a reply says the most
// natural one first.

// chatFillers are the chat fillers breakSay puts between two words.
var chatFillers = []string{", like,", ", you know,"}

// fillerCount is the number of chat fillers in s.
func fillerCount(s string) int {
	n := 0
	for _, f := range chatFillers {
		n += strings.Count(s, f)
	}
	return n
}

// addedWords are words a rendering adds to break a trigram, with what each
// costs the reading: a longer preposition reads fine once, "the very
// united states" hardly.
var addedWords = []struct {
	words string
	cost  float64
}{
	{"along with", 1}, {"all the way from", 1}, {"the very", 2.5}, {"my own", 1.5}, {"a really", 1}, {"w/", 1},
	// a softener once reads as chat, and the paraphrases' own order stands:
	{"over in", 0}, {"over at", 0}, {"over on", 0}, {"actually", 0}, {"really", 0}, {"ever", 0},
}

// punctSpaced sets a rendering's punctuation apart from its words.
var punctSpaced = strings.NewReplacer(",", " ,", ":", " :", "?", " ?")

// awkwardness is how much rendering s strays from what a person would
// type, given the profile sentence ws it says: 0 for a plain paraphrase.
func awkwardness(ws []string, s string) float64 {
	low := " " + strings.ToLower(punctSpaced.Replace(s)) + " "
	src := " " + strings.Join(ws, " ") + " "
	cost := 3 * float64(fillerCount(s))
	if n := fillerCount(s); n > 1 {
		cost += 2 * float64(n-1) // every filler after the first reads as a stammer
	}
	for _, a := range addedWords {
		n := strings.Count(low, " "+a.words+" ") - strings.Count(src, " "+a.words+" ")
		if n <= 0 {
			continue
		}
		cost += a.cost * float64(n)
		if n > 1 {
			cost += 3 // the same softener twice: "over in … over in"
		}
	}
	return cost
}

// repeatsSoftener reports whether s says a word or phrase added to break a
// trigram twice where its sentence ws says it at most once: "I live over
// in a little apartment over in tokyo".
func repeatsSoftener(ws []string, s string) bool {
	low := " " + strings.ToLower(punctSpaced.Replace(s)) + " "
	src := " " + strings.Join(ws, " ") + " "
	for _, a := range []string{"over", "actually", "really", "very", "own", "along", "all the way"} {
		if strings.Count(low, " "+a+" ") > 1 && strings.Count(src, " "+a+" ") < 2 {
			return true
		}
	}
	return false
}

// byNaturalness orders the renderings says of sentence ws, the most
// natural first; of two that read as well, the earlier stays first.
func byNaturalness(ws []string, says []string) {
	cost := map[string]float64{}
	for _, s := range says {
		cost[s] = awkwardness(ws, s)
	}
	slices.SortStableFunc(says, func(a, b string) int {
		switch ca, cb := cost[a], cost[b]; {
		case ca < cb-0.01:
			return -1
		case cb < ca-0.01:
			return 1
		}
		return 0
	})
}
