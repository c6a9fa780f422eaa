package offline

import (
	"slices"
	"strings"
)

// How a question is read once for matching it to every fact: what it asks
// about, of whom, and in what words.

// asked is a personal question as the matching reads it.
type asked struct {
	q                *text
	intents          category
	yesNo, favourite bool
	name, age        bool // it asks a name, an age
	kinAge           bool // it asks the age of a relative or a pet: "how old are your kids?"
	bareJob          bool // it asks what one does without a word of work: "what do you do?"
	day              bool // it asks about one's days: "what's a typical day like?" (dayIntents)
	before           bool // it asks about work one did before: "what did you do before?"
	origin, strong   bool // it asks where one is from; where one grew up or was born
	pastTense        bool
	howMany, howLong bool
	verb             string
	qws              []string
	topics           []topic
	qkin             int      // the kinds of family it asks about (kinOf)
	yours            []string // the relatives it asks about by "your"
	besides          string   // the stem of what it asks about other than: "any hobbies besides singing?"
	hates            bool     // it asks what one dislikes: "any foods you hate?"
	family           bool     // it asks about "your family": any relative answers
	third            bool     // it asks about someone else by "he", "she" or "they": "what does she do?"
	grand            bool     // it asks about grandchildren
	hours            bool     // it asks about one's hours of work: "what are your hours like?"
	tail             []string // a yes/no question's two words or more after "you": "work from home"
	times            []string // the times of the week or day it names (timesOf): "on sundays", "before bed"
}

// topic is a word of the question whose intent it asks about, or of none.
type topic struct {
	stem string
	cat  category
}

// readQuestion reads q for matching.
func readQuestion(q *text) *asked {
	a := &asked{q: q, intents: questionIntents(q), yesNo: asksYesNo(q), favourite: asksFavourite(q),
		verb: questionVerb(q), name: asksName(q), pastTense: asksPastTense(q), yours: yourKin(q)}
	norm, cn := " "+q.norm+" ", chatNorm(q)
	a.age, a.howMany, a.howLong = strings.Contains(norm, " how old "), strings.Contains(norm, " how many "), strings.Contains(norm, " how long ")
	a.kinAge, a.age = a.age && a.intents&catAge == 0, a.age && a.intents&catAge != 0
	a.bareJob = a.intents == catJob && !hasIntentWord(q, catJob) && !asksLiving(cn)
	a.day = dayIntents(cn) != 0
	a.before = strings.Contains(norm, " do before ") || strings.Contains(norm, " used to do ")
	// The question's own words, those whose intent it does not ask about
	// left out ("living" in "what do you do for a living").
	for i, w := range q.words {
		a.qws = append(a.qws, chatSpelling(w.low)) // "your hubby" asks of a husband
		if c := wordIntent(q, i); w.content && !w.generic && !likeVerbs.has(w.low) && (c == 0 || c&a.intents != 0) && !slices.Contains(a.topics, topic{w.stem, c}) {
			a.topics = append(a.topics, topic{w.stem, c})
		}
	}
	if strings.Contains(norm, " time of year ") {
		a.topics = append(a.topics, topic{"season", 0}) // "your favorite time of year?": a season
	}
	if a.favourite && (strings.Contains(norm, " place ") || strings.Contains(norm, " destination ")) {
		a.topics = append(a.topics, topic{stem("city"), catPlace}, topic{stem("country"), catPlace}) // "your favorite place?": a city or a country
	}
	for i, w := range q.words {
		a.hates = a.hates || dislikeVerbs.has(w.low) || w.low == "stand" && i > 0 && (q.words[i-1].low == "can't" || q.words[i-1].low == "cannot" || q.words[i-1].low == "not") ||
			w.low == "peeves" || w.low == "peeve"
		if (w.low == "besides" || w.low == "except" || w.low == "apart" && i+1 < len(q.words) && q.words[i+1].low == "from") && i+1 < len(q.words) {
			a.besides = q.words[len(q.words)-1].stem // "besides singing?", "apart from reading?"
		}
	}
	if (strings.Contains(norm, " don't like ") || strings.Contains(norm, " dont like ") || strings.Contains(norm, " do not like ")) &&
		(slices.Contains(a.qws, "any") || slices.ContainsFunc(a.qws, whWords.has)) {
		a.hates = true // "is there any food you don't like?", not "so you don't like to cook?"
	}
	a.qkin, a.times = kinOf(a.qws), timesOf(a.qws)
	a.family = strings.Contains(norm, " your family ")
	a.grand = slices.ContainsFunc(a.qws, grandchild)
	if i := slices.Index(a.qws, "you"); a.yesNo && i >= 0 && len(a.qws)-i > 2 {
		a.tail = a.qws[i+1:]
	}
	if a.hours = slicesHasAny(a.qws, hourAsks) || slices.Contains(a.qws, "nights") && slicesHasAny(a.qws, workWords); a.hours && a.intents == 0 {
		a.intents = catJob // "what are your hours like?": one's hours of work
	}
	if slicesHasAny(a.qws, birthOrder) {
		a.intents |= catFamily // "are you the oldest?" asks among one's siblings
	}
	if asksParent(q) {
		a.qkin = 1 << kinChildren // "are you a parent?", "are you a mom?"
	}
	if strings.Contains(cn, " seeing anyone ") || strings.Contains(cn, " seeing someone ") || strings.Contains(cn, " significant other ") || strings.Contains(cn, " special someone ") || strings.Contains(cn, " love life ") {
		a.qkin |= 1 << kinMarried
	}
	a.origin = a.intents&catPlace != 0 && slices.ContainsFunc(a.qws, originWords.has)
	a.strong = strongOrigin(a.qws)
	if a.third = asksOfThird(q); a.third {
		// "what does she do?" after "are you married?": a relative or a
		// pet answers, whichever kind.
		if a.qkin == 0 {
			a.qkin = anyKin
		}
		if a.age {
			a.age, a.kinAge = false, true // "how old is she?"
			a.intents = a.intents&^catAge | catFamily | catPet
		}
		a.bareJob = false
	}
	return a
}

// grandchild reports a word for a grandchild: "grandkids", "granddaughter".
func grandchild(w string) bool {
	return strings.HasPrefix(w, "grand") && kin[w] == kinChildren
}

// hourAsks ask about one's hours of work; hourWords tell them, with
// workWords.
var (
	hourAsks  = newSet("hours shift shifts schedule")
	hourWords = newSet("hours shift shifts night nights overnight graveyard evenings mornings weekends until schedule")
)

// tellsHours reports a fact that tells when or how long one works: "i
// work night shifts as a nurse", "i work until two in the morning".
func (f *fact) tellsHours() bool {
	if f.hasWord(hourWords.has) && (f.cats&catJob != 0 || f.hasWord(workWords.has)) {
		return true
	}
	for i := 2; i < len(f.words); i++ {
		if isNumber(f.words[i-2]) && f.words[i-1] == "to" && isNumber(f.words[i]) {
			return true // "i am in meetings from nine to five"
		}
	}
	return false
}

// hasRun reports whether ws holds the words of run in a row.
func hasRun(ws, run []string) bool {
	for i := 0; i+len(run) <= len(ws); i++ {
		if slices.Equal(ws[i:i+len(run)], run) {
			return true
		}
	}
	return false
}
