package offline

import (
	"slices"
	"strings"
)

// What a fact tells beyond its intents, for ranking the facts that answer
// a question (answers): where one comes from, one's people, whose it is,
// a trade named, a language named, a place named, an age or a count, how
// long, how one commutes, what a relative does.

// tellsOrigin reports a fact that tells where one comes from and not
// where one lives: "i am from scotland originally".
func (f *fact) tellsOrigin() bool {
	padded := " " + f.source + " "
	if f.verb == "live" {
		return false
	}
	for _, mark := range []string{" from ", " originally ", " grew up ", " born ", " raised ", " whole life ", " back home "} {
		if strings.Contains(padded, mark) {
			return true
		}
	}
	return false
}

// onlyPeople reports a fact that tells one's people and no place: "i am
// korean american".
func (f *fact) onlyPeople() bool {
	ws := f.words
	return len(ws) > 2 && ws[1] == "am" && peoples.has(ws[2]) && !slicesHasAny(ws, afterLive)
}

// subjectKin is the kinds of relative a "my …" fact is about, as bits of
// kinOf: "my parents are divorced" is about parents, "my wife and kids are
// back in kerala" about a wife and children.
func (f *fact) subjectKin() int {
	k := 0
	for _, w := range f.words[1:] {
		switch n := kin[w]; {
		case n > 0:
			k |= 1 << n
		case k != 0 && w != "and" && w != "my":
			return k
		}
	}
	return k
}

// namesOccupation reports a fact that names what one is by trade: "i am
// a tattoo artist", "i am a welder".
func (f *fact) namesOccupation() bool {
	for _, w := range f.words {
		if occupation(w) || agentNoun(w) {
			return true
		}
	}
	return false
}

// durations tell how long.
var durations = newSet("years months weeks since decades")

// namesLanguage reports a fact that names a language by its word, not by
// where it is spoken.
func (f *fact) namesLanguage() bool {
	for _, w := range f.words {
		if intentWords[w]&catLanguage != 0 {
			return true
		}
	}
	return false
}

// tellsWhere reports a fact that names a place: "i am a bartender in new
// orleans", "i work at a pet store".
func (f *fact) tellsWhere() bool {
	padded := " " + f.source + " "
	return strings.Contains(padded, " in ") || strings.Contains(padded, " at ") || strings.Contains(padded, " on ")
}

// namesWhere reports a fact that says where: a place named or a place
// word after a preposition ("i live near the beach").
func (f *fact) namesWhere() bool {
	padded := " " + f.source + " "
	if f.tellsWhere() || len(placesIn(padded)) > 0 {
		return true
	}
	for _, p := range []string{" near ", " by ", " from ", " outside ", " abroad ", " here ", " overseas ", " downtown "} {
		if strings.Contains(padded, p) {
			return true
		}
	}
	return false
}

// livesWith reports a sentence that tells whom one lives with.
func livesWith(source string) bool {
	padded := " " + source + " "
	return strings.Contains(padded, " live with ") || strings.Contains(padded, " lives with ") || strings.Contains(padded, " living with ")
}

// tellsAge reports a sentence that tells how old someone is: by a
// number that counts no one and no time ("my twins are four", not "i
// have three boys" nor "married for twelve years"), or by a word such as
// "teenage" in "i have two teenage daughters".
func tellsAge(source string) bool {
	ws := strings.Fields(source)
	for i, w := range ws {
		if isNumber(w) && !counted(ws, i) && !lastsFor(ws, i) || yearsWords.has(w) {
			return true
		}
	}
	return false
}

// lastsFor reports the number at ws[i] a length of time or a time ago,
// not an age: "for twelve years", "two years ago".
func lastsFor(ws []string, i int) bool {
	if i+1 >= len(ws) || !durations.has(strings.TrimSuffix(ws[i+1], "s")+"s") {
		return false
	}
	return i > 0 && (ws[i-1] == "for" || ws[i-1] == "past" || ws[i-1] == "last") || i+2 < len(ws) && ws[i+2] == "ago"
}

// counted reports the number at ws[i] a count, not an age: "three boys",
// "six younger siblings", but "four years old".
func counted(ws []string, i int) bool {
	next := i + 1
	if next+1 < len(ws) && (siblingOrder.has(ws[next]) || adjective(ws[next])) {
		next++
	}
	return next < len(ws) && countsPeople(ws[next])
}

// countsPeople reports the word after a number that makes it a count,
// not an age: "three boys", "two sons", but "four years old".
func countsPeople(next string) bool {
	return kin[next] > 0 || strings.HasSuffix(next, "s") && !strings.HasPrefix(next, "year") && !strings.HasPrefix(next, "month")
}

var yearsWords = newSet(`teenage teenager teenagers teen teens toddler toddlers baby babies newborn infant grown adult
adults kindergarten grade grader college preschool`)

// commutes reports a sentence about how one gets to work or school: "i
// ride my bike to work", a vehicle of one's own, not one driven for work.
func commutes(ws []string) bool {
	for i := 1; i < len(ws); i++ {
		if ws[i-1] == "to" && (ws[i] == "work" || ws[i] == "school" || ws[i] == "class" || ws[i] == "the" && i+1 < len(ws) && ws[i+1] == "office") {
			return true
		}
	}
	return false
}

// kinDoings returns what fact f tells of a relative beyond being one: a
// place ("i have a long distance boyfriend in chile") or a pastime ("my
// son rhys loves karting").
func kinDoings(f *fact) category {
	var c category
	if len(placesIn(" "+f.source+" ")) > 0 {
		c |= catPlace
	}
	if f.hasWord(relativeLikes.has) {
		c |= catHobby
	}
	return c
}

// relativeLikes tell what a relative likes doing.
var relativeLikes = newSet("loves likes enjoys adores plays")

// agedAt reports a fact that tells how old one was when something
// question q names happened: "i was born in odessa and moved here at
// nineteen" for "how old were you when you moved?".
func (f *fact) agedAt(q *text) bool {
	if !saysWord(q, "when") || !f.sharesWord(q) {
		return false
	}
	ws := f.words
	for i := 1; i < len(ws); i++ {
		if isNumber(ws[i]) && (ws[i-1] == "at" || ws[i-1] == "was" && i > 1 && ws[i-2] == "i") {
			return true
		}
	}
	return false
}

// ownPlace returns catPlace for a fact about others that tells where one
// is from oneself: "my parents still live in ohio where i grew up"; asked
// where one is from (origin), "my family moved here from poland last
// year" (oneself with them) and "my grandparents came from sicily" (one's
// roots) do too.
func ownPlace(source string, origin bool) category {
	if origin && (strings.HasPrefix(source, "my family ") || strings.HasPrefix(source, "my grandparents ") || strings.HasPrefix(source, "my parents ")) &&
		strings.Contains(source, " from ") && (strings.Contains(source, " moved ") || strings.Contains(source, " came ") ||
		strings.Contains(source, " immigrated ") || strings.Contains(source, " fled ")) {
		return catPlace
	}
	for _, mark := range []string{" where i grew up", " where i was born", " where i was raised", " back home "} {
		if strings.Contains(source, mark) {
			return catPlace
		}
	}
	return 0
}

// tellsHowLong reports a sentence that tells how long something has gone
// on: "for forty years", "since 2010", "my whole life", "i was born and
// raised here".
func tellsHowLong(ws []string) bool {
	return lasting(ws) != "" || slicesHasAny(ws, howLongWords)
}

var howLongWords = newSet("since life generations years year decade decades always forever childhood born months weeks hour hours minutes")

// ownAge reports a sentence that tells one's own age: "i am 30 and have a
// dog", "i'm a forty year old vet", not "i have a goldfish who is 9".
func ownAge(ws []string) bool {
	return len(ws) > 2 && ws[0] == "i" && (ageVerbs.has(ws[1]) && (isNumber(ws[2]) || ws[2] == "a" || ws[2] == "an") || ws[1] == "turned")
}

// dislikes reports a fact that says one cannot bear a thing without a
// "not": "olives make me gag", "mornings are the worst".
func (f *fact) dislikes() bool {
	padded := " " + f.source + " "
	return slices.ContainsFunc(dislikePhrases, func(p string) bool { return strings.Contains(padded, p) })
}

var dislikePhrases = []string{" make me gag", " makes me gag", " make me sick", " makes me sick", " gross me out", " grosses me out",
	" are the worst", " is the worst", " disgust", " make me nauseous", " makes me nauseous"}

// pastWork reports a fact of work one did once, not now: "i retired
// from the fire department", "i flew helicopters in the army in my
// youth", "i used to be a cop".
func (f *fact) pastWork() bool {
	ws := f.words
	return slicesHasAny(ws, formerWords) || len(ws) > 1 && pastVerbs.has(ws[1])
}

var formerWords = newSet("retired retiring used was were youth former formerly ago")
