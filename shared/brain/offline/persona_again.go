package offline

import (
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
	ws := f.words
	switch {
	case asksName(q) && f.tellsName():
		return titleWords(givenNames(ws))
	case saysWord(q, "where"):
		if p := origin(q, f.source); p != "" {
			return titleWords(p) // "where are you originally from?" after "i moved to berlin from toronto"
		}
		if p := firstPlace(f.source); p != "" {
			return p
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
	case saysWord(q, "who") && saysWord(q, "with") || saysWord(q, "alone"):
		return company(ws)
	case saysWord(q, "when") || saysWord(q, "whens"):
		return when(ws)
	case saysWord(q, "color") || saysWord(q, "colour"):
		if i := slices.IndexFunc(ws, colours.has); i >= 0 {
			if i > 0 && !stopwords.has(ws[i-1]) && !determiners.has(ws[i-1]) {
				return ws[i-1] + " " + ws[i] // "forest green"
			}
			return ws[i] // "what color is it?" after "i ride a red motorcycle"
		}
	}
	if m := modified(q, ws); m != "" {
		return m
	}
	if k := kindPart(q, ws); k != "" && f.intents()&catJob == 0 { // not "horses" of "a vet who works with horses"
		return k
	}
	return f.afterShared(q)
}

// firstPlace returns the first place sentence s names, as chat writes
// it ("Rio de Janeiro"), or "".
func firstPlace(s string) string {
	if ps := placesIn(" " + s + " "); len(ps) > 0 {
		return titleWords(strings.ReplaceAll(ps[0], "_", " "))
	}
	return ""
}

// origin returns the place sentence s says one comes from, "toronto" of
// "i moved to berlin from toronto", when q asks where one is from; "".
func origin(q *text, s string) string {
	if !saysWord(q, "from") && !saysWord(q, "originally") && !saysWord(q, "grow") && !saysWord(q, "born") && !saysWord(q, "raised") {
		return ""
	}
	padded := " " + s + " "
	for _, p := range placeNames.in(padded) {
		if strings.Contains(padded, " from "+p+" ") {
			return p
		}
	}
	return ""
}

// asksBeyond reports a follow-up that asks for what fact f does not tell:
// why, how long, how old or when when it has no such part (againPart; not how
// many: "i speak polish and german" answers that), what kind of a thing it
// names without its kind ("what kind of cars do you work on?" after "i
// fix cars").
func (f *fact) asksBeyond(q *text) bool {
	switch {
	case saysWord(q, "why"):
		return true
	case saysWord(q, "how") && (saysWord(q, "long") || saysWord(q, "old")) || saysWord(q, "when"):
		return f.againPart(q) == ""
	}
	return slices.ContainsFunc(q.words, func(w word) bool { return whatKind.has(w.low) }) && f.sharesWord(q)
}

// whatKind ask what kind of a thing something is.
var whatKind = newSet("kind kinds sort type types")

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

// bareFollowUp reports a short question that names no one and asks
// about a part of what was just said: "what subject?", "which ones?",
// "where at?", "how often?", "is it serious?"; not what a thing is ("what
// is love?", "who are the steelers?"), nor "what about now?", nor "how
// many?", which follows up only a fact that counts (followsUp).
func bareFollowUp(q *text) bool {
	ws := q.words
	for len(ws) > 1 && fillers.has(ws[0].low) {
		ws = ws[1:] // "oh nice, where at?"
	}
	n := len(ws)
	if n == 1 && (ws[0].low == "where" || ws[0].low == "when") {
		return true // "where?", "when?"
	}
	if !q.qmark && !asksUnmarked(q) || n < 2 || n > 4 {
		return false
	}
	first, second := chatSpelling(ws[0].low), ws[1]
	switch {
	case first == "what" || first == "which":
		return n <= 3 && (whatKind.has(second.low) || second.content && !verbish(second.low) && second.low != "about" && second.low != "else" && second.low != "one")
	case first == "where":
		return n == 2 && (second.low == "at" || second.low == "exactly" || second.low == "abouts" || second.low == "to") ||
			n == 3 && (second.low == "is" || second.low == "was") && (ws[2].low == "that" || ws[2].low == "it") // "where is that?"
	case first == "where's" || first == "wheres":
		return n == 2 && (second.low == "that" || second.low == "it")
	case first == "how":
		return n == 2 && second.low == "often"
	}
	return auxWords.has(first) && (second.low == "it" || second.low == "they")
}

// partAsks are the words a question asks for a part of a fact with.
var partAsks = newSet("how many long old age breed kind name names called color colour done")

// afterShared returns what fact f says after the word a "what…?" question
// shares with it: "biology" of "i am a student studying biology" for
// "what are you studying?", "forest green" of "my favorite color is forest
// green" for "what's your fav color?"; "" when nothing or more than a
// short phrase follows.
func (f *fact) afterShared(q *text) string {
	if len(q.words) == 0 || q.words[0].low != "what" && q.words[0].low != "what's" && q.words[0].low != "which" {
		return ""
	}
	ws := f.words
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

// againLeads answer q with part of fact f the bot has just told, or with
// the fact again (say, as a sentence) when no part answers alone.
func againLeads(f *fact, q *text, say string, yesNo bool, refuses func(string) bool, seed uint64) []string {
	part := f.againPart(q)
	if part == "" && yesNo && questionVerb(q) != "like" {
		// "are you in school?" right after "I'm a junior in high school":
		// "Yep, high school, like I said!"
		part = sharedPhrase(q, f.words)
		if refuses(part) {
			_, part, _ = strings.Cut(part, " ")
		}
		if part == "" && questionIntents(q)&catPlace != 0 {
			part = firstPlace(f.source) // "do you live in a city?": "Yep, Tokyo, like I said!"
		}
	}
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
	if yesNo && f.confirms(q) {
		// "do you play an instrument?" right after "I play bass on
		// weekends": the yes, and the fact that says it again.
		return prefixed(leads, say, seed)
	}
	if !yesNo && !f.asksBeyond(q) || (asksOfYou(q) || asksOfThird(q)) && !f.sharesWord(q) {
		// "where do you live?" right after "I'm a chef in Chicago", "what
		// does he do?" right after "My husband is a firefighter", "what
		// subject?" right after "I teach chemistry": the question asks
		// for the fact again. A yes or no on its words ("do you like
		// chicago?") or what it does not tell ("how long have you
		// played?") gets the pointer alone.
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

// sharedPhrase returns the noun phrase of sentence ws, of at most three
// words, around the first word a yes-or-no question shares with it:
// "high school" of "i am sixteen and a junior in high school" for "are
// you in school?", "our kids" of "i stay home with our kids" for "do you
// have kids?"; "" when the shared word is no noun's (a verb after "i").
func sharedPhrase(q *text, ws []string) string {
	at := slices.IndexFunc(ws, func(w string) bool {
		return !stopwords.has(w) && slices.ContainsFunc(q.words, func(x word) bool { return slices.Contains(sharedStems(x), stem(w)) })
	})
	if at <= 0 || pronouns.has(ws[at-1]) || ws[at-1] == "to" || at+1 < len(ws) && objectPronouns.has(ws[at+1]) {
		return "" // "i live…", "to swim", "scare me"
	}
	from, to := at, at+1
	for from > 0 && to-from < 3 && (possessives.has(ws[from-1]) || ws[from-1] == "the" || !stopwords.has(ws[from-1]) && !pronouns.has(ws[max(from-2, 0)])) {
		from--
		if possessives.has(ws[from]) || ws[from] == "the" {
			break
		}
	}
	for to < len(ws) && to-from < 3 && !stopwords.has(ws[to]) && !boundaries.has(ws[to]) && !verbish(ws[to]) {
		to++
	}
	if from == 0 || to-from == len(ws) {
		return ""
	}
	return strings.Join(ws[from:to], " ")
}
