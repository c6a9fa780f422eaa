package offline

import (
	"cmp"
	"slices"
	"strings"
)

// Asked right after the bot told the fact that answers ("what do you do?"
// "Nurse at a children's hospital in Toronto." "where do you live?"), the
// bot answers as a person would: with the part of the fact asked for,
// "Toronto, like I said!", or, when no part stands alone, the fact said
// another way after "Like I just said!". A follow-up on the fact's own
// words ("do you like chicago?") gets the pointer alone, with its yes or
// no. So a fact is told in two replies in a row only when asked for
// again, and said so.

// againPart returns the part of fact f that answers q, as the profile
// names it: the place for "where…?", the names for "what's its name?",
// the age for "how old…?"; "" when no part answers alone.
func (f *fact) againPart(q *text) string {
	ws := strings.Fields(f.source)
	switch {
	case asksName(q) && f.tellsName():
		return titleWords(givenNames(ws))
	case saysWord(q, "where"):
		if ps := placesIn(" " + f.source + " "); len(ps) > 0 {
			return titleWords(strings.ReplaceAll(ps[0], "_", " "))
		}
	case saysWord(q, "old") && (saysWord(q, "how") || saysWord(q, "age")) || saysWord(q, "age"):
		if f.tellsAge() || tellsAge(f.source) {
			return age(ws)
		}
	case saysWord(q, "how") && saysWord(q, "many"):
		return count(ws)
	case saysWord(q, "how") && saysWord(q, "long"):
		return lasting(ws)
	case saysWord(q, "breed") || saysWord(q, "kind") && (saysWord(q, "dog") || saysWord(q, "cat")):
		return breed(ws)
	case saysWord(q, "who") && saysWord(q, "with"):
		return company(ws)
	}
	if k := kindPart(q, ws); k != "" && f.intents()&catJob == 0 { // not "horses" of "a vet who works with horses"
		return k
	}
	return f.afterShared(q)
}

// kindPart returns the pet, the sport or the children, siblings or
// grandchildren of sentence ws a question asks for by their kind: "tennis"
// for "do you play any sports?", "three huskies" for "any pets?", "two
// kids" for "do you have children?"; "" when it asks by no such kind or
// ws names none.
func kindPart(q *text, ws []string) string {
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
			case c&catPet != 0 && breed(ws) == "":
				return "" // "my dog luna": the fact again, not "a dog"
			case c&catPet != 0:
				fw = breed(ws) // "a german shepherd", not "dog"
			}
			if plural(fw) || c&catSport != 0 {
				return fw // "huskies", "tennis"
			}
			return articleFor(fw) + " " + fw // "a dog"
		}
	}
	return ""
}

// kindsOfKin name relatives by their kind: "do you have children?".
var kindsOfKin = newSet("kids children siblings grandkids grandchildren")

// followsUp reports a question that asks only for a part of fact f:
// "how many?" after "i have six younger siblings", "for how long?" after
// "i have been married for forty years"; each of its words but those it
// asks with is the fact's.
func (f *fact) followsUp(q *text) bool {
	if asksOfYou(q) {
		return false // "where are you from?" asks whole
	}
	for _, w := range q.words {
		if w.content && !partAsks.has(w.low) && !thirdPronouns.has(w.low) && !slices.ContainsFunc(sharedStems(w), f.stems.has) {
			return false
		}
	}
	return f.againPart(q) != ""
}

// partAsks are the words a question asks for a part of a fact with.
var partAsks = newSet("how many long old age breed kind name names called")

// afterShared returns what fact f says after the word a "what…?" question
// shares with it: "biology" of "i am a student studying biology" for
// "what are you studying?", "forest green" of "my favorite color is forest
// green" for "what's your fav color?"; "" when nothing or more than a
// short phrase follows.
func (f *fact) afterShared(q *text) string {
	if len(q.words) == 0 || q.words[0].low != "what" && q.words[0].low != "what's" && q.words[0].low != "which" {
		return ""
	}
	ws := strings.Fields(f.source)
	for i, w := range ws {
		if stopwords.has(w) || !slices.ContainsFunc(q.words, func(x word) bool { return slices.Contains(sharedStems(x), stem(w)) }) {
			continue
		}
		rest := ws[i+1:]
		verb := strings.HasSuffix(w, "ing") || i > 0 && (ws[i-1] == "i" || ws[i-1] == "and") // "majoring in history", "i study law"
		if len(rest) == 0 || !beVerbs.has(rest[0]) && !verb {
			return "" // "a high school senior": what follows a noun is no answer
		}
		if beVerbs.has(rest[0]) {
			rest = rest[1:]
		} else if len(rest) > 1 && (rest[0] == "in" || rest[0] == "to") {
			rest = rest[1:] // "majoring in history"
		}
		np, _ := nounPhrase(rest)
		if len(np) == 0 || len(np) > 3 || slicesHasAny(np, firstPerson) || slices.ContainsFunc(np, func(w string) bool { return stopwords.has(w) && !determiners.has(w) }) {
			return ""
		}
		return strings.Join(np, " ")
	}
	return ""
}

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
		if i > 0 && !stopwords.has(ws[i-1]) && !possessives.has(ws[i-1]) && !isNumber(ws[i-1]) && intentOf(ws[i-1])&catPet == 0 && !adjective(ws[i-1]) {
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

// againLeads answer q with part of fact f the bot has just told, or with
// the fact again (say, as a sentence) when no part answers alone.
func againLeads(f *fact, q *text, say string, yesNo bool, refuses func(string) bool, seed uint64) []string {
	part := f.againPart(q)
	if refuses(part) {
		part = strings.ReplaceAll(part, " and ", " & ") // "salt and pepper" is the profile's
	}
	if part != "" && !refuses(part) {
		lead := firstLetterUpper(part) + ", like I said!"
		if yesNo && f.confirms(q) && !f.neg {
			lead = "Yep, " + part + ", like I said!"
		}
		return []string{lead}
	}
	leads := justSaidLeads
	if yesNo && f.confirms(q) {
		// "are you still working?" right after "I retired last year":
		// the yes or the no first.
		leads = justSaidYes
		if f.neg {
			leads = justSaidNo
		}
	}
	if (asksOfYou(q) || asksOfThird(q)) && !f.sharesWord(q) {
		// "where do you live?" right after "I'm a chef in Chicago", "what
		// does he do?" right after "My husband is a firefighter": the
		// question asks for the fact again; a follow-up on its words
		// ("do you like chicago?", "what kind of music?") does not, and
		// gets the pointer alone.
		return prefixed(leads, say, seed)
	}
	return rotated(leads, seed)
}

// sharesWord reports a content word of q, or the word swaps says it
// with ("kids", "children"), in fact f.
func (f *fact) sharesWord(q *text) bool {
	for _, w := range q.words {
		if slices.ContainsFunc(sharedStems(w), f.stems.has) {
			return true
		}
	}
	return false
}

// sharedStems are the stems a fact may share a question's word w by: its
// own and that of the word swaps says it with; none for a stopword.
func sharedStems(w word) []string {
	if stopwords.has(w.low) {
		return nil
	}
	if sw := swaps[w.low]; sw != "" {
		return []string{stem(w.low), stem(sw)}
	}
	return []string{stem(w.low)}
}

// saysWord reports the word w in q.
func saysWord(q *text, w string) bool {
	for _, x := range q.words {
		if x.low == w {
			return true
		}
	}
	return false
}

// asksOfYou reports a question put to the bot whole, not a follow-up on
// what it said: "where do you live?", "any kids?", never "what kind?".
func asksOfYou(q *text) bool {
	if len(q.words) > 0 && (q.words[0].low == "any" || q.words[0].low == "got") {
		return true
	}
	for _, w := range q.words {
		if youWords.has(w.low) {
			return true
		}
	}
	return false
}

var youWords = newSet("you u your ur yours yourself")

// titleWords writes a place or a name as chat capitalises it: "Rio de
// Janeiro", "Salt and Pepper".
func titleWords(s string) string {
	ws := strings.Fields(s)
	for i, w := range ws {
		if i == 0 || !stopwords.has(w) {
			ws[i] = firstLetterUpper(w)
		}
	}
	return strings.Join(ws, " ")
}
