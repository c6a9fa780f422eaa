package offline

import (
	"slices"
	"strings"

	"github.com/duetbot/duet/shared/brain"
)

// A paraphrase of a profile sentence must keep the whole fact: every named
// thing and number of it (in its words, a synonym or digits), a negation
// when it has one, and a wish stays a wish. keeps checks that.

// lightVerbs carry no fact of their own: a paraphrase may say them
// another way ("i like to ride" → "I'm into riding").
var lightVerbs = newSet(`like likes love loves enjoy enjoys adore hate hates dislike have has had own owns
got get am is are was were be been being do does did go goes went make makes made
want wants would will can could should may might must also just really very currently
actually usually always often sometimes recently still`)

// wishWords say that a sentence is a wish.
var wishWords = newSet("want wanna wants hope hoping dream dreams someday plan planning goal wish would like trying attempting")

// negations say that a sentence denies.
var negations = newSet("not never no can't don't didn't isn't wasn't won't cannot dont cant nobody nothing stand fan")

// keeps reports whether say, a paraphrase of the profile sentence ws
// (lower-case tokens), keeps its whole fact.
func keeps(ws []string, say string) bool {
	got := set{}
	stems := set{}
	for _, w := range brain.RouterWords(apostrophes.Replace(say)) {
		got.add(w)
		stems.add(stem(w))
	}
	for _, w := range tokens(strings.ReplaceAll(say, "&", "and")) {
		got.add(w)
		stems.add(stem(w))
	}
	// A set phrase said another way ("grew up" → "was raised") keeps its
	// words, whatever punctuation follows it ("split up, like, with").
	lowSay := " " + strings.Join(brain.RouterWords(apostrophes.Replace(say)), " ") + " "
	for j := range ws {
		for _, sp := range phrasesAt(ws, j) {
			if n := len(sp.words); sp.i < len(phraseSwaps) && j+n <= len(ws) && slices.Equal(ws[j:j+n], sp.words) &&
				strings.Contains(lowSay, " "+strings.Join(brain.RouterWords(phraseSwaps[sp.i][1]), " ")+" ") {
				for _, w := range sp.words {
					got.add(w)
				}
			}
		}
	}
	neg, wish := false, false
	for _, w := range ws {
		w = strings.TrimSuffix(w, "'s")
		switch {
		case w == "not" || w == "never" || w == "no":
			neg = true
		case stopwords.has(w) || lightVerbs.has(w) || intensifiers.has(w) || len(w) < 2:
		case fearWords.has(w) && (got.has("fear") || stems.has(stem("scare"))):
		case w == "used" && (got.has("once") || got.has("back") || got.has("was")): // "used to be" said "was once", "back in the day"
		case got.has(w) || stems.has(stem(w)):
		case swaps[w] != "" && got.has(strings.Fields(swaps[w])[0]):
		case digits[w] != "" && got.has(digits[w]): // "sixteen" said "16"
		case prepositions[w] != "" && strings.Contains(lowSay, " "+prepositions[w]+" "): // "near" said "close to"
		case nameWords.has(w) && got.has("name"): // "is called chorizo" said "chorizo is its name"
		case synonymOf(w, got):
		default:
			return false
		}
	}
	for _, a := range aspirations {
		if strings.Contains(" "+strings.Join(ws, " ")+" ", a) {
			wish = true
		}
	}
	if neg && !anyOf(got, negations) && !strings.Contains(say, "n't") {
		return false
	}
	return !wish || anyOf(got, wishWords) || strings.Contains(lowSay, " to be ") // "studying to become a vet" said "to be"
}

// synonymOf reports whether a word of got says w another way: the
// synonyms paraphrases use ("huge" → "big").
func synonymOf(w string, got set) bool {
	for _, pair := range [][2]string{{"huge", "big"}, {"big", "huge"}, {"small", "little"}, {"little", "small"},
		{"great", "good"}, {"good", "great"}, {"very", "really"}, {"favorite", "top"}, {"favourite", "top"},
		{"favorite", "favourite"}, {"favourite", "favorite"}, {"parents", "folks"}, {"job", "work"}, {"work", "job"},
		{"working", "job"}, {"living", "job"}} {
		if pair[0] == w && got.has(pair[1]) {
			return true
		}
	}
	return false
}

func anyOf(got, words set) bool {
	for w := range got {
		if words.has(w) {
			return true
		}
	}
	return false
}
