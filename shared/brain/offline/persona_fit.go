package offline

import (
	"slices"
	"strings"
)

// What a fact must say to answer a question, beyond being about what the
// question asks: the relative it asks about, a name, an age, a liking for
// a favourite, and for a yes/no question each thing it names.

// asksName reports a question about a name: "what is your dog's name?",
// "how do you call your cat?".
func asksName(q *text) bool {
	for i, w := range q.words {
		if nameWords.has(w.low) && !(w.low == "call" && i+1 < len(q.words) && q.words[i+1].low == "home") { // not "where do you call home?"
			return true
		}
	}
	return false
}

var nameWords = newSet("name names named call called")

// tellsName reports a fact that gives a name: "my cat is named tom", "my
// pug waffles snores", "my younger sister tamsin is a dentist", "maureen
// and i have been married for years".
func (f *fact) tellsName() bool {
	ws := f.words
	for i, w := range ws {
		before := ws[max(0, i-3):i] // "my younger sister tamsin", "our golden retriever max", "two cats, pickles and olive"
		if nameWords.has(w) || (slicesHasAny(before, possessives) || slices.ContainsFunc(before, isNumber)) && namedAfter(ws, i+1) {
			return true
		}
	}
	return withNamed(ws)
}

// withNamed reports a sentence that opens with someone named and "i":
// "maureen and i have been married for forty years".
func withNamed(ws []string) bool {
	return len(ws) > 2 && ws[1] == "and" && ws[2] == "i" && !stopwords.has(ws[0]) && intentOf(ws[0]) == 0
}

// namedAfter reports a given name at ws[i], right after the pet or
// relative it names: a word that is no verb, at the end or before a verb
// ("my husky juno howls"), not "my cat sleeps on my feet" nor "my dog
// chases cars".
func namedAfter(ws []string, i int) bool {
	if i >= len(ws) || i == 0 || intentOf(ws[i-1])&catPet == 0 && kin[ws[i-1]] == 0 && ws[i-1] != "boys" && ws[i-1] != "girls" {
		return false
	}
	x := ws[i]
	if stopwords.has(x) || nameVerbs.has(x) || hasSuffix(x, "ly", "ed", "ing", "ies") || kin[x] != 0 || intentOf(x)&(catPet|catPlace) != 0 {
		return false
	}
	if i+1 == len(ws) {
		return true
	}
	y := ws[i+1]
	return beVerbs.has(y) || y == "has" || y == "and" || adverbs.has(y) || pastVerbs.has(y) || hasSuffix(y, "ed") || nameVerbs.has(y) ||
		strings.HasSuffix(y, "s") && !stopwords.has(y) && intentOf(y) == 0 && !determiners.has(y)
}

// nameVerbs are what a pet or a relative does, never its name.
var nameVerbs = newSet(`loves likes hates eats sleeps barks chases follows sits runs goes gets plays
lives works knows thinks wants needs sings talks walks rides bites purrs meows snores howls whistles
teaches drives owns makes fixes builds cooks writes paints coaches serves travels flies studies
can will does did just also still always never`)

// tellsAge reports a fact that gives an age: "i am 19", "my dog is old",
// "she turned five"; not a count ("two cats").
func (f *fact) tellsAge() bool {
	ws := f.words
	for i, w := range ws {
		if ageWords.has(w) && (i == 0 || !lastsFor(ws, i-1)) || i > 0 && isNumber(w) && ageVerbs.has(ws[i-1]) {
			return true // not "years" of "two years ago"
		}
	}
	return false
}

// ageVerbs tell an age by the number after them: "i am 19", "she turned
// five"; never a count ("i have two cats").
var ageVerbs = newSet("am is are turned aged be")

var ageWords = newSet("old older young younger age years teen teenager teens teenage baby retired toddler toddlers infant newborn grown")

// questionVerb is the verb a question asks with, the verbs of liking as
// "like": "do you have…" is best answered by "i have…", "are you…" by
// "i am…".
func questionVerb(q *text) string {
	for i := 0; i+1 < len(q.words); i++ {
		if w := q.words[i].low; w == "you" || w == "u" {
			next := q.words[i+1].low
			if (next == "ever" || adverbs.has(next)) && i+2 < len(q.words) {
				next = q.words[i+2].low // "did you ever serve…?" asks with "serve"
			}
			if i > 0 && beVerbs.has(q.words[i-1].low) && !strings.HasSuffix(next, "ing") {
				return "am" // "are you a nurse?"; "are you living…?" asks with "live"
			}
			return verbClass(next)
		}
	}
	return ""
}

var beVerbs = newSet("are r am is were was")

// sameVerb reports whether a fact's verb is the question's: "live" is
// "living".
func sameVerb(fv, qv string) bool {
	return qv != "" && fv != "" && (fv == qv || stem(fv) == stem(qv))
}

// asksYesNo reports a question that asks for a yes or a no ("do you
// speak spanish?", "so you like dogs?"), not for a thing ("what…?").
func asksYesNo(q *text) bool {
	for i, w := range q.words {
		if whWords.has(chatSpelling(w.low)) || w.low == "tell" && i+1 < len(q.words) && q.words[i+1].low == "me" {
			return false // "can you tell me about your hobbies?" asks for them
		}
	}
	for i, w := range q.words {
		if w.low != "you" && w.low != "u" {
			continue
		}
		if i <= 1 || auxWords.has(q.words[i-1].low) {
			return true
		}
	}
	return false
}

// asksFavourite reports a question about a favourite ("what's your fav
// band?"), misspelt ones too.
func asksFavourite(q *text) bool {
	for _, w := range q.words {
		if strings.HasPrefix(w.low, "fav") {
			return true
		}
	}
	return false
}

// likes reports a fact that tells a liking: "i love…", "my favorite…",
// "i am a huge coffee lover".
func (f *fact) likes() bool {
	if f.neg {
		return false
	}
	if f.verb == "like" {
		return true
	}
	prev := ""
	for _, w := range f.words {
		if strings.HasPrefix(w, "fav") || fanWords.has(w) || w == "passion" || w == "lover" || w == "obsessed" ||
			prev == "i" && (likeVerbs.has(w) || w == "miss") || // "yellow is the color i love most", "i miss my mother's dumplings"
			prev == "every" && devotions.has(w) || // "i have read every book by stephen king"
			w == "nerd" || w == "geek" || fandom.has(w) || fondness.has(w) || prev == "every" && (w == "day" || w == "night") ||
			prev == "a" && w == "lot" || // "i drink a lot of mountain dew"
			prev == "too" && (w == "much" || w == "many") || prev == "all" && w == "day" || // "i drink way too much coffee", "i drink mate all day long"
			prev == "the" && w == "best" || // "kimchi fried rice is the best meal"
			prev == "times" && (w == "a" || w == "per") || prev == "could" && w == "eat" { // "i eat pizza three times a week", "i could eat noodles daily"
			return true
		}
		prev = w
	}
	return false
}

// fondness are the words of a favourite said without "favorite": "thai
// curry is the dish i crave most", "bollywood movies are my guilty
// pleasure", "pulp fiction is the movie i could watch forever", "nothing
// beats a bowl of pho", "motown is the soundtrack of my life".
var fondness = newSet("crave craving pleasure comfort hero idol forever addicted addiction weakness reread rewatch rewatched hooked beats soundtrack")

// beforeJob reports the word of stem st in fact f only before an
// occupation, naming the trade, not what one has: "do u have tattoos?" is
// no "Yes!" to "i am a tattoo artist".
func (f *fact) beforeJob(st string) bool {
	ws := f.words
	for i, w := range ws {
		if stem(w) == st && (i+1 == len(ws) || !occupation(ws[i+1])) {
			return false
		}
	}
	return slices.ContainsFunc(ws, func(w string) bool { return stem(w) == st })
}

// fan reports a fact that tells one follows a team or a star: "i am a big
// fan of the patriots", "i cheer for the chiefs".
func (f *fact) fan() bool {
	for _, w := range f.words {
		if fanWords.has(w) || fandom.has(w) {
			return true
		}
	}
	return false
}

// fanVerbs ask what a fan does: "do you watch football?".
var fanVerbs = newSet("watch follow root support cheer")

// devotions are what a fan has seen or read every one of.
var devotions = newSet("book novel episode movie film album song game")

// covers reports whether fact f, of intents cats, speaks of every thing
// yes/no question q names, so that its answer is a yes or a no: "do you
// speak spanish?" is not answered by a favourite Spanish word, nor "do you
// play guitar?" by a favourite band. A thing is spoken of by its word, by
// the intent a category's name names ("any pets?": the horses), by the
// same kind of family ("are you married?": "i am single"), or by a thing
// of the same intent with the same verb ("do you play tennis?": "i play
// soccer"). Light verbs ("play", "go") and light nouns ("lover", "kind")
// need nothing.
func (f *fact) covers(q *text, cats category, verb string) bool {
	for i, w := range q.words {
		if !w.content || w.generic || light(w.low) || f.speaksOfOther(q, i) || cuisine(q, i) {
			continue
		}
		c := wordIntent(q, i)
		switch {
		case f.speaksOf(w.stem):
		case kin[w.low] > 0: // only by that kind of family: "any children?" is not "my family and i…"
			if f.kin&(1<<kin[w.low]) == 0 {
				return false
			}
		case categoryNames.has(w.low) && cats&c&(catTravel|catSport) != 0: // "do you like to travel?" "I'm saving to visit japan."
		case classes[w.stem] != nil: // "do you play an instrument?" is not answered by a singer
			return false
		case categoryNames.has(w.low) && cats&c != 0:
		case c&cats&kinds != 0 && f.verb != "" && (verb != "am" || f.verb == "am") && !asksWith(q, i) && (cats&catJob == 0 || c&catJob != 0): // "are you a vegan?" "I'm a vegetarian."; "do you like football?" is no "I'm a wrestling coach"
		case c&cats&catPlace != 0 && sameVerb(f.verb, verb): // "are you living in an apartment?" "I live in the city."
		case c&cats != 0 && asksWith(q, i) && wordIntent(q, i) == intentOf(w.low): // "do you speak other languages?" "I'm learning korean."
		case c == 0 && verbish(w.low):
		case fanVerbs.has(w.low) && f.fan(): // "do you watch sports?" "I'm a huge hockey fan."
		default:
			return false
		}
	}
	return true
}

// confirms reports whether fact f says yes to yes/no question q: it
// speaks of each thing q names (covers), and names at least one by its
// own word, by the intent a category's name names ("any pets?": the
// horses) or by a relative of the kind asked. A thing of the same kind is
// no yes: "do you play tennis?" is answered by "i play soccer", not
// confirmed; nor is "do you speak spanish?" by "i am studying spanish",
// nor "are you married?" by "i am divorced". A dislike or a negation
// (f.neg) confirms a no the same way, when it denies what was asked
// (saysNo).
func (f *fact) confirms(q *text) bool {
	if !f.covers(q, f.intents(), questionVerb(q)) || !f.plainYes(q) {
		return false
	}
	if v := questionVerb(q); v == "like" && !f.likes() && !f.neg || f.fan() && v != "like" && !fanVerbs.has(v) {
		return false // "do you like your job?" is no "I do!" to a job; "do you exercise?" none to a fan
	}
	named := false
	for i, w := range q.words {
		if !w.content || w.generic || f.speaksOfOther(q, i) || cuisine(q, i) {
			continue
		}
		c := wordIntent(q, i)
		switch {
		case f.speaksOf(w.stem) && !f.knownOnly(w.stem, q) && !f.beforeJob(w.stem):
			named = named || !light(w.low)
		case dislikeVerbs.has(w.low):
			return false // "do you hate cats?" is not confirmed by "i have two cats"
		case light(w.low):
		case kin[w.low] > 0:
			if !f.kinConfirms(w.low) {
				return false
			}
			named = true
		case categoryNames.has(w.low) && f.intents()&c != 0 && (c&catJob != 0 || f.intents()&catJob == 0):
			named = true // not by one's job: "are you a student?" and "i work at a school"
		case c == 0 && verbish(w.low):
		case fanVerbs.has(w.low) && f.fan(): // "do you watch sports?" "I'm a huge hockey fan."
		default:
			return false
		}
	}
	return named
}

// plainYes reports whether fact f can say yes or no to q at all, whatever
// it names. A fact that negates without being read as a negation ("i can
// not swim"), a fear or an allergy ("i am allergic to cats"), a denial
// ("i am unemployed", "my wife died") and a plan ("i am getting married
// next year", "i am saving for college") are
// told as they are: "do you have a cat?" is no "I do!" to the allergy.
func (f *fact) plainYes(q *text) bool {
	ws := f.words
	asks := questionIntents(q)
	for _, w := range ws {
		switch {
		case negWords.has(w) && !f.neg:
			return false
		case denials.has(w) && !q.tokens.has(w):
			return false
		}
	}
	if f.intents()&catFear != 0 && asks&catFear == 0 {
		return false
	}
	if (f.wish || f.intents()&catPlans != 0 || slices.ContainsFunc(ws, futureWords.has)) && asks&catPlans == 0 {
		return false
	}
	if f.neg {
		return f.saysNo(q)
	}
	return true
}

// saysNo reports whether a dislike or a negation denies what q asks: "do
// you like your job?" and "i hate my job", "do you drink?" and "i do not
// drink alcohol"; not "are you a student?" and "i hate school".
func (f *fact) saysNo(q *text) bool {
	if dislikeVerbs.has(f.verb) {
		return questionVerb(q) == "like"
	}
	for i := 0; i+1 < len(q.words); i++ {
		if w := chatSpelling(q.words[i].low); w == "you" {
			return slices.Contains(f.words, q.words[i+1].low)
		}
	}
	return false
}

// futureWords make a fact one of what is to come: "i am getting married
// next year", "i am saving up for a car".
var futureWords = newSet("next soon saving someday joining")

// negWords negate a sentence; denials say no to a whole intent.
var (
	negWords = newSet("not never no can't cannot don't won't didn't isn't aren't nobody nothing")
	denials  = newSet("unemployed jobless retired single divorced widowed died passed deceased")
)

// kinConfirms reports whether fact f says yes to a question about the
// relative w: any child says yes to "kids", any brother to "siblings";
// only a spouse says yes to "married", and an only child says no to
// "siblings".
func (f *fact) kinConfirms(w string) bool {
	n := kin[w]
	if f.kin&(1<<n) == 0 || strings.Contains(" "+f.source+" ", " only child ") {
		return false
	}
	if n != kinMarried {
		return true
	}
	want := spouseWords
	if !spouseWords.has(w) {
		if !coupleWords.has(w) {
			return false // "are you single?" is not confirmed by "i have a girlfriend"
		}
		want = coupleWords
	}
	for _, s := range f.words {
		if want.has(s) {
			return true
		}
	}
	return false
}

// spouseWords say one is married; coupleWords that one is with someone.
var (
	spouseWords = newSet("married wife husband spouse")
	coupleWords = newSet("married wife husband spouse boyfriend girlfriend partner engaged fiance fiancee relationship dating")
)

// asksWith reports the i-th word of q as the verb it asks with, after
// "you" or "to": "sing" in "do you like to sing?" is a doing, which a fact
// of another doing of its kind ("i saw them in concert") does not answer.
func asksWith(q *text, i int) bool {
	if i == 0 {
		return false
	}
	prev := chatSpelling(q.words[i-1].low)
	return prev == "you" || prev == "to"
}

// kinds are the intents whose things are of a kind, so that one answers a
// yes/no question about another: "do you play tennis?" "I play soccer."
// A pastime, a job or a place is not one of a kind.
const kinds = catPet | catSport | catMusic | catFood | catDrink | catLanguage | catCar | catBooks | catFilms | catReligion | catHealth

// hasDigitStem reports a stem of f glued to a number: "5cats".
func (f *fact) hasDigitStem(st string) bool {
	for s := range f.stems {
		if s != st && strings.TrimLeft(s, "0123456789") == st {
			return true
		}
	}
	return false
}

// light reports a light word, or one misspelt by a letter ("lilke").
func light(w string) bool {
	if lightWords.has(w) || likeVerbs.has(w) {
		return true
	}
	if len(w) < 4 {
		return false
	}
	for l := range lightWords {
		if len(l) >= 4 && nearly(w, l) {
			return true
		}
	}
	for l := range likeVerbs {
		if nearly(w, l) {
			return true
		}
	}
	return false
}

// nearly reports words one letter apart: one added, dropped or changed.
func nearly(a, b string) bool {
	if len(a) < len(b) {
		a, b = b, a
	}
	if len(a)-len(b) > 1 || a == b {
		return len(a) == len(b) && a == b
	}
	i := 0
	for i < len(b) && a[i] == b[i] {
		i++
	}
	if len(a) == len(b) {
		return a[i+1:] == b[i+1:]
	}
	return a[i+1:] == b[i:]
}

// lightWords carry no thing of their own in a yes/no question: "do you
// play…?", "are you a cat lover?".
var lightWords = newSet(`play plays go goes get got make take use know want think try ever listen follow stay keep
lover lovers fan fans person people kind type sort lot lots thing things much many problems problem issues issue celebrate serve served weather`)
