package offline

import (
	_ "embed"
	"strings"
)

// The foods, drinks, sports, musical instruments, kinds of music, breeds
// of dog and cat, and trades WordNet knows (cmd/wordnetgen writes
// kinds_wordnet.txt: "food moussaka", "instrument bagpipe"), so that
// "nothing beats my grandmother's moussaka" answers "what's your favorite
// food?" and "i play the bagpipe at weddings" "do you play an
// instrument?". The hand lists of knownKinds win where they know a name.
//
//go:embed kinds_wordnet.txt
var kindsText string

// wordnetClasses are WordNet's kinds, each with the words a question asks
// about it with and the intent it answers.
var wordnetClasses = []struct {
	kind, class string
	intent      category
}{
	{"instrument", "instrument instruments", catMusic},
	{"music", "music genre", catMusic},
	{"dog", "dog dogs puppy pet pets", catPet},
	{"cat", "cat cats kitty kitten pet pets", catPet},
	{"sport", "sport sports", catSport},
	{"drink", "drink drinks", catDrink},
	{"food", "food foods", catFood},
}

// wordnetKinds returns WordNet's kinds of one word as knownKinds reads
// them, without the words the intents or the hand kinds already know
// ("pizza", "guitar", "salsa" the dance). A name of several words would
// be held whole in a rendering, and reads as a kind where the sentence
// means something else ("heavy metal music" is no name, "deer hunting" no
// sport of the bot's), so those stay out.
func wordnetKinds(hand []knownKind) []knownKind {
	known := set{}
	for _, k := range hand {
		for m := range strings.FieldsSeq(k.members) {
			known.add(m)
		}
	}
	members := map[string][]string{}
	for kind, word := range wordnetWords {
		if !known.has(word) {
			members[kind] = append(members[kind], word)
		}
	}
	var out []knownKind
	for _, c := range wordnetClasses {
		out = append(out, knownKind{class: c.class, intent: c.intent, members: strings.Join(members[c.kind], " ")})
	}
	return out
}

// wordnetJobs are the trades WordNet knows that no intent word names
// otherwise: "midwife", "herdsman", "roofer" (occupation reads them).
var wordnetJobs = func() set {
	jobs := set{}
	for kind, word := range wordnetWords {
		if kind == "job" {
			jobs.add(word)
		}
	}
	return jobs
}()

// wordnetWords yields each kind and word of one word of kinds_wordnet.txt
// that no intent word names already, in the file's order.
func wordnetWords(yield func(kind, word string) bool) {
	for line := range strings.SplitSeq(kindsText, "\n") {
		f := strings.Fields(line) // "food moussaka"
		if len(f) != 2 || f[0] == "#" || strings.Contains(f[1], "_") || intentWords[f[1]] != 0 {
			continue
		}
		if !yield(f[0], f[1]) {
			return
		}
	}
}
