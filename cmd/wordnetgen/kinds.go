package main

import (
	"maps"
	"slices"
	"strings"
	"unicode"
)

// kindRoot is a kind of thing and the synsets its members descend from.
type kindRoot struct {
	kind    string
	offsets []string
	verbs   bool // a member may be a verb too: "drum", "fiddle"
}

// kindRoots are the kinds kinds_wordnet.txt lists, by the name the engine
// knows them by, with the synsets (WordNet 3.0 offsets) their members
// descend from. A word is of the first kind its first sense descends
// from: a drink before a food.
var kindRoots = []kindRoot{
	{"instrument", []string{"03800933"}, true},       // musical instrument
	{"music", []string{"07071942"}, false},           // music genre
	{"dog", []string{"02084071"}, false},             // dog, domestic dog
	{"cat", []string{"02121808"}, false},             // domestic cat
	{"sport", []string{"00523513"}, false},           // sport, athletics
	{"drink", []string{"07881800"}, false},           // beverage
	{"food", []string{"00021265"}, false},            // food, nutrient
	{"job", []string{"09632518", "10480253"}, false}, // worker; professional
}

// kinds returns the lines of kinds_wordnet.txt: "food moussaka",
// "instrument bagpipe", a name of several words joined by "_". A word is
// listed when the sense WordNet lists first is of the kind, it is written
// in lower case there, and it is no everyday word of another part of
// speech: not an adjective ("bitter"), a verb ("brew") but for
// instruments, a verb's "-ing" ("stuffing"), a plural of a word of
// another kind ("bones"), or a name in another sense ("murphy").
func kinds(wn *wordnet) ([]string, error) {
	var lines []string
	for _, lemma := range slices.Sorted(maps.Keys(wn.senses)) {
		if !kindName(lemma) || wn.adject[lemma] && !strings.Contains(lemma, "_") || notKinds[lemma] || wn.properName(lemma) {
			continue
		}
		first := wn.senses[lemma][0]
		if !slices.Contains(wn.nouns[first].words, lemma) {
			continue // a name: "Coca_Cola", "Pekingese"
		}
		k := wn.kindOf(first)
		if k == nil || wn.verbs[lemma] && !k.verbs || wn.gerund(lemma) {
			continue
		}
		if one, ok := strings.CutSuffix(lemma, "s"); ok && len(wn.senses[one]) > 0 && wn.kindOf(wn.senses[one][0]) != k {
			continue // "bones" is the plural of "bone"
		}
		lines = append(lines, k.kind+" "+lemma)
	}
	return lines, nil
}

// notKinds are words whose first sense WordNet gives as a kind but chat
// uses for something else: "vintage" cars, a coffee "grinder".
var notKinds = map[string]bool{"vintage": true, "grinder": true, "murphy": true, "sidecar": true, "stinger": true, "larder": true,
	"collation": true, "concoction": true, "intermixture": true, "cud": true, "slops": true, "premix": true,
	"pipework": true, "syrinx": true, "chime": true, "cur": true, "feist": true}

// properName reports a lemma that is also a name in one of its senses:
// "murphy" is a potato and a Murphy.
func (wn *wordnet) properName(lemma string) bool {
	for _, o := range wn.senses[lemma] {
		for _, w := range wn.nouns[o].words {
			if strings.ToLower(w) == lemma && w != lemma {
				return true
			}
		}
	}
	return false
}

// kindOf is the kind of noun synset o, or nil.
func (wn *wordnet) kindOf(o string) *kindRoot {
	for i, k := range kindRoots {
		for _, root := range k.offsets {
			if wn.descends(o, root, 16) {
				return &kindRoots[i]
			}
		}
	}
	return nil
}

// kindName reports a lemma the engine can read as a name: at least three
// letters, of at most three words, letters and hyphens only.
func kindName(lemma string) bool {
	return len(lemma) >= 3 && strings.Count(lemma, "_") < 3 &&
		strings.IndexFunc(lemma, func(r rune) bool { return r != '_' && r != '-' && !unicode.IsLower(r) }) < 0
}

// gerund reports a word that is a verb's "-ing": "stuffing", "icing".
func (wn *wordnet) gerund(lemma string) bool {
	stem, ok := strings.CutSuffix(lemma, "ing")
	if !ok || strings.Contains(lemma, "_") {
		return false
	}
	n := len(stem)
	return wn.verbs[stem] || wn.verbs[stem+"e"] || n > 1 && stem[n-1] == stem[n-2] && wn.verbs[stem[:n-1]]
}
