package offline

import (
	"slices"
	"strings"
)

// Rewrites that move a noun phrase of a profile sentence to the front and
// leave a pronoun in its place, which parts it from the words it stood
// between: "i take dance lessons once a week" → "dance lessons: I take
// them once a week", "i am a convenience store manager" → "I'm a manager —
// convenience store, in fact", "my wife spends all my money" → "my wife?
// she spends all my money". Like every paraphrase they are kept only when
// the router would not refuse them and they keep the whole fact.

// personVerbs take a person as object: "i met taylor swift" is never
// "taylor swift: I met it".
var personVerbs = newSet(`met meet know knew married marry date dated visit visited miss missed
follow followed admire admired idolize call called help helped raise raised adopt adopted
babysit care`)

// people are persons named by no kinship: never "it".
var people = newSet("sweetheart fiance fiancee partner friend friends boss neighbor neighbour roommate coach man woman guy girl boy")

// timeWords say when, not what: never part of a noun phrase put first.
var timeWords = newSet(`yesterday today tomorrow tonight recently lately years year yrs old months days weeks ago daily weekly`)

// objectVerbs are light verbs that still take a thing: "i take dance lessons".
var objectVerbs = newSet("take make give see go went")

// lastAdverbs may end a sentence: "I shop for them often".
var lastAdverbs = newSet("often recently currently sometimes occasionally regularly daily weekly professionally")

// objectFirst rewrites the rest of "i [adverbs] <verb> [to] <noun phrase>
// [tail]" with the noun phrase first and a pronoun after the verb; nil
// when the sentence has no such shape.
func objectFirst(rest []string) []string {
	return objectFirstBy("I", rest)
}

// objectFirstBy is objectFirst with another subject than "I": "my father
// played violin professionally" → "violin: my father played it
// professionally".
func objectFirstBy(subject string, rest []string) []string {
	var advs []string
	for len(rest) > 2 && adverbs.has(rest[0]) {
		if rest[0] == "never" {
			return nil // a negation stays where it reads
		}
		advs, rest = append(advs, rest[0]), rest[1:]
	}
	if len(rest) < 3 {
		return nil
	}
	v, obj := rest[0], rest[1:]
	if (v == "am" || v == "was") && len(obj) >= 3 && !stopwords.has(obj[0]) && !determiners.has(obj[0]) &&
		!adverbs.has(obj[0]) && (slices.Contains([]string{"to", "with", "of", "by", "about"}, obj[1]) || obj[1] == "in" && adjective(obj[0])) &&
		(obj[1] != "to" || determiners.has(obj[2])) { // never "i was forced to marry"
		// "i am married to a doctor" → "a doctor: I'm married to one"
		v, obj = v+" "+obj[0]+" "+obj[1], obj[2:]
		if strings.HasPrefix(v, "am ") {
			v = "'m " + strings.TrimPrefix(v, "am ")
		}
	} else if stopwords.has(v) && !objectVerbs.has(v) || auxiliaries.has(v) || likeVerbs.has(v) || dislikeVerbs.has(v) || haveVerbs.has(v) ||
		personVerbs.has(v) || intransitives.has(v) || v == "used" || v == "need" || v == "needs" || v == "try" || v == "tries" || v == "tried" || v == "am" || v == "is" || v == "are" || v == "was" || strings.HasSuffix(v, "ing") {
		return nil
	}
	particle := ""
	if obj[0] == "to" || obj[0] == "about" || obj[0] == "for" {
		particle, obj = " "+obj[0], obj[1:] // "listen to", "care about", "shop for"
	} else if v == "go" || v == "goes" || v == "went" {
		return nil // "i go bass fishing": an activity, never "I go it"
	}
	if len(obj) < 2 && (len(obj) < 1 || determiners.has(obj[0])) {
		return nil
	}
	det := ""
	if determiners.has(obj[0]) {
		if !slices.Contains([]string{"a", "an", "the", "my", "our", "this"}, obj[0]) {
			return nil // "every", "no", "some": not a thing to point back to
		}
		det, obj = obj[0], obj[1:]
	}
	np, tail := thingPhrase(obj)
	for i, w := range np {
		if w == "and" && i > 0 {
			continue // "shoes and watches"
		}
		if stopwords.has(w) || determiners.has(w) || adverbs.has(w) || timeWords.has(w) || isNumber(w) || w == "i" || w == "me" ||
			strings.HasSuffix(w, "ly") && det == "" {
			return nil // "a lot", "design the game", "18 years old yesterday": not one thing
		}
	}
	if tw := strings.Fields(tail); len(tw) > 0 && (tw[0] == "of" || tw[0] == "and" || tw[0] == "or" || tw[0] == "than" || tw[0] == "like" || tw[0] == "that" || tw[0] == "who") {
		return nil // the noun phrase goes on: "the sight of blood"
	}
	if _, kin := kinPronouns[np[len(np)-1]]; kin || np[len(np)-1] == "child" || np[len(np)-1] == "baby" {
		return nil // a person is never "it"
	}
	if strings.HasSuffix(np[0], "ing") && !slices.Contains(knownNames.in(" "+strings.Join(np, " ")+" "), strings.Join(np, " ")) ||
		len(np) == 1 && adjectives.has(np[0]) {
		return nil // "i started playing guitar": an activity, not a thing
	}
	pron := "it"
	switch {
	case det == "a" || det == "an":
		pron = "one"
	case plural(np[len(np)-1]) || slices.Contains(np, "and"):
		pron = "them"
	case languageWord(np[0]):
		// "i am fluent in english spanish and french" → "english, spanish and french: …"
		for i := 0; i+2 < len(np) && np[i+1] != "and"; i++ {
			np[i] += ","
		}
		pron = "them"
	}
	if pron == "it" && (people.has(np[len(np)-1]) || occupation(np[len(np)-1])) {
		return nil // "my sweetheart": a person is never "it"
	}
	front := strings.Join(np, " ")
	if det != "" {
		front = det + " " + front
	}
	// The adverb goes last, away from the verb: "i often shop for shoes" →
	// "shoes: I shop for them often".
	if len(advs) == 1 && tail == "" && lastAdverbs.has(advs[0]) {
		tail = " " + strings.Join(advs, " ")
	}
	adv := ""
	if len(advs) > 0 && tail != " "+strings.Join(advs, " ") {
		adv = strings.Join(advs, " ") + " "
	}
	if (v == "go" || v == "went") && particle == " to" {
		particle, pron = "", "there" // "the gym: I go there regularly"
	}
	if subject != "I" && strings.HasPrefix(v, "'m ") {
		return nil // "am" goes with "I" only
	}
	says := []string{front + ": " + subject + " " + adv + strings.TrimPrefix(v, "'m ") + particle + " " + pron + tail}
	if strings.HasPrefix(v, "'m ") && adv == "" {
		says = []string{front + ": I" + v + " " + pron + tail}
	}
	// "this country: I …" repeats the profile's trigram across sentences
	// when one ends in "this country" and the next starts with "i".
	says = append(says, strings.Replace(says[0], ": "+subject, ": as it happens, "+subject, 1))
	if det == "a" || det == "an" || det == "the" && len(np) > 1 {
		// "watch dealer: I work for one": the article would repeat "a
		// watch dealer"; "rolling stones: I see them in concert"
		says = append(says, strings.TrimPrefix(says[0], det+" "))
	}
	return says
}

// thingPhrase splits ws at the end of its first noun phrase: the phrase
// and the rest, which is returned with a leading space. Two plurals joined
// by "and" are one phrase ("shoes and watches"); an adverb or a word of
// how often ends it ("dance lessons once a week").
func thingPhrase(ws []string) ([]string, string) {
	for i, w := range ws {
		if i == 0 {
			continue
		}
		if w == "and" && i+2 == len(ws) && (plural(ws[i-1]) && plural(ws[i+1]) || languageWord(ws[i-1]) && languageWord(ws[i+1])) {
			continue // "shoes and watches", "english spanish and french"
		}
		if boundaries.has(w) || adverbs.has(w) || lastAdverbs.has(w) || slices.Contains([]string{"once", "twice", "every", "each", "to", "for", "of", "who", "that", "named", "due"}, w) {
			return ws[:i], " " + strings.Join(ws[i:], " ")
		}
	}
	return ws, ""
}

// languageWord reports the name of a language: "english".
func languageWord(w string) bool {
	return intentWords[w]&catLanguage != 0 && w != "language" && w != "languages" && w != "speak" && w != "speaks" && w != "fluent"
}

// compoundNoun rewrites the rest of "i am a <w1> <w2> <noun> [tail]" (a
// noun after two nouns that name its kind) with the noun first: "a museum
// tour guide" → "I'm a guide — museum tour, in fact"; nil otherwise.
func compoundNoun(obj []string) []string {
	if len(obj) < 4 || obj[0] != "a" && obj[0] != "an" {
		return nil
	}
	np, tail := nounPhrase(obj[1:])
	if len(np) != 3 {
		return nil
	}
	for _, w := range np {
		if stopwords.has(w) || isNumber(w) || adjectives.has(w) {
			return nil
		}
	}
	if adjective(np[0]) && !places.has(np[1]) {
		return nil // "a retired gym teacher": amSays says it
	}
	head := np[2]
	if strings.HasSuffix(head, "ing") || strings.HasSuffix(head, "ed") {
		return nil // "a college student majoring in history": a verb ends the noun
	}
	return []string{"I'm " + articleFor(head) + " " + head + " — " + np[0] + " " + np[1] + ", in fact" + tail}
}

// kinPronouns are the pronouns of family and partners: "my wife? she …".
var kinPronouns = map[string]string{
	"wife": "she", "mom": "she", "mother": "she", "mum": "she", "sister": "she", "aunt": "she", "grandmother": "she",
	"grandma": "she", "girlfriend": "she", "daughter": "she", "husband": "he", "dad": "he", "father": "he",
	"brother": "he", "uncle": "he", "grandfather": "he", "grandpa": "he", "boyfriend": "he", "son": "he",
	"parents": "they", "kids": "they", "children": "they", "sisters": "they", "brothers": "they", "grandparents": "they",
}

// kinFirst rewrites the rest of "my <kin> <verb> …" (not "is" or "are",
// which possessive says) with a pronoun after the person: "my father
// played violin professionally" → "my father? he played violin
// professionally"; nil otherwise.
func kinFirst(rest []string) []string {
	if len(rest) < 3 {
		return nil
	}
	pron, ok := kinPronouns[rest[0]]
	v := rest[1]
	if !ok || stopwords.has(v) || slices.Contains([]string{"is", "are", "was", "were", "and", "has", "have"}, v) {
		return nil
	}
	who := rest[0] // another word for the person, so that "my <who> <verb>" is not the profile's
	if swaps[who] != "" {
		who = swaps[who]
	}
	// A sentence goes on after "?" with a capital: "my wife? She …".
	pron = strings.ToUpper(pron[:1]) + pron[1:]
	if namedAfter(append([]string{"my"}, rest...), 2) {
		// "my son leo just started university" → "leo, my son? He just started university"
		return []string{rest[1] + ", my " + rest[0] + "? " + pron + " " + strings.Join(rest[2:], " ")}
	}
	return append([]string{"my " + rest[0] + "? " + pron + " " + strings.Join(rest[1:], " ")}, objectFirstBy("my "+who, rest[1:])...)
}

// placeNouns name a place one lives, works or grew up in.
var placeNouns = newSet(`farm city town country village house apartment home beach park lake island
college university army navy military ranch forest suburbs coast mountains countryside neighborhood
state area community camp prison hospital school store shop restaurant bank office factory bar
library museum station center centre mall hotel clinic kitchen garage salon gym church field`)

// placeFirst rewrites "i <words> at|in|on a|an|the <place>" with the place
// first, without its article: "i was raised on a horse farm" → "horse
// farm, that's where I was raised"; nil otherwise.
func placeFirst(ws []string) []string {
	n := len(ws)
	for k := n - 3; k >= 2; k-- {
		if ws[k] != "at" && ws[k] != "in" && ws[k] != "on" {
			continue
		}
		np, verb := ws[k+1:], ws[1:k] // "in high school"
		if ws[k+1] == "a" || ws[k+1] == "an" || ws[k+1] == "the" {
			np = ws[k+2:]
		}
		if !placeNouns.has(np[len(np)-1]) || len(verb) > 3 || slices.ContainsFunc(verb, determiners.has) {
			return nil // "i am looking for a job at a restaurant": more than where one is
		}
		for _, w := range np {
			if stopwords.has(w) || determiners.has(w) {
				return nil
			}
		}
		if len(verb) > 1 && (verb[0] == "am" || verb[0] == "was") {
			// "i am currently in high school" → "… where I currently am", never "where I'm"
			verb = append(slices.Clone(verb[1:]), verb[0])
		}
		return []string{strings.Join(np, " ") + ", that's where I " + strings.Join(verb, " ")}
	}
	return nil
}

// placeOf takes a place's "of" into its noun phrase np: "the vineyards of
// mendoza, that's where I pick grapes", never "the vineyards, that's
// where I pick grapes of mendoza".
func placeOf(np []string, tail string) ([]string, string) {
	rest, ok := strings.CutPrefix(tail, " of ")
	if !ok {
		return np, tail
	}
	more, after := nounPhrase(strings.Fields(rest))
	if i := slices.IndexFunc(more, func(w string) bool { return len(w) > 4 && strings.HasSuffix(w, "ing") }); i > 0 {
		more, after = more[:i], " "+strings.Join(more[i:], " ")+after // "of university studying history"
	}
	if after != "" && timeNoun(np[len(np)-1]) {
		return np, tail // "my first year of university studying history": too long a phrase to say whole
	}
	return slices.Concat(np, []string{"of"}, more), after
}

// adjectiveOne says "a <adjective> <noun>" that ends a sentence or a
// phrase as "a <noun>, a <adjective> one": "I've never had a steady
// relationship" → "I've never had a relationship, a steady one"; "" when s
// has none.
func adjectiveOne(s string) string {
	ws := strings.Fields(s)
	if slices.ContainsFunc(tokens(s), negations.has) {
		return "" // "not a good swimmer" is not "not a swimmer"
	}
	for i := 0; i+2 < len(ws); i++ {
		det, adj, noun := strings.ToLower(ws[i]), strings.ToLower(ws[i+1]), strings.ToLower(ws[i+2])
		if det != "a" && det != "an" || !adjectives.has(adj) || stopwords.has(noun) || adjective(noun) || occupation(noun) {
			continue
		}
		end := i + 3
		if end < len(ws) && !boundaries.has(strings.ToLower(ws[end])) {
			// a compound of two nouns: "a red pickup truck" → "a pickup
			// truck, a red one"
			second := strings.ToLower(ws[end])
			if stopwords.has(second) || adjective(second) || occupation(second) || strings.HasSuffix(second, "ed") || strings.HasSuffix(second, "ing") ||
				kindWords.has(adj) || bindingAdjectives.has(adj) || strings.ContainsAny(ws[end-1], ",:") {
				continue // the noun phrase goes on: "a black lab named…"; a compound: "a small town girl"
			}
			noun += " " + second
			end++
			if end < len(ws) && !boundaries.has(strings.ToLower(ws[end])) {
				continue
			}
		}
		out := slices.Concat(ws[:i], []string{articleFor(noun), noun + ",", det, adj, "one"})
		if end < len(ws) {
			out[len(out)-1] += ","
		}
		return strings.Join(append(out, ws[end:]...), " ")
	}
	return ""
}

// livesWithMe rewrites "<who> live(s) with me" with the bot as the subject:
// "two dogs live with me" → "I live with two dogs"; nil otherwise.
func livesWithMe(ws []string) []string {
	n := len(ws)
	if n < 4 || ws[n-1] != "me" || ws[n-2] != "with" || ws[n-3] != "live" && ws[n-3] != "lives" {
		return nil
	}
	return []string{"I live with " + strings.Join(ws[:n-3], " "), "at home it's me & " + strings.Join(ws[:n-3], " ")}
}

// clauseStarts open a phrase that says when or why, which may stand first
// in the sentence: "since the surgery, I've had strange powers".
var clauseStarts = newSet("when since because while after before during every next last")

// tailFirst says "i <words> <when or why …>" with the phrase of when or
// why first: "i started playing guitar when i was three" → "when I was
// three, I started playing guitar", which parts the two where they met;
// nil when the sentence has no such phrase after three words.
func tailFirst(ws []string) []string {
	for k := 3; k+1 < len(ws); k++ {
		if !clauseStarts.has(ws[k]) || (ws[k] == "next" || ws[k] == "last" || ws[k] == "every") && !timeNoun(ws[k+1]) {
			continue
		}
		if danglers.has(ws[k-1]) || danglers.has(ws[len(ws)-1]) {
			return nil
		}
		return []string{strings.Join(ws[k:], " ") + ", " + strings.Join(ws[:k], " ")}
	}
	return nil
}

// timeNoun reports a word of time after "next", "last" or "every": "next
// year", "every sunday".
func timeNoun(w string) bool {
	return timeWords.has(w) || habitual(w) || strings.HasSuffix(w, "day") || w == "month" || w == "night" || w == "time"
}
