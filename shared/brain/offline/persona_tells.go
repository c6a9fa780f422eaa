package offline

import "strings"

// What a fact tells beyond its intents, for ranking the facts that answer
// a question (answers): where one comes from, one's people, whose it is,
// a trade named, a language named, a place named.

// tellsOrigin reports a fact that tells where one comes from and not
// where one lives: "i am from scotland originally".
func (f *fact) tellsOrigin() bool {
	padded := " " + f.source + " "
	if f.verb == "live" {
		return false
	}
	for _, mark := range []string{" from ", " originally ", " grew up ", " born ", " raised ", " whole life "} {
		if strings.Contains(padded, mark) {
			return true
		}
	}
	return false
}

// onlyPeople reports a fact that tells one's people and no place: "i am
// korean american".
func (f *fact) onlyPeople() bool {
	ws := strings.Fields(f.source)
	return len(ws) > 2 && ws[1] == "am" && peoples.has(ws[2]) && !slicesHasAny(ws, afterLive)
}

// subjectKin is the kind of relative a "my …" fact is about, as a bit of
// kinOf: "my parents are divorced" is about parents.
func (f *fact) subjectKin() int {
	for _, w := range strings.Fields(f.source)[1:] {
		if n := kin[w]; n > 0 {
			return 1 << n
		}
	}
	return 0
}

// namesOccupation reports a fact that names what one is by trade: "i am
// a tattoo artist", "i am a welder".
func (f *fact) namesOccupation() bool {
	for w := range strings.FieldsSeq(f.source) {
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
	for w := range strings.FieldsSeq(f.source) {
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
