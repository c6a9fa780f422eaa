package offline

import (
	"slices"
	"strings"
)

// Rewordings that say a phrase of an "i …" sentence in another shape
// people use for it, which parts the words the profile has in a row
// without a filler: a job with a compound ("a long haul trucker" → "a
// trucker, long haul"), a major ("i am majoring in biology" → "my major is
// biology"), a job at a place ("a pastor at a baptist church" → "baptist
// church, that's where I work as a pastor"), a fondness ("a weakness for
// fish and chips" → "fish & chips are my weakness"), a denial ("i don't
// care about fashion" → "fashion isn't something I care about") and how
// long ("i have been married to … for twenty years" → "I've been married
// for 20 years to …"), what one can do ("driving a tractor is something I
// can do"), "only" after its verb ("I eat only kosher") and what one used
// to do ("I was once a painter"). Like every paraphrase they are kept only
// when the router would not refuse them and they keep the whole fact.

// reshapes rewrites the rest of an "i …" sentence (rest follows "i" and
// its adverbs); nil when none of the shapes fits.
func reshapes(rest []string) []string {
	if len(rest) < 3 {
		return nil
	}
	v, obj := rest[0], rest[1:]
	var out []string
	switch {
	case v == "am" && obj[0] == "majoring" && obj[1] == "in" || v == "major" && obj[0] == "in":
		subject := strings.Join(obj[slices.Index(obj, "in")+1:], " ")
		out = append(out, "my major is "+subject, subject+" is my major")
	case v == "am" && (obj[0] == "a" || obj[0] == "an"):
		out = append(out, compoundJob(obj[1:])...)
		out = append(out, jobAtPlace(obj[1:])...)
	case v == "can" && len(obj) >= 3 && obj[0] == "not" && !stopwords.has(obj[1]) && !cantIdioms.has(obj[1]):
		// "i can not swim" → "swimming is something I can't do"
		out = append(out, gerund(obj[1])+" "+strings.Join(obj[2:], " ")+" is something I can't do")
	case v == "can" && len(obj) == 2 && obj[0] == "not" && !stopwords.has(obj[1]) && !cantIdioms.has(obj[1]):
		out = append(out, gerund(obj[1])+" is something I can't do")
	case v == "can" && len(obj) >= 2 && !stopwords.has(obj[0]) && !adverbs.has(obj[0]) && obj[0] != "not" && obj[0] != "be":
		// "i can drive a tractor" → "driving a tractor is something I can do"
		out = append(out, gerund(obj[0])+" "+strings.Join(obj[1:], " ")+" is something I can do")
	case v == "only" && len(obj) >= 2 && !stopwords.has(obj[0]) && !auxiliaries.has(obj[0]):
		// "i only eat kosher" → "I eat only kosher"
		out = append(out, "I "+obj[0]+" only "+strings.Join(obj[1:], " "))
	case v == "used" && obj[0] == "to" && len(obj) >= 3 && (obj[1] == "be" || !stopwords.has(obj[1])):
		// "i used to be a painter" → "I was once a painter"
		then := strings.Join(obj[2:], " ")
		if obj[1] == "be" {
			out = append(out, "I was once "+then, "back in the day I was "+then)
			if (obj[2] == "a" || obj[2] == "an") && jobHead(obj, 2) {
				// "a mail carrier for thirty years" → "mail carrier, that was my job for 30 years"
				np, tail := nounPhrase(obj[3:])
				out = append(out, strings.Join(np, " ")+", that was my job"+tail)
			}
		} else {
			out = append(out, "I once "+pastOf(obj[1])+" "+then, "back in the day I "+pastOf(obj[1])+" "+then)
		}
	case v == "do" && obj[0] == "not" && len(obj) >= 3:
		out = append(out, notSomething(obj[1], obj[2:])...)
	case haveVerbs.has(v) && obj[0] == "been" && len(obj) >= 4:
		out = append(out, durationFirst(obj[1:])...)
	case haveVerbs.has(v) && (obj[0] == "a" || obj[0] == "an") && len(obj) >= 4 && (obj[2] == "for" || obj[2] == "to") && !stopwords.has(obj[1]):
		// "a weakness for fish and chips" → "fish & chips are my weakness"
		what := obj[3:]
		if slices.ContainsFunc(what, func(w string) bool { return prepositionWords.has(w) || w == "that" || w == "who" }) {
			return nil // the phrase goes on: "an allergy to cats that…"
		}
		out = append(out, strings.Join(what, " ")+" "+beOf(what[len(what)-1])+" my "+obj[1])
	}
	return out
}

// cantIdioms say a feeling after "can't", not what one is unable to do:
// "i can't wait to move out".
var cantIdioms = newSet("wait stand believe help imagine")

// bindingAdjectives say a dimension or an age; before two nouns they go
// with the first, which they make a compound: "a long haul trucker", "a
// high school teacher", "a short order cook".
var bindingAdjectives = newSet("long short high low big small little old young")

// compoundJob says "<adjective> <noun> <noun>" (obj follows "i am a")
// with the last noun first and the compound after it: "a long haul
// trucker" → "I'm a trucker, long haul", "a small town girl" → "I'm a girl
// from a small town"; nil otherwise.
func compoundJob(obj []string) []string {
	np, tail := nounPhrase(obj)
	if len(np) != 3 || tail != "" || !bindingAdjectives.has(np[0]) || stopwords.has(np[1]) || adjective(np[1]) || stopwords.has(np[2]) {
		return nil
	}
	head, compound := np[2], np[0]+" "+np[1]
	switch {
	case schooling.has(head):
		return []string{"I'm " + articleFor(head) + " " + head + ", " + compound} // at school, not at work
	case occupation(head):
		return []string{"I'm " + articleFor(head) + " " + head + ", " + compound, "I work as " + articleFor(head) + " " + head + ", " + compound}
	case placeNouns.has(np[1]):
		return []string{"I'm " + articleFor(head) + " " + head + " from " + articleFor(compound) + " " + compound}
	}
	return nil
}

// jobAtPlace says "<job> at|in a|an|the <place>" (obj follows "i am a")
// with the place first: "a pastor at a baptist church" → "baptist church,
// that's where I work as a pastor"; nil otherwise.
func jobAtPlace(obj []string) []string {
	k := slices.IndexFunc(obj, func(w string) bool { return w == "at" || w == "in" })
	if k < 1 || k+2 >= len(obj) || !occupation(obj[k-1]) || !slices.Contains([]string{"a", "an", "the"}, obj[k+1]) {
		return nil
	}
	job, place := strings.Join(obj[:k], " "), obj[k+2:]
	if !placeNouns.has(place[len(place)-1]) && !places.has(place[len(place)-1]) ||
		slices.ContainsFunc(place, func(w string) bool { return stopwords.has(w) || determiners.has(w) }) {
		return nil
	}
	return []string{strings.Join(place, " ") + ", that's where I work as " + articleFor(job) + " " + job}
}

// durationFirst says "been <participle> <rest> for <number> <unit>" (obj
// follows "i have been") with how long after the participle: "married to
// my high school sweetheart for twenty years" → "I've been married for 20
// years to my high school sweetheart"; nil otherwise.
func durationFirst(obj []string) []string {
	n := len(obj)
	if n < 5 || obj[n-3] != "for" || !isNumber(obj[n-2]) && obj[n-2] != "a" && obj[n-2] != "many" || !timeWords.has(obj[n-1]) && !strings.HasPrefix(obj[n-1], "month") {
		return nil
	}
	part := obj[0]
	if !strings.HasSuffix(part, "ed") && !strings.HasSuffix(part, "ing") && !pastVerbs.has(part) ||
		!prepositionWords.has(obj[1]) && obj[1] != "to" {
		return nil // "traveling the world for years": never between a verb and its object
	}
	how := strings.Join(digitsIn(obj[n-3:]), " ")
	return []string{"I've been " + part + " " + how + " " + strings.Join(obj[1:n-3], " ")}
}

// personNouns are people one knows from somewhere: "my high school
// sweetheart", "my college roommate".
var personNouns = newSet("sweetheart friend friends buddy pal roommate roommates girlfriend boyfriend crush teacher coach")

// fromPlace says "my <place> <person>" in s as "my <person> from <place>":
// "my high school sweetheart" → "my sweetheart from high school", which
// parts the compound the profile has in a row; "" when s has none.
func fromPlace(s string) string {
	ws := strings.Fields(s)
	for i, w := range ws {
		if w != "my" {
			continue
		}
		for j := i + 2; j < len(ws) && j <= i+3; j++ {
			who := strings.ToLower(trimPunct(ws[j]))
			if !personNouns.has(who) || !placeNouns.has(strings.ToLower(ws[j-1])) {
				continue
			}
			where := ws[i+1 : j]
			if slices.ContainsFunc(where, func(w string) bool { return stopwords.has(w) || determiners.has(w) }) {
				break
			}
			out := slices.Concat(ws[:i+1], []string{ws[j], "from"}, where, ws[j+1:])
			// "from high school" keeps the punctuation its person had
			out[i+1] = strings.TrimRight(out[i+1], ",.!?:;")
			out[i+2+len(where)] += ws[j][len(trimPunct(ws[j])):]
			return strings.Join(out, " ")
		}
	}
	return ""
}

// notSomething says "i do not <verb> [particle] <thing>" with the thing
// first: "care about fashion" → "fashion isn't something I care about",
// "have a smartphone" → "no smartphone for me"; nil when what follows the
// verb is more than a thing.
func notSomething(verb string, obj []string) []string {
	particle := ""
	if prepositionWords.has(obj[0]) || obj[0] == "up" || obj[0] == "to" {
		particle, obj = " "+obj[0], obj[1:]
	}
	if len(obj) == 0 || len(obj) > 3 {
		return nil
	}
	if haveVerbs.has(verb) {
		if particle != "" || obj[0] != "a" && obj[0] != "an" && obj[0] != "any" || len(obj) < 2 {
			return nil
		}
		return []string{"no " + strings.Join(obj[1:], " ") + " for me", "I've got no " + strings.Join(obj[1:], " ")}
	}
	for i, w := range obj {
		if i == 0 && slices.Contains([]string{"a", "an", "the", "my"}, w) {
			continue // "my toys"
		}
		if stopwords.has(w) || determiners.has(w) || verbForm(w) || strings.HasSuffix(w, "ing") {
			return nil // "drink or do drugs", "any of them": not one thing
		}
	}
	be := "isn't"
	if plural(obj[len(obj)-1]) {
		be = "aren't"
	}
	return []string{strings.Join(obj, " ") + " " + be + " something I " + verb + particle}
}

// kindFirstNouns are the kinds a name may follow: "the movie frozen".
var kindFirstNouns = newSet("movie film game show book band song album series novel")

// nameFirst says "the <kind> <name>" that ends s as "<name>, the <kind>":
// "songs from the movie frozen" → "songs from frozen, the movie", which
// parts the kind from the name; "" when s has none.
func nameFirst(s string) string {
	ws := strings.Fields(s)
	for i := 0; i+2 < len(ws); i++ {
		if strings.ToLower(ws[i]) != "the" || !kindFirstNouns.has(strings.ToLower(ws[i+1])) {
			continue
		}
		name := ws[i+2:]
		if len(name) > 3 || slices.ContainsFunc(name, func(w string) bool {
			w = strings.ToLower(w)
			return stopwords.has(w) || determiners.has(w) || prepositionWords.has(w) || strings.ContainsAny(w, ",:")
		}) {
			return ""
		}
		return strings.Join(slices.Concat(ws[:i], name), " ") + ", the " + ws[i+1]
	}
	return ""
}

// ofTheWhole says "<adjective> <things> of the <whole>" in s as "the
// <whole>'s <adjective> <things>": "exploring new parts of the city" →
// "exploring the city's new parts"; "" when s has none.
func ofTheWhole(s string) string {
	ws := strings.Fields(s)
	for i := 1; i+2 < len(ws); i++ {
		if ws[i] != "of" || ws[i+1] != "the" {
			continue
		}
		whole := strings.ToLower(trimPunct(ws[i+2]))
		if stopwords.has(whole) || adjective(whole) || i+3 < len(ws) && !boundaries.has(strings.ToLower(ws[i+3])) && ws[i+2] == whole {
			return "" // "of the city" ends the phrase, never "of the city hall"
		}
		things := strings.ToLower(ws[i-1])
		if !plural(things) || stopwords.has(things) || determiners.has(things) {
			return ""
		}
		from := i - 1
		if from > 0 && adjective(strings.ToLower(ws[from-1])) {
			from-- // "new parts"
		}
		if from > 0 && determiners.has(strings.ToLower(ws[from-1])) {
			return "" // "the parts of the city": the article goes with the parts
		}
		out := slices.Concat(ws[:from], []string{"the", whole + "'s"}, ws[from:i])
		out[len(out)-1] += ws[i+2][len(whole):] // the punctuation after the whole
		return strings.Join(append(out, ws[i+3:]...), " ")
	}
	return ""
}

// whichAdjectives tell which of its kind a place is: "the local library".
var whichAdjectives = newSet("local nearby main")

// whichOne says "the <which> <noun phrase>" in s as "the <noun phrase>,
// the <which> one": "what I run is the local public library" → "what I
// run is the public library, the local one"; "" when s has none.
func whichOne(s string) string {
	ws := strings.Fields(s)
	for i := 0; i+2 < len(ws); i++ {
		if strings.ToLower(ws[i]) != "the" || !whichAdjectives.has(strings.ToLower(ws[i+1])) {
			continue
		}
		end := i + 2
		for end < len(ws) && end < i+4 && !boundaries.has(strings.ToLower(ws[end])) && !stopwords.has(strings.ToLower(ws[end])) &&
			!strings.ContainsAny(ws[end-1], ",:") {
			end++
		}
		if end < len(ws) && !boundaries.has(strings.ToLower(ws[end])) || end == i+2 {
			return "" // the phrase goes on past two words
		}
		np := slices.Clone(ws[i+2 : end])
		punct := np[len(np)-1][len(trimPunct(np[len(np)-1])):]
		np[len(np)-1] = trimPunct(np[len(np)-1])
		if punct == "" && end < len(ws) {
			punct = "," // "the animal shelter, the local one, on weekends"
		}
		out := slices.Concat(ws[:i], []string{"the"}, np, []string{", the " + ws[i+1] + " one" + punct})
		return strings.Replace(strings.Join(append(out, ws[end:]...), " "), " , ", ", ", 1)
	}
	return ""
}

// staysAtHome says "a [full time] stay at home <person>" in s as "a
// <person> who stays at home [full time]": the set phrase said as a
// clause, which keeps its words ("a stay home dad" drops one) without
// the profile's trigram; "" when s has none.
func staysAtHome(s string) string {
	ws := strings.Fields(s)
	for i := 0; i+4 < len(ws); i++ {
		if ws[i] != "a" {
			continue
		}
		j, how := i+1, ""
		if ws[j] == "full" || ws[j] == "part" {
			if ws[j+1] != "time" {
				continue
			}
			j, how = j+2, " "+ws[j]+" time"
		}
		if j+3 >= len(ws) || !equalFoldWords(ws[j:j+3], []string{"stay", "at", "home"}) {
			continue
		}
		who, rest := ws[j+3], ws[j+4:]
		if len(rest) > 1 && rest[0] == "of" {
			who, rest = strings.Join(ws[j+3:], " "), nil // "a mom of 3 boys who stays at home"
		}
		out := slices.Concat(ws[:i], []string{articleFor(who), trimPunct(who), "who stays at home" + how + who[len(trimPunct(who)):]}, rest)
		return strings.Join(out, " ")
	}
	return ""
}

// degreeWords say how much of a fan one is: "a die hard fan".
var degreeWords = newSet("diehard lifelong avid massive total loyal true")

// fanDegree is where the words of degree after the article of np ("a
// huge", "a die hard") end.
func fanDegree(np []string) int {
	k := 1
	for k < len(np) {
		switch {
		case np[k] == "die" && k+1 < len(np) && np[k+1] == "hard":
			k += 2
		case adjectives.has(np[k]) || degreeWords.has(np[k]):
			k++
		default:
			return k
		}
	}
	return k
}

// fanBefore says "a [huge] fan of <thing>" (obj follows "i am") with the
// thing before "fan", as chat says it: "a big fan of agatha christie" →
// "I'm a huge agatha christie fan"; nil when the thing is more than a
// few words of its own.
func fanBefore(obj []string) []string {
	k := fanDegree(obj)
	if k+2 >= len(obj) || !fanWords.has(obj[k]) || obj[k+1] != "of" {
		return nil
	}
	thing := obj[k+2:]
	if thing[0] == "the" {
		thing = thing[1:]
	}
	name := len(thing) > 1 && slices.Contains(knownNames.in(" "+strings.Join(thing, " ")+" "), strings.Join(thing, " "))
	if len(thing) == 0 || len(thing) > 3 || !name && slices.ContainsFunc(thing, func(w string) bool {
		return stopwords.has(w) || determiners.has(w) || strings.HasSuffix(w, "ing")
	}) {
		return nil // "a fan of reading books", "a fan of all things disney"
	}
	lead := strings.Join(obj[1:k], " ")
	if lead == "" {
		return []string{"I'm " + articleFor(thing[0]) + " " + strings.Join(thing, " ") + " " + obj[k]}
	}
	return []string{"I'm " + articleFor(lead) + " " + lead + " " + strings.Join(thing, " ") + " " + obj[k]}
}

// allIEver says "<x> is all i <verb> …" as "all I ever <verb> … is <x>":
// "reggae is all i listen to" → "all I ever listen to is reggae"; ""
// when s is not so.
func allIEver(s string) string {
	before, after, ok := strings.Cut(s, " is all i ")
	if !ok || before == "" || after == "" || strings.Contains(before, " i ") {
		return ""
	}
	return "all I ever " + after + " is " + before
}

// nameIs says "my <pet> is called <name>" as "<name> is my <pet>'s
// name": "our labrador is called chorizo" → "chorizo is our labrador's
// name"; "" when s is not so.
func nameIs(s string) string {
	ws := strings.Fields(s)
	if len(ws) < 5 || !possessives.has(strings.ToLower(ws[0])) || ws[len(ws)-3] != "is" || !nameWords.has(ws[len(ws)-2]) {
		return ""
	}
	return ws[len(ws)-1] + " is " + strings.Join(ws[:len(ws)-3], " ") + "'s name"
}

// placeOwnsPart says "the <part> of <place>" in s as "<place>'s <part>":
// "the south side of chicago" → "chicago's south side", which parts the
// phrase the profile has in a row; "" when s has none.
func placeOwnsPart(s string) string {
	ws := strings.Fields(s)
	for i := 2; i+1 < len(ws); i++ {
		if ws[i] != "of" {
			continue
		}
		from := i - 1
		for from > 0 && !stopwords.has(strings.ToLower(ws[from])) && !determiners.has(strings.ToLower(ws[from])) {
			from--
		}
		if strings.ToLower(ws[from]) != "the" || from == i-1 {
			continue
		}
		end := 0 // the longest run after "of" the gazetteer names a place
		for j := i + 2; j <= len(ws) && j <= i+4; j++ {
			name := strings.ToLower(trimPunct(strings.Join(ws[i+1:j], " ")))
			if slices.Contains(placeNames.in(" "+name+" "), name) {
				end = j
			}
			if ws[j-1] != trimPunct(ws[j-1]) {
				break // the phrase ends at its punctuation
			}
		}
		if end == 0 {
			continue
		}
		place := slices.Clone(ws[i+1 : end])
		last := place[len(place)-1]
		punct := last[len(trimPunct(last)):]
		place[len(place)-1] = trimPunct(last) + "'s"
		part := slices.Clone(ws[from+1 : i])
		part[len(part)-1] += punct
		return strings.Join(slices.Concat(ws[:from], place, part, ws[end:]), " ")
	}
	return ""
}
