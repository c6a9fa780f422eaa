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
		if f.tellsAge() {
			return age(ws)
		}
	}
	return f.afterShared(q)
}

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
		if len(rest) == 0 || !beVerbs.has(rest[0]) && !strings.HasSuffix(w, "ing") {
			return "" // "a high school senior": what follows a noun is no answer
		}
		if beVerbs.has(rest[0]) {
			rest = rest[1:]
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
	at := slices.IndexFunc(ws, isNumber)
	for i := 1; i < len(ws); i++ {
		if isNumber(ws[i]) && ageVerbs.has(ws[i-1]) {
			at = i
			break
		}
	}
	if at < 0 {
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
	if asksOfYou(q) && !f.sharesWord(q) {
		// "where do you live?" right after "I'm a chef in Chicago": the
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

var youWords = newSet("you u your ur yours")

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
