package offline

import (
	"slices"
	"strings"

	"github.com/duetbot/duet/shared/brain"
)

// A name or title in a profile sentence ("the insane clown posse", "call
// of duty", "a dog named rex") keeps its words in a rendering: no filler,
// softener or synonym inside it ("new children on, like, the block" is no
// longer the band). A name of three words or more repeats the profile's
// trigram whole, so its fact is left unsaid rather than said wrong.

// titleNouns are kinds of thing a name or title stands for: "my favorite
// band is …".
var titleNouns = newSet(`band bands song songs movie movies film films show shows series book books novel
novels game games team teams album albums artist artists singer singers group groups rapper rappers author
authors actor actors actress actresses musician musicians character characters podcast anime cartoon
cartoons tv channel brand franchise`)

// titleVerbs take a title as their object: "i play call of duty".
var titleVerbs = newSet(`like love enjoy adore play played watch watched read listen listened`)

// names returns the names and titles of profile sentence ws, each as its
// words joined by spaces, without a leading article.
func names(ws []string) []string {
	var out []string
	add := func(n []string) {
		for len(n) > 0 && determiners.has(n[0]) {
			n = n[1:]
		}
		if len(n) > 1 {
			out = append(out, strings.Join(n, " "))
		}
	}
	for i, w := range ws {
		switch {
		case (w == "named" || w == "called") && i+1 < len(ws):
			// "a dog named sir barks a lot": the name ends at a verb or a
			// phrase, which a short name seldom has
			n, _ := nounPhrase(ws[i+1:])
			add(n)
		case (w == "favorite" || w == "favourite") && i+2 < len(ws) && titleNouns.has(ws[i+1]):
			if ws[i+2] == "is" || ws[i+2] == "are" {
				add(ws[i+3:]) // "my favorite band is the insane clown posse"
			}
		case titleVerbs.has(w) && i+3 < len(ws):
			// "i love new kids on the block", "i play a lot of call of
			// duty": a bare phrase of content words joined by "of", "on"
			// or "in" that ends the sentence reads as a title.
			rest := ws[i+1:]
			if rest[0] == "to" && !strings.HasPrefix(w, "listen") {
				break // "i like to work on vintage cars": a verb follows, not a title
			}
			if rest[0] == "to" {
				rest = rest[1:]
			}
			for k := 0; k+2 < len(rest); k++ {
				if rest[k] == "of" && k > 0 && (rest[k-1] == "lot" || rest[k-1] == "lots") {
					rest = rest[k+1:] // "a lot of call of duty"
					break
				}
			}
			if titleShape(rest) {
				add(rest)
			}
		}
	}
	return out
}

// titleShape reports whether ws reads as a title: two to five words, the
// first and the last content words and no verb in -ing first, joined by
// "of", "on", "in" or "the" ("call of duty", "new kids on the block").
func titleShape(ws []string) bool {
	if len(ws) < 3 || len(ws) > 5 || stopwords.has(ws[0]) || determiners.has(ws[0]) || strings.HasSuffix(ws[0], "ing") ||
		stopwords.has(ws[len(ws)-1]) || isNumber(ws[0]) {
		return false
	}
	joined := false
	for i, w := range ws[1 : len(ws)-1] {
		switch {
		case (w == "of" || w == "on" || w == "in") && (titleNouns.has(ws[i]) || ws[i] == "music"):
			return false // "country music on the road": a kind of thing and where, not a title
		case w == "of" || w == "on" || w == "in":
			joined = true
		case w == "the" || !stopwords.has(w) && !determiners.has(w):
		default:
			return false
		}
	}
	return joined
}

// keepsNames reports whether rendering s says every name of ns with its
// own words, together and in order; a possessive may drop its apostrophe
// ("greys anatomy").
func keepsNames(ns []string, s string) bool {
	low := " " + bareWords(s) + " "
	return !slices.ContainsFunc(ns, func(n string) bool {
		return !strings.Contains(low, " "+bareWords(n)+" ")
	})
}

// bareWords are the words of s as the router reads them once apostrophes
// are dropped, joined by spaces: "grey's anatomy" is "greys anatomy".
func bareWords(s string) string {
	return strings.Join(brain.RouterWords(strings.ReplaceAll(apostrophes.Replace(s), "'", "")), " ")
}
