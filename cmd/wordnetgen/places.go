package main

import (
	"maps"
	"slices"
	"strings"
	"unicode"
)

// The synsets the places descend from (WordNet 3.0 offsets).
const (
	countryOffset = "08544813" // state, nation, country, land
	cityOffset    = "08524735" // city, metropolis, urban center
	townOffset    = "08665504" // town
)

// places returns the gazetteer's lines: "country ghana ghanaian", "town
// accra ghana". A name that is also an everyday word of WordNet
// ("reading", "nice", "turkey", "mobile") is left out: the engine would
// read "i love reading" as a place.
func places(wn *wordnet) ([]string, error) {
	name := func(w string) (string, bool) {
		low := strings.ToLower(strings.TrimSuffix(w, "(a)"))
		ok := len(low) >= 4 && !wn.common[low] && strings.IndexFunc(low, func(r rune) bool { return r != '_' && r != '-' && !unicode.IsLetter(r) }) < 0
		return low, ok
	}
	// A name of several places is the one WordNet lists first ("paris" is
	// France's): each name once, the same in every run.
	var lines []string
	for _, lemma := range slices.Sorted(maps.Keys(wn.senses)) {
		n, ok := name(lemma)
		if !ok {
			continue
		}
		for _, o := range wn.senses[lemma] {
			if wn.isA(o, countryOffset) {
				lines = append(lines, strings.TrimSpace("country "+n+" "+peopleOf(wn.nouns[o], wn.adjs)))
				break
			}
			if wn.isA(o, cityOffset) || wn.isA(o, townOffset) {
				lines = append(lines, strings.TrimSpace("town "+n+" "+countryOf(wn, o)))
				break
			}
		}
	}
	slices.Sort(lines)
	return lines, nil
}

// peopleOf is the adjective of a country's people: "ghanaian".
func peopleOf(country synset, adjs map[string]synset) string {
	for _, a := range country.adjectives {
		if ws := adjs[a].words; len(ws) > 0 {
			return strings.ToLower(strings.TrimSuffix(ws[0], "(a)"))
		}
	}
	return ""
}

// countryOf follows what synset o is part of up to a country: its name,
// or "" when there is none within four steps.
func countryOf(wn *wordnet, o string) string {
	frontier := []string{o}
	for range 4 {
		var next []string
		for _, f := range frontier {
			for _, p := range wn.nouns[f].partOf {
				if wn.isA(p, countryOffset) && len(wn.nouns[p].words) > 0 {
					return strings.ToLower(wn.nouns[p].words[0])
				}
				next = append(next, p)
			}
		}
		frontier = next
	}
	return ""
}
