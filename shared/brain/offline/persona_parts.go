package offline

import (
	"cmp"
	"slices"
	"strings"
)

// The parts of a profile sentence a follow-up asks for: its names, an age,
// a count, how long, a breed, whom one is with, and a thing named by its
// kind. Each returns "" when the sentence tells no such part alone.

// kindPart returns the pet, the sport or the children, siblings or
// grandchildren of sentence ws a question asks for by their kind: "tennis"
// for "do you play any sports?", "three huskies" for "any pets?", "two
// kids" for "do you have children?"; "" when it asks by no such kind or
// ws names none.
func kindPart(q *text, ws []string) string {
	b := breed(ws)
	for _, w := range q.words {
		c, k := intentWords[w.low]&(catPet|catSport), kin[w.low]
		if !categoryNames.has(w.low) || c == 0 && !kindsOfKin.has(w.low) {
			continue
		}
		for j, fw := range ws {
			if kindsOfKin.has(w.low) && kin[fw] != k || c != 0 && (intentOf(fw)&c == 0 || categoryNames.has(fw) || knownWords[fw] != 0) {
				continue
			}
			switch {
			case j > 0 && isNumber(ws[j-1]):
				return ws[j-1] + " " + fw // "three huskies", "two kids"
			case k > 0:
				return "" // "my son": a relative alone is no part
			case c&catPet != 0 && b == "":
				return "" // "my dog luna": the fact again, not "a dog"
			case c&catPet != 0:
				fw = b // "a german shepherd", not "dog"
			}
			if plural(fw) || c&catSport != 0 || herds.has(fw) {
				return fw // "huskies", "tennis", "cattle"
			}
			return articleFor(fw) + " " + fw // "a dog"
		}
	}
	return ""
}

// pronouns are the subjects a verb follows: "i raise cattle".
var pronouns = newSet("i we they you he she")

// herds are animals named without an article: "i raise cattle".
var herds = newSet("cattle livestock sheep fish poultry deer")

// kindsOfKin name relatives by their kind: "do you have children?".
var kindsOfKin = newSet("kids children siblings grandkids grandchildren")

// givenNames returns the names sentence ws gives a pet or a relative:
// "salt and pepper" of "two cats named salt and pepper", "juno" of "my
// husky juno howls"; "" when it names none alone.
func givenNames(ws []string) string {
	for i, w := range ws {
		if (w == "named" || w == "called") && i+1 < len(ws) {
			n, _ := nounPhrase(ws[i+1:])
			if len(n) == 0 || determiners.has(n[0]) {
				return ""
			}
			if k := i + 1 + len(n); k+1 < len(ws) && ws[k] == "and" && (k+2 == len(ws) || boundaries.has(ws[k+2])) {
				n = ws[i+1 : k+2] // "salt and pepper"
			}
			return strings.Join(n, " ")
		}
		if before := ws[max(0, i-3):i]; (slicesHasAny(before, possessives) || len(before) > 0 && isNumber(before[0])) && namedAfter(ws, i) {
			return w
		}
	}
	return ""
}

// age returns the age sentence ws tells, in digits: "26" of "i am twenty
// six and still single".
func age(ws []string) string {
	at := -1
	for i, w := range ws {
		if isNumber(w) && !counted(ws, i) {
			at = i // "six" of "three kids under the age of six"
			break
		}
	}
	for i := 1; i < len(ws); i++ {
		if isNumber(ws[i]) && ageVerbs.has(ws[i-1]) {
			at = i
			break
		}
	}
	return numberAt(ws, at)
}

// count returns how many sentence ws counts, in digits: "6" of "i have
// six younger siblings"; "" when no number counts things.
func count(ws []string) string {
	for i, w := range ws {
		if isNumber(w) && i+1 < len(ws) && !durations.has(ws[i+1]) && !heightWords.has(ws[i+1]) && !strings.HasPrefix(ws[i+1], "year") && (i == 0 || !ageVerbs.has(ws[i-1])) {
			return numberAt(ws, i)
		}
	}
	return ""
}

// lasting returns how long sentence ws says something has gone on: "40
// years" of "i have been married for forty years".
func lasting(ws []string) string {
	for i, w := range ws {
		if !isNumber(w) {
			continue
		}
		next := i + 1
		if next < len(ws) && isNumber(ws[next]) {
			next++ // "twenty six years": one number
		}
		if next < len(ws) && durations.has(ws[next]) && ws[next] != "since" {
			return numberAt(ws, i) + " " + ws[next]
		}
		if i >= 3 && ws[i-3] == "since" && ws[i-2] == "i" && ws[i-1] == "was" {
			return "since age " + numberAt(ws, i) // "i have played piano since i was five"
		}
	}
	return ""
}

// numberAt returns the number at ws[at] in digits, a number of two words
// as one ("twenty six" → "26"); "" when at is out of ws.
func numberAt(ws []string, at int) string {
	if at < 0 || at >= len(ws) {
		return ""
	}
	for _, sp := range phrasesAt(ws, at) {
		if at+1 < len(ws) && len(sp.words) == 2 && sp.words[1] == ws[at+1] && isNumber(ws[at+1]) {
			return phraseSwaps[sp.i][1] // "twenty six" → "26"
		}
	}
	if d := cmp.Or(digits[ws[at]], swaps[ws[at]]); d != "" {
		return d
	}
	return ws[at]
}

// breed returns the kind of animal sentence ws tells of by a word more
// than "dog" or "cat": "german shepherd" of "my dog is a german shepherd
// named bruno", "husky" of "i have a husky named juneau".
func breed(ws []string) string {
	for i, w := range ws {
		if intentOf(w)&catPet == 0 || categoryNames.has(w) || genericPets.has(w) {
			continue
		}
		from := i
		if i > 0 && !stopwords.has(ws[i-1]) && !possessives.has(ws[i-1]) && !isNumber(ws[i-1]) && intentOf(ws[i-1])&catPet == 0 && !adjective(ws[i-1]) &&
			(i < 2 || !pronouns.has(ws[i-2])) { // not the verb of "i raise cattle"
			from = i - 1 // "german shepherd", "golden retriever"
		}
		return strings.Join(ws[from:i+1], " ")
	}
	return ""
}

var genericPets = newSet("dog dogs cat cats puppy puppies kitten kittens kitty kitties pet pets animal animals")

// company returns whom sentence ws says one lives or is with: "my
// boyfriend and two cats" of "i live in seattle with my boyfriend and two
// cats".
func company(ws []string) string {
	at := slices.Index(ws, "with")
	if at < 0 || at+1 == len(ws) {
		return ""
	}
	rest := ws[at+1:]
	end := len(rest)
	for i, w := range rest {
		if i > 0 && (prepositionWords.has(w) || w == "who" || w == "that") {
			end = i
			break
		}
	}
	if !slicesHasAny(rest[:end], possessives) && !isNumber(rest[0]) && kinOf(rest[:end]) == 0 {
		return "" // "with a view": no one
	}
	return strings.Join(rest[:end], " ")
}

// when returns the time sentence ws tells a thing happens at: "next
// october" of "i'm getting married next october", "in june", "two years
// ago", "every summer"; "" when it tells none.
func when(ws []string) string {
	for i, w := range ws {
		if i+1 >= len(ws) {
			break
		}
		next := ws[i+1]
		switch {
		case (w == "next" || w == "last" || w == "this" || w == "every") && whenNames.has(next):
			return w + " " + next
		case w == "in" && (months.has(next) || seasons.has(next)):
			return w + " " + next
		case isNumber(w) && durations.has(next) && i+2 < len(ws) && ws[i+2] == "ago":
			return strings.Join(ws[i:i+3], " ")
		}
	}
	return ""
}

// months name a month; whenNames what "next", "last", "this" or "every"
// names a time by.
const monthNames = "january february march april may june july august september october november december"

var (
	months    = newSet(monthNames)
	whenNames = newSet(monthNames + " spring summer fall autumn winter week weekend month year " +
		"monday tuesday wednesday thursday friday saturday sunday morning night")
)

// modified returns a thing of sentence ws a "what kind of…?" question
// asks for, with the word the sentence says its kind by: "mariachi band"
// of "i play the trumpet in a mariachi band" for "what kind of band?",
// "bass fishing" for "what kind of fish?"; "" when the question asks
// no kind or ws names the thing bare.
func modified(q *text, ws []string) string {
	at := slices.IndexFunc(q.words, func(w word) bool { return whatKind.has(w.low) })
	if at < 0 || at+2 >= len(q.words) || q.words[at+1].low != "of" || !q.words[at+2].content {
		return ""
	}
	thing := stem(q.words[at+2].low)
	for i := 1; i < len(ws); i++ {
		m := ws[i-1]
		if stem(ws[i]) != thing && stem(strings.TrimSuffix(ws[i], "ing")) != thing || stopwords.has(m) || possessives.has(m) || isNumber(m) || adjective(m) {
			continue
		}
		return m + " " + ws[i] // "mariachi band", "bass fishing"
	}
	return ""
}
