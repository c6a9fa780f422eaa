package offline

import "strings"

// Where a word or set phrase may be said another way and still say the
// same: a swap that fits one sentence changes another ("a big fan" is no
// "large fan", "a little brother" no "bit brother", "seventy two" no
// "seventy 2", "a country music singer" no "country tunes singer", "spent
// a year" no "spent per year"). Every rewording (synonymsIn, unrefuse,
// breakSay) asks these before it swaps.

// sizeWords say how big, and are swapped for one another: a size that
// stands before a person says an age ("a little brother") and one that
// stands before another word of degree is no size at all ("a little
// shy").
var sizeWords = newSet("big huge large small little tiny great good")

// youngNouns are people a size before says an age or a rank, never a
// size: "a little girl", "a big brother", "great grandchildren".
var youngNouns = newSet("girl girls boy boys kid kids one ones baby babies bit while deal shot")

// modifierNouns stand before another noun as often as alone, and then
// name a kind of it: "a pizza place", "country music singer", "a dog
// walking business", "my home office".
var modifierNouns = newSet("music pizza dog dogs cat cats house home job movie movies film films tv television fields")

// swapFits reports whether the lower-case word w, between prev and next
// (lower case, "" past an end), may be said as its swap without changing
// what the sentence says.
func swapFits(prev, w, next string) bool {
	switch {
	case isNumber(w):
		// "seventy two" is one number: never "seventy 2"
		return !numberWords.has(prev) && !numberWords.has(next)
	case sizeWords.has(w):
		return next != "" && !stopwords.has(next) && !determiners.has(next) && !adjective(next) && !isNumber(next) &&
			!youngNouns.has(next) && kin[next] == 0 && !strings.HasPrefix(next, "grand")
	case likeVerbs.has(w) || w == "like":
		// "adore to travel", "enjoy to cook": a verb after it keeps its word
		return next != "to" && (w != "like" || subjectsOfLike.has(prev))
	case w == "tend":
		return next != "to" // "tend the fields" is "look after the fields"; "tend to" no "look after to"
	case w == "want" || w == "going":
		// "wanna to", "heading to be": chatPhrases and
		// phraseSwaps say these with the word after them
		return false
	case w == "st" || w == "mt":
		// "st petersburg" is "saint petersburg"; "main st" is a street
		return next != "" && !stopwords.has(next) && (prev == "" || stopwords.has(prev) || determiners.has(prev))
	case w == "job" && (prev == "a" || prev == "an"):
		return false // "a job" is no "a work"
	case w == "home" && !determiners.has(prev):
		return false // "at home", "stay home": never "at house"
	case (w == "america" || w == "usa") && prev != "" && !stopwords.has(prev) && !determiners.has(prev):
		return false // "north america" is no "north the us"
	case modifierNouns.has(w):
		return next == "" || stopwords.has(next) || determiners.has(next) || isNumber(next)
	}
	return true
}

// phraseFits reports whether the set phrase p of phraseSwaps, between
// prev and next (lower case, "" past an end), may be said its other way.
func phraseFits(p, prev, next string) bool {
	switch p {
	case "a little":
		// "a little shy" is "a bit shy"; "a little brother" is no "bit brother"
		return next == "" || stopwords.has(next) && !determiners.has(next) || adjective(next) && !adjectives.has(next)
	case "when i was":
		return isNumber(next) // "when i was eight" → "at age eight"
	case "a bit":
		return next != "of"
	case "a year", "a week", "a day":
		// "five espressos a day" is "per day"; "i spent a year in madrid" is no rate
		return (plural(prev) || isNumber(prev) || prev == "once" || prev == "twice" || prev == "times") &&
			next != "ago" && next != "old" && next != "later"
	case "most days":
		return prev != "on" && !strings.HasPrefix(prev, "spen")
	case "at home":
		// "i stay at home" is "I stay home"; "a stay at home dad" keeps its words
		return strings.HasPrefix(prev, "stay") && (next == "" || stopwords.has(next) || boundaries.has(next))
	case "going to":
		return next == "be" || irregularPast[next] != "" && next != "go" || goingVerbs.has(next)
	case "grew up":
		return prev == "i" || adverbs.has(prev) // "my kids grew up" is no "my kids was raised"
	}
	return true
}

// goingVerbs are verbs that follow "going to" in profiles, which may say
// "about to"; "going to college" goes somewhere.
var goingVerbs = newSet("join start study retire move try visit learn open marry become travel finish graduate have need")

// synonymsIn says the adjectives of s another way where swapFits allows
// ("huge" for "big", "little" for "small", "really" for "very"), so that
// a paraphrase repeats fewer of its profile's trigrams; never inside a
// name of ns.
func synonymsIn(s string, ns []string) string {
	ws := strings.Fields(s)
	for i, w := range ws {
		low := strings.ToLower(trimPunct(w))
		alt := adjectiveSynonyms[low]
		if alt == "" || i > 0 && strings.ContainsAny(ws[i-1], ",:?") {
			continue
		}
		prev, next := "", ""
		if i > 0 {
			prev = strings.ToLower(ws[i-1])
		}
		if i+1 < len(ws) && !strings.ContainsAny(w, ",:?") {
			next = strings.ToLower(trimPunct(ws[i+1]))
		}
		if low != "very" && !swapFits(prev, low, next) {
			continue
		}
		ws[i] = strings.Replace(w, low, alt, 1)
		if !keepsNames(ns, strings.Join(ws, " ")) {
			ws[i] = w
		}
	}
	return strings.Join(ws, " ")
}

// adjectiveSynonyms are the swaps synonymsIn makes.
var adjectiveSynonyms = map[string]string{"huge": "big", "big": "huge", "very": "really", "little": "small", "small": "little", "great": "good", "good": "great"}
