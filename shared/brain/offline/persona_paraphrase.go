package offline

import (
	"slices"
	"strings"
)

// Verbs by what a sentence with them says.
var (
	likeVerbs    = newSet("like love enjoy adore")
	dislikeVerbs = newSet("hate dislike detest")
	haveVerbs    = newSet("have has had own")
	auxiliaries  = newSet("have has had can could will would am was do did")
	adverbs      = newSet(`really also just still always never usually often sometimes
currently actually recently once mostly totally definitely now`)
)

// firstPerson rewrites the rest of an "i …" sentence (rest follows "i")
// into first-person paraphrases. It adds what it learns to cats.
func (p *profile) firstPerson(rest []string, cats *category) (says []string, neg bool) {
	var adv string
	for len(rest) > 2 && adverbs.has(rest[0]) {
		adv, rest = rest[0], rest[1:]
	}
	if len(rest) > 2 && rest[0] == "do" && likeVerbs.has(rest[1]) {
		rest = rest[1:] // "i do like…"
	}
	v, obj := rest[0], rest[1:]
	if v == "can" && len(obj) > 2 && obj[0] == "not" && obj[1] == "stand" {
		v, obj = "hate", obj[2:] // "i can not stand the cold"
	}
	objS := strings.Join(obj, " ")
	switch {
	case v == "do" && len(obj) >= 2 && obj[0] == "not" && likeVerbs.has(obj[1]):
		neg, obj = true, obj[2:]
		if len(obj) > 0 && obj[0] == "to" && len(obj) > 1 {
			obj = append([]string{gerund(obj[1])}, obj[2:]...)
		}
		o := strings.Join(obj, " ")
		return []string{"I can't stand " + o, "I'm not a fan of " + o, "honestly, " + o + " is not my thing"}, true
	case (v == "did" || v == "have") && len(obj) >= 2 && obj[0] == "not":
		neg = true // "i did not graduate", "i have not spoken"
		if v == "did" {
			// "i did not graduate high school" → "I never graduated high school"
			return []string{strings.TrimSpace("I never " + pastOf(obj[1]) + " " + strings.Join(obj[2:], " "))}, true
		}
		return []string{strings.TrimSpace("I've never " + strings.Join(obj[1:], " "))}, true
	case v == "do" && len(obj) >= 2 && obj[0] == "not":
		neg = true
		o := strings.Join(obj[2:], " ")
		return []string{strings.TrimSpace("I don't really " + obj[1] + " " + o)}, true
	case dislikeVerbs.has(v):
		*cats |= catHobby
		// The last, for "i can't stand cilantro": its own words, moved.
		return []string{"I can't stand " + objS, "I'm not a fan of " + objS, "honestly, " + objS + " is not my thing",
			objS + " " + beOf(obj[len(obj)-1]) + " one thing I really can't stand"}, true
	case likeVerbs.has(v):
		*cats |= catHobby
		if len(obj) >= 2 && obj[0] == "to" {
			act := gerund(obj[1]) + " " + strings.Join(obj[2:], " ")
			act = strings.TrimSpace(act)
			return append([]string{"I'm really into " + act, act + " is one of my favourite things to do", "I spend a lot of my free time " + act},
				activityFirst(gerund(obj[1]), obj[2:])...), false
		}
		be := "is"
		if plural(obj[len(obj)-1]) && !strings.HasSuffix(obj[0], "ing") {
			be = "are" // "cats are…", but "baking bread on sundays is…"
		}
		says := []string{"I'm a big fan of " + objS, "I'm really into " + objS, objS + " " + be + " one of my favourite things"}
		if len(obj) >= 3 && strings.HasSuffix(obj[0], "ing") {
			says = append(says, activityFirst(obj[0], obj[1:])...)
		}
		return says, false
	case v == "am" || v == "was":
		if len(obj) > 2 && (obj[0] == "also" || obj[0] == "currently" || obj[0] == "now" || obj[0] == "still") {
			adv, obj = obj[0], obj[1:] // "i am also a graduate student": the adverb is light
		}
		return amSays(v, obj, adv, cats), false
	case v == "work" || v == "works":
		*cats |= catJob
		if len(obj) >= 3 && obj[0] == "as" {
			job := strings.Join(obj[1:], " ")
			bare := job // the job without its article: "school teacher, that's my job"
			if obj[1] == "a" || obj[1] == "an" {
				bare = strings.Join(obj[2:], " ")
			}
			return []string{"I'm " + job + " by trade", "as for my job, I'm " + job, "for a living, I'm " + job, bare + ", that's my job", "my job: " + bare}, false
		}
		if len(obj) >= 2 && prepositionWords.has(obj[0]) {
			where := strings.Join(obj, " ")
			return []string{"my job is " + where, "for a living, I work " + where, "I've got a job " + where}, false
		}
	case v == "live" || v == "lived":
		*cats |= catPlace
		if len(obj) >= 2 && obj[0] == "in" {
			where := strings.Join(obj[1:], " ")
			if v == "live" {
				return []string{"home for me is " + where, "I'm based in " + where, "I live out in " + where}, false
			}
			return []string{"I used to live in " + where, "I spent some years in " + where}, false
		}
	case haveVerbs.has(v):
		if len(obj) >= 1 && (obj[0] == "been" || obj[0] == "not" || obj[0] == "never" || strings.HasSuffix(obj[0], "ed") || pastVerbs.has(obj[0]) || participles.has(obj[0]) || obj[0] == "to") {
			break
		}
		if v == "had" {
			return []string{"I once had " + objS, "at one point I had " + objS}, false
		}
		return []string{"I've got " + objS}, false
	}
	if n := len(rest); n >= 4 && rest[n-3] == "for" && rest[n-2] == "a" && rest[n-1] == "living" {
		*cats |= catJob // "i walk dogs for a living"
		what := slices.Clone(rest[1 : n-3])
		if len(what) > 1 && what[0] == "and" {
			what[1] = gerund(what[1]) // "i cut and color hair" → "cutting and coloring hair"
		}
		act := strings.TrimSpace(gerund(v) + " " + strings.Join(what, " "))
		return []string{act + " is my job", "I make my living " + act}, false
	}
	// Any other verb: keep the sentence, with an adverb that breaks the
	// trigram "i <verb> <object>": after an auxiliary ("i can actually
	// move…"), else before the verb.
	if adv == "" || adv == "also" {
		adv = "actually"
	}
	if v == "can" && len(rest) > 2 && rest[1] == "not" {
		return []string{"I can't " + strings.Join(rest[2:], " ")}, false // never "I can actually not swim"
	}
	if auxiliaries.has(v) && len(rest) > 2 && rest[1] != "to" && (v != "do" && v != "did" && !haveVerbs.has(v) || participle(rest[1]) || participles.has(rest[1])) {
		// "I can actually swim", "I have actually driven"; but "I
		// actually do my job", "I actually have red hair"
		return []string{"I " + v + " " + adv + " " + strings.Join(rest[1:], " ")}, false
	}
	return []string{"I " + adv + " " + strings.Join(rest, " ")}, false
}

// clefts put the object of "i <verb> <object>" first, which breaks the
// trigrams of verb and object: "i drive a honda civic" → "what I drive is
// a honda civic"; "i met taylor swift" → "guess who I met: taylor swift".
func clefts(v string, obj []string) []string {
	if len(obj) < 2 || v != "am" && !haveVerbs.has(v) && (stopwords.has(v) || adverbs.has(v) || auxiliaries.has(v)) ||
		haveVerbs.has(v) && (participle(obj[0]) || participles.has(obj[0])) {
		return nil // "what I have is outlived two husbands"
	}
	if k := slices.Index(obj, "named"); k > 0 && k+1 < len(obj) && haveVerbs.has(v) {
		// "i have a dog named rex" → "rex, my dog"
		np := obj[:k]
		if np[0] == "a" || np[0] == "an" {
			np = np[1:]
		}
		return []string{strings.Join(obj[k+1:], " ") + ", my " + strings.Join(np, " ")}
	}
	if (obj[0] == "a" || obj[0] == "an") && len(obj) >= 2 {
		// "i drive a tractor" → "tractor, that's what I drive": the article goes
		// with the noun, away from the verb.
		np, tail := nounPhrase(obj[1:])
		if slices.ContainsFunc(np, timeWords.has) || strings.HasSuffix(np[len(np)-1], "ing") {
			return nil // "i spent a year living in madrid": a time, not a thing
		}
		if strings.HasPrefix(tail, " of ") && len(np) == 1 {
			return nil // "a lot of time", "a piece of cake": the phrase goes on
		}
		if len(np) > 2 && isNumber(np[0]) {
			// "a 2015 honda civic" → "a honda civic from 2015"
			np = append(slices.Clone(np[1:]), "from", np[0])
		}
		// Never "… van — I drive": the noun phrase may end a profile
		// sentence and the next one start with "i", a trigram across them.
		if tw := strings.Fields(tail); len(tw) > 0 && slices.Contains([]string{"to", "of", "for", "with", "about", "on", "that", "who", "which"}, tw[0]) {
			return nil // the phrase belongs to the noun: never "allergy, that's what I've got to water"
		}
		switch {
		case haveVerbs.has(v) && tail == "":
			return []string{strings.Join(np, " ") + ", that's what I've got"}
		case v == "am" && tail == "":
			return []string{strings.Join(np, " ") + ", that's me"}
		case haveVerbs.has(v) || v == "am":
			return nil // "son, that's what I've got in the navy", "recent immigrant, that's me from india"
		}
		return []string{strings.Join(np, " ") + ", that's what I " + v + tail}
	}
	if (obj[0] == "at" || obj[0] == "in" || obj[0] == "on") && len(obj) >= 2 {
		// "i work at a school" → "a school is where I work"; "i am in the
		// army" → "the army, that's where I am", or without its article;
		// what follows the place comes after: "the army, that's where I
		// enlisted after high school"
		np, tail := placeOf(nounPhrase(obj[1:]))
		if !isPlace(np) || saysWhen(obj[1:]) {
			return nil // "on a swim scholarship", "in 3 months": no place
		}
		where := strings.Join(np, " ")
		out := []string{where + " is where I " + v + tail}
		if tail == "" {
			out = append(out, where+" is where you'll find me")
		}
		if determiners.has(obj[1]) && len(np) >= 2 && obj[1] != "my" {
			out = append(out, strings.Join(np[1:], " ")+", that's where I "+v+tail)
		}
		return out
	}
	for k := 1; k+2 < len(obj) && !likeVerbs.has(v) && !dislikeVerbs.has(v) && !haveVerbs.has(v); k++ {
		// "i help out at the food bank" → "the food bank, that's where I
		// help out": the place first, without its article.
		if (obj[k] == "at" || obj[k] == "in" || obj[k] == "on") && (obj[k+1] == "the" || obj[k+1] == "a") {
			np, tail := placeOf(nounPhrase(obj[k+2:]))
			if np[0] == "time" || len(np) > 1 && slices.ContainsFunc(np, timeNoun) {
				return nil // "gone for weeks at a time", "on a mission next year"
			}
			where := "where"
			if seasons.has(np[len(np)-1]) || timeNoun(np[len(np)-1]) {
				where = "when" // "in the spring" says when: "the spring, that's when…"
			}
			if len(np) == 1 || np[1] == "of" {
				np = append([]string{obj[k+1]}, np...) // "the road", never "road, that's where…"; "the heart of the city"
			}
			return []string{strings.Join(np, " ") + ", that's " + where + " I " + v + " " + strings.Join(obj[:k], " ") + tail}
		}
	}
	if stopwords.has(obj[0]) && !determiners.has(obj[0]) || obj[0] == "every" || obj[0] == "each" || habitWords.has(obj[0]) ||
		obj[0] == "twice" || obj[0] == "once" {
		return nil // "i only eat…", "i moved into…", "i bowl every thursday": no object to put first
	}
	if v == "am" || intransitives.has(v) || v == "help" || v == "helps" || v == "helped" || prepositionWords.has(obj[0]) || obj[0] == "near" || slices.Contains(obj, "is") {
		return nil // "what I am is gluten free", "what I live is near the ocean"
	}
	o := strings.Join(obj, " ")
	if v == "met" {
		return []string{"guess who I met: " + o, "fun fact, I met " + o}
	}
	if _, tail := nounPhrase(obj); tail != "" && !habitWords.has(strings.Fields(tail)[0]) && !adverbs.has(strings.Fields(tail)[0]) && strings.Fields(tail)[0] != "each" {
		return []string{"something I " + v + ": " + o} // never "what I paint is portraits of pets"
	}
	if strings.HasSuffix(v, "ed") || pastVerbs.has(v) {
		return []string{"something I " + v + ": " + o, "one thing I " + v + " was " + o, o + ", that's something I " + v}
	}
	return []string{"what I " + v + " is " + o, "something I " + v + ": " + o, o + " is what I " + v}
}

// nounPhrase splits ws at the first preposition, clause word or adverb
// ("the food bank occasionally"): the noun phrase and the rest, which is
// returned with a leading space.
func nounPhrase(ws []string) ([]string, string) {
	for i, w := range ws {
		if i > 0 && (boundaries.has(w) || adverbs.has(w) || lastAdverbs.has(w) || w == "to" || w == "for" || w == "of" || w == "who" || w == "that" || w == "due" || beVerbs.has(w)) {
			return ws[:i], " " + strings.Join(ws[i:], " ")
		}
	}
	return ws, ""
}

// activityFirst says what an activity is done to first and the activity
// after it: "watching war documentaries" → "war documentaries: watching
// them is my thing", which parts the gerund from its object. Never "…
// documentaries, I love": the object may end a profile sentence and the
// next one start with "i".
func activityFirst(ing string, obj []string) []string {
	if len(obj) < 2 {
		return nil
	}
	prep := ""
	if obj[0] == "to" || obj[0] == "with" || obj[0] == "at" || obj[0] == "in" || obj[0] == "on" {
		prep, obj = obj[0]+" ", obj[1:]
	}
	np, tail := nounPhrase(obj)
	if len(np) == 0 || tail != "" {
		return nil
	}
	them := "it"
	if plural(np[len(np)-1]) {
		them = "them"
	}
	return []string{strings.Join(np, " ") + ": " + ing + " " + prep + them + " is my thing"}
}

// mainVerb is the verb of the rest of an "i …" sentence, the verbs of
// liking as "like".
func mainVerb(rest []string) string {
	for len(rest) > 1 && (adverbs.has(rest[0]) || rest[0] == "do") {
		rest = rest[1:]
	}
	return verbClass(rest[0])
}

// verbClass groups verbs that answer the same questions: "do you like…?"
// is answered by "i love…" too.
func verbClass(v string) string {
	switch {
	case likeVerbs.has(v):
		return "like"
	case haveVerbs.has(v) || v == "got":
		return "have"
	}
	return v
}

// amSays rewrites "i am …" (v "am") and "i was …" sentences.
func amSays(v string, obj []string, adv string, cats *category) []string {
	o := strings.Join(obj, " ")
	if v == "was" {
		if len(obj) >= 3 && obj[0] == "born" && obj[1] == "in" {
			where := strings.Join(obj[2:], " ")
			if strings.ContainsAny(where, "0123456789") || obj[2] == "the" {
				return []string{"I'm a child of " + where}
			}
			*cats |= catPlace
			return []string{"I'm originally from " + where, "I come from " + where + " originally"}
		}
		return []string{"I was " + o + " back then", "back in the day I was " + o}
	}
	if len(obj) >= 5 && (obj[0] == "a" || obj[0] == "an") && isNumber(obj[1]) && obj[2] == "year" && obj[3] == "old" {
		// "a 12 year old girl" → "a girl, 12 years old"
		*cats |= catAge
		return []string{"I'm a " + strings.Join(obj[4:], " ") + ", " + obj[1] + " years old"}
	}
	if np, _ := nounPhrase(obj[1:]); len(obj) >= 4 && (obj[0] == "a" || obj[0] == "an") && len(np) >= 3 && occupation(np[len(np)-1]) && places.has(np[len(np)-2]) &&
		!adjective(np[0]) { // "a retired gym teacher" is not "a teacher at a retired gym"
		// "an elementary school teacher" → "a teacher at an elementary school"
		head, where := np[len(np)-1], strings.Join(np[:len(np)-1], " ")
		if schooling.has(head) {
			return []string{"I'm a " + head + " at " + articleFor(where) + " " + where} // at school, not at work
		}
		*cats |= catJob
		return []string{"I'm a " + head + " at " + articleFor(where) + " " + where, "I work as a " + head + " at " + articleFor(where) + " " + where}
	}
	if len(obj) >= 2 && (obj[0] == "a" || obj[0] == "an") {
		if np, tail := nounPhrase(obj[1:]); tail != "" && len(np) > 0 && (occupation(np[len(np)-1]) || agentNoun(np[len(np)-1])) {
			// "a nurse at a children's hospital": the job, then where
			*cats |= catJob
			job := strings.Join(np, " ")
			return []string{"I work as " + obj[0] + " " + job + tail, "I'm " + obj[0] + " " + job + tail, "my job: " + job + tail, job + tail + ", that's my job"}
		}
		if n := len(obj); n >= 3 && fanWords.has(obj[n-1]) {
			// "a huge star wars fan" → "a huge fan of star wars", "a die
			// hard braves fan" → "a die hard fan of the braves"
			k := fanDegree(obj[:n-1])
			of := strings.Join(obj[k:n-1], " ")
			if plural(obj[n-2]) {
				of = "the " + of // a team: "the braves"
			}
			lead := strings.Join(append([]string{obj[0]}, obj[1:k]...), " ") + " "
			return []string{"I'm " + lead + obj[n-1] + " of " + of, "call me " + lead + obj[n-1] + " of " + of}
		}
		if says := fanBefore(obj); says != nil {
			return says
		}
		if n := len(obj); n >= 3 && adjective(obj[1]) && !(n >= 4 && bindingAdjectives.has(obj[1]) && !adjective(obj[2])) {
			// "a retired gym teacher" → "a gym teacher, a retired one",
			// never "a haul trucker, a long one" (compoundJob)
			rest := articleFor(obj[2]) + " " + strings.Join(obj[2:], " ")
			if !occupation(obj[n-1]) {
				return []string{"I'm " + rest + ", " + obj[0] + " " + obj[1] + " one"} // never "I work as a girl"
			}
			*cats |= catJob
			return []string{"I'm " + rest + ", " + obj[0] + " " + obj[1] + " one", "I work as " + rest + ", " + obj[0] + " " + obj[1] + " one"}
		}
		if schooling.has(obj[len(obj)-1]) {
			// "a college student" is at school, not at work
			bare := strings.Join(obj[1:], " ")
			return []string{bare + ", that's what I am", "these days I'm " + o, "I'm " + o + " at the moment"}
		}
		if occupation(obj[len(obj)-1]) {
			*cats |= catJob
			bare := strings.Join(obj[1:], " ") // the job without its article
			return []string{"I work as " + o, "for a living, I'm " + o, "I'm " + o + " by trade", bare + ", that's my job", "my job: " + bare}
		}
		if n := len(obj); n >= 3 && !adjective(obj[1]) && !isNumber(obj[1]) {
			// "a night owl": "a real night owl" breaks the article from a
			// name of two words.
			return []string{"I'd call myself " + o, "I'm actually " + o, "you could say I'm " + o, "I'm a real " + strings.Join(obj[1:], " ")}
		}
		return []string{"I'd call myself " + o, "I'm actually " + o, "you could say I'm " + o}
	}
	if len(obj) >= 1 && (obj[0] == "from" || obj[0] == "in") {
		*cats |= catPlace
	}
	if says := fearSays(obj); says != nil {
		*cats |= catFear
		return says
	}
	if len(obj) >= 1 && obj[0][0] >= '0' && obj[0][0] <= '9' {
		*cats |= catAge // "i am 19", "i'm 40 years old"
	}
	if len(obj) >= 1 && strings.HasSuffix(obj[0], "ing") {
		if adv == "still" || adv == "always" {
			return []string{"I'm " + adv + " " + o} // never "right now" for what goes on
		}
		return []string{"right now I'm " + o, "these days I'm " + o}
	}
	if adv != "" {
		return []string{"I'm " + adv + " " + o, "you could say I'm " + adv + " " + o}
	}
	return []string{"I'm actually " + o, "I'd say I'm " + o, "you could say I'm " + o}
}

// intransitives are verbs whose next words say where, how or when, never
// what: "i stay home", "i work remotely", "i live near the ocean".
var intransitives = newSet("live lives stay stays work works sleep sleeps travel travels grow grew sit stand walk arrive")

// participles are irregular past participles: "i have written two
// novels" has no "written" to have.
var participles = newSet(`written driven ridden eaten taken given seen done gone known grown flown thrown shown broken
chosen spoken stolen forgotten gotten beaten fallen hidden risen sung swum begun drunk won lost read met been
run come become quit hurt`)

// isPlace reports whether np, a noun phrase after "at", "in" or "on",
// names where one is: "a school", "the navy", "a boat"; never "a swim
// scholarship" or "a diet".
func isPlace(np []string) bool {
	return !notPlaces.has(np[len(np)-1]) && !strings.HasSuffix(np[len(np)-1], "ing")
}

// notPlaces are what one is on or in that is no place: "on a diet".
var notPlaces = newSet(`scholarship scholarships diet diets budget medication medications mission break vacation leave
call duty track hold love debt trouble charge touch shape fact general particular time band bands choir orchestra
team teams group`)
