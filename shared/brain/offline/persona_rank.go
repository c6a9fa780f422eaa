package offline

import (
	"math/bits"
	"slices"
	"strings"
)

// What a fact must be to answer a question, read once (asked,
// persona_asked.go), and how well it answers (rank).

// studiedWords tell what one studied.
var studiedWords = newSet("degree degrees major majored majoring minor studied graduated diploma phd masters bachelors")

// feelings tell how one feels about a thing: "my job is very stressful".
var feelings = newSet(`boring bored stressful stress miserable fun rewarding tiring exhausting hard easy
favorite favourite best worst dream proud happy unhappy satisfying yell yells yelling`)

// siblingOrder tell where one comes among one's siblings.
var siblingOrder = newSet("older younger oldest youngest eldest middle only big little baby last first")

// birthWords tell where one comes from, whatever else a fact tells.
var birthWords = newSet("born raised originally grew")

// allergyWord reports a word of an allergy; fearAsks ask about a fear.
func allergyWord(w string) bool { return strings.HasPrefix(w, "allerg") }

// allergens tell an allergy without the word: "i can not eat gluten",
// "even one peanut could send me to the hospital".
var allergens = newSet(`eat peanut peanuts gluten celiac shellfish lactose pollen sneeze sneezing hives epipen intolerant
swell throat rash itchy hospital breathe`)

// exerciseAsks ask about exercise, which a fan of a team does not answer.
var exerciseAsks = newSet("exercise exercises workout shape fit gym active")

var fearAsks = newSet("afraid fear fears scared scare scares phobia phobias terrified frightened")

// offersChoice reports a question, of words qws, that offers a choice between
// words of ws: "are you a guy or a girl?".
func offersChoice(qws []string, ws set) bool {
	n := 0
	for _, w := range qws {
		if ws.has(w) {
			n++
		}
	}
	return n >= 2 && slices.Contains(qws, "or")
}

// fits reports whether fact f can answer the question, with the intents
// it answers about and whether it only comes near (a yes/no question it
// speaks of in part, answered after those that cover it).
func (a *asked) fits(f *fact) (cats category, near, ok bool) {
	cats = f.intents()
	ws := f.words
	if a.third && f.kin == 0 && cats&catPet == 0 {
		return 0, false, false // "what does he do?" is not answered by one's own job
	}
	if a.qkin != 0 && a.qkin&f.kin == 0 || a.grand && !f.hasWord(grandchild) && !saysParent(f.words, true) {
		cats &^= catFamily // "any kids?" is not answered by a sister, nor by "my family and i…"; "any grandkids?" not by one's kids
	}
	if f.verb == "have" && f.kin != 0 {
		cats &^= catHobby // "any hobbies?" is not answered by "i have my daughter every other weekend"
	}
	if a.verb == "have" && f.verb != "have" && !kidsVerbs.has(f.verb) && f.hasWord(animalPlaces.has) {
		cats &^= catPet // "do you have pets?" is not answered by "i volunteer at the animal shelter", but is by "i adopted two cats from a shelter"
	}
	if a.qkin&f.kin == 0 && aboutOther(f.source) && !(a.family && f.kin != 0) {
		cats &= catFamily | ownPlace(f.source, a.origin) // "my dad is a chef" tells of the family, not of one's job
	}
	if a.third && f.kin != 0 {
		cats |= kinDoings(f) // "where does he live?": "a boyfriend in chile"
	}
	switch {
	case (f.wish || f.cats&catPlans != 0 && (cats&catPlace == 0 || a.origin)) && a.intents&catPlans == 0 && (a.verb == "have" || a.intents&catPlace != 0):
		return 0, false, false // "what dog do you have?" is not answered by "i want to be a dog", nor "where are you from?" by a move one hopes for
	case (a.verb == "have" || a.verb == "" && slices.ContainsFunc(a.qws, func(w string) bool { return w == "pet" || w == "pets" })) &&
		a.intents&catPet != 0 && fearsAnimal(f) && !a.namesAnimal(f):
		return 0, false, false // "do you have pets?" is not answered by "i have a severe fear of snakes"; "do you have a dog?" is by "i am afraid of dogs"
	case a.yesNo && a.verb == "like" && a.intents == catJob && !f.likes() && !f.neg && !f.hasWord(feelings.has):
		return 0, false, false // "do you like your job?" is answered by how one feels about it, not by the job
	case a.intents&catSport != 0 && (a.verb == "play" || slicesHasAny(a.qws, exerciseAsks)) && f.fan():
		return 0, false, false // "do you exercise?" is not answered by "i support arsenal"
	case a.intents&catPlace != 0 && f.neg && f.hasWord(func(w string) bool { return strings.HasPrefix(w, "liv") }):
		return 0, false, false // "where do you live?" is not answered by "i have not lived there for ten years"
	case a.intents&catHobby != 0 && !sameTimes(a.times, ws):
		return 0, false, false // "what do you do on sundays?" is not answered by "i get up at four every morning"
	case a.age && len(a.yours) == 0 && !a.third && (cats&catPet != 0 || f.kin != 0 && a.qkin == 0 && !a.pastTense && slices.Contains(a.qws, "you")) && !ownAge(ws):
		return 0, false, false // "how old are you?" is not answered by "i have a goldfish who is 9 years old", nor by "i have a two year old son"
	case a.howLong && !tellsHowLong(ws):
		return 0, false, false // "how long have you been surfing?" is not answered by "i surf every weekend"
	case a.hates && !f.neg && !f.dislikes():
		return 0, false, false // "any foods you hate?" is answered by a dislike
	case a.besides != "" && f.speaksOf(a.besides):
		return 0, false, false // "any hobbies besides singing?" is not answered by singing
	case a.favourite && !f.likes() || a.name && (!f.tellsName() || !f.namesKindAsked(a.topics)) || a.age && !f.tellsAge() && !f.agedAt(a.q) || !f.tellsOf(a.yours) ||
		a.kinAge && !tellsAge(f.source):
		return 0, false, false
	}
	if slicesHasAny(a.qws, birthOrder) && f.kin&(1<<kinSiblings) != 0 && f.hasWord(siblingOrder.has) {
		return catFamily, false, true // "are you the oldest?": "i have three older sisters"
	}
	if a.intents == catRhythm && cats&catRhythm != 0 {
		return catRhythm, false, true // "are you an early riser?": "i get up at five every day"
	}
	if a.age && f.agedAt(a.q) {
		cats |= catAge // "how old were you when you moved?": "i moved here at nineteen"
	}
	if a.age && len(a.yours) > 0 && f.tellsAge() {
		cats |= catAge // "how old is your sister?": "my little sister is eight"
	}
	if a.intents&catLooks != 0 && offersChoice(a.qws, genderWords) {
		if cats&catLooks == 0 || !f.hasWord(genderWords.has) {
			return 0, false, false
		}
		return catLooks, false, true // "are you male or female?": "i am a woman"
	}
	if cats&catFear != 0 && a.intents&catFear != 0 {
		// "are you afraid of anything?" is not answered by an allergy.
		fAllergy := f.hasWord(allergyWord) || f.hasWord(allergens.has)
		if fAllergy && !slices.ContainsFunc(a.qws, allergyWord) && slices.ContainsFunc(a.qws, fearAsks.has) {
			return 0, false, false
		}
		if !fAllergy && slices.ContainsFunc(a.qws, allergyWord) && !slices.ContainsFunc(a.qws, fearAsks.has) {
			return 0, false, false // "any allergies?" is not answered by a fear of snakes
		}
	}
	// A fact that speaks of some of what a yes/no question names but not
	// of all answers it after those that do, told as it is: "do you ride a
	// motorcycle?" "I have a motorcycle."
	near = a.yesNo && !f.covers(a.q, cats, a.verb)
	switch {
	case near && !f.namesThings(a.q):
		return 0, false, false
	case a.intents&catJob != 0 && a.verb == "work" && cats&catJob == 0 && !slices.Contains(a.qws, "or"):
		return 0, false, false // "do you work in a restaurant?" is answered by a job
	case slices.Contains(a.qws, "live") && cats&catPlace != 0 && f.onlyPeople():
		return 0, false, false // "what city do you live in?" is not answered by "i am korean american"
	case aboutOther(f.source) && a.qkin != 0 && a.qkin&f.subjectKin() == 0:
		return 0, false, false // "do you have a boyfriend?" is not answered by "my parents are divorced"
	}
	if cats&catStudy != 0 && (len(a.yours) > 0 || a.third || a.bareJob && studiesNow(f)) {
		cats |= catJob // "what does your son do?": "my son is in college"; "what do you do?": "i am in medical school"
	}
	switch {
	case len(a.yours) > 0 && a.intents&^catFamily != 0 && cats&a.intents&^catFamily == 0,
		a.third && a.intents&^(catFamily|catPet) != 0 && cats&a.intents&^(catFamily|catPet) == 0:
		return 0, false, false // "what do your parents do?" is not answered by "my parents are divorced"
	case a.strong && cats&catPlace != 0 && !f.tellsOrigin():
		return 0, false, false // "where did you grow up?" is not answered by where one lives now
	case a.intents&catPlace != 0 && !a.origin && f.tellsOrigin() && slices.Contains(a.qws, "now") && !strings.Contains(f.source, "moved to ") && !(strings.Contains(f.source, "moved from ") && strings.Contains(f.source, " to ")) && !f.hasWord(func(w string) bool { return w == "live" }):
		return 0, false, false // "where do you live now?" is not answered by "i was raised in new orleans"; "i moved to los angeles from georgia" and "i grew up in ohio but now live in phoenix" tell both
	}
	return cats, near, true
}

// rank scores how well fact f, of intents cats, answers the question:
// by the intents it shares, the words it speaks of, and what the
// question's shape asks for; ok is false when it does not answer at all.
func (a *asked) rank(f *fact, cats category, near bool) (score int, ok bool) {
	score = 3 * bits.OnesCount32(uint32(cats&a.intents))
	if score > 0 && f.wish && a.intents&catPlans == 0 {
		score-- // what one wants to be, after what one is
		if a.yesNo && a.intents&catJob != 0 {
			score-- // "are you working or in school?": the school one is at, before the work one hopes for
		}
	}
	if a.before && cats&catJob != 0 && f.pastWork() {
		score += 2 // "what did you do before?": "i was an opera singer before the war"
	}
	if a.day && cats&catJob != 0 {
		if f.pastWork() && cats&catHobby == 0 {
			return 0, false // "what keeps you busy?" is not "i retired from the fire department"
		}
		score += 2 // "what's a typical day like?": work fills most days
	}
	if a.intents&catHobby != 0 && cats&catHobby != 0 {
		if f.cats&catSpareTime != 0 {
			score += 2 // a pastime named as one
		} else if f.likes() {
			score++ // a pastime one likes, before a habit
		}
	}
	shared := 0
	for _, t := range a.topics {
		// A word of an intent the fact is not about is not shared: "where
		// do you live?" and "living the good life".
		if (t.cat == 0 || cats&t.cat != 0 || a.favourite || t.cat&catFamily == 0 && !f.wish && looseClasses.has(t.stem) && f.known.has(t.stem)) && f.speaksOf(t.stem) {
			score += 2
			if a.yesNo && t.cat != 0 {
				score++ // "do you play tennis?": "i teach tennis" before "i play pickleball"
			}
			if !light(t.stem) {
				shared++
			}
		}
	}
	if a.hates && a.intents == 0 {
		score += 2 // "any pet peeves?": any dislike
	}
	if slices.Contains(a.qws, "who") && f.kin != 0 && f.sharesWord(a.q) {
		score += 3 // "who taught you to cook?": "my abuela taught me all her recipes"
		for _, t := range a.topics {
			if f.speaksOf(t.stem) {
				score += 2 // "who taught you to knit?": the grandma who taught knitting, not the mom who taught sewing
			}
		}
	}
	if near && (shared == 0 || score < 5) {
		return 0, false // of the same intent and naming a thing of the question
	}
	if score > 0 && (sameVerb(f.verb, a.verb) || (a.verb == "like" || a.verb == "listen") && f.likes()) {
		score++ // "what music do you like?": a liking before a habit
	}
	if score > 0 && a.intents&catSport != 0 && slicesHasAny(a.qws, fanVerbs) && (f.fan() || f.likes() && f.hasWord(func(w string) bool { return w == "team" })) {
		score += 2 // "what team do you root for?": "my favorite nhl team is the bruins" before "i play goalie"
	}
	if a.intents == catPlace && slices.Contains(a.qws, "where") && !f.namesWhere() && livesWith(f.source) {
		score -= 3 // "where do you live?" is not "i live with my grandparents", which tells who
	}
	if a.intents&catPlace != 0 && !a.origin && f.tellsOrigin() {
		score-- // "where are you?": where one lives before where one is from
	} else if a.origin && cats&catPlace != 0 && f.tellsOrigin() {
		score++ // "where are you from?": "my family is back home in texas" before "i am stationed in germany"
	}
	ws := f.words
	if a.intents&catJob != 0 && slices.Contains(a.qws, "where") && f.tellsWhere() {
		score++ // "where do you work?": the job told with its place
	} else if a.intents&catJob != 0 && cats&catJob != 0 && !a.yesNo && !slicesHasAny(a.qws, businesses) && !slicesHasAny(a.qws, places) &&
		(a.verb == "" || a.verb == "do" || a.verb == "am") && f.namesOccupation() {
		score++ // "what is your profession?": the job named
	}
	if a.intents&catLanguage != 0 && cats&catPlace != 0 && !f.namesLanguage() && shared == 0 {
		score -= 2 // "do you speak other languages?": "i am learning german" before "i moved to berlin"
	}
	if a.howMany && slices.ContainsFunc(ws, isNumber) {
		score++ // "how many kids do you have?": the fact that counts them
		for i := 1; i < len(ws); i++ {
			if isNumber(ws[i-1]) && a.qkin&(1<<kin[ws[i]]) != 0 {
				score++ // "i have two sons and a daughter" before "…with my kids"
				break
			}
		}
	}
	if len(a.tail) > 0 && hasRun(ws, a.tail) {
		score += 2 // "do you work from home?": "i work from home three days a week" before "i work on the help desk"
	}
	if a.pastTense && a.verb == "study" && cats&catStudy != 0 && f.hasWord(studiedWords.has) {
		score++ // "what did you study?": "i have a degree in art history" before "i am paying off my student loans"
	}
	if a.hours && f.tellsHours() {
		score += 4 // "what are your hours like?": "i work night shifts as a nurse", "i am in meetings from nine to five" before the job itself
	}
	if a.howLong && a.intents&catJob != 0 && cats&(notWork|catPlace) == 0 && lasting(ws) != "" {
		score += 3 // "how long have you worked there?": "i have walked the same route for nine years"
	}
	if a.howLong && slicesHasAny(ws, durations) {
		score++ // "how long have you been a cop?": "for twelve years"
	}
	if a.intents&catHobby != 0 && len(a.times) > 0 && slices.ContainsFunc(timesOf(ws), func(t string) bool { return slices.Contains(a.times, t) }) {
		score += 2 // "what do you do before bed?": "i read mystery novels before bed"
	}
	if a.intents == catJob && a.yesNo && (f.verb == "work" || f.verb == "works") {
		score++ // "do you have a job?": "i work at a pizza place" before a team one plays on
	}
	if a.intents&catJob != 0 && !a.yesNo && a.verb != "like" && !f.namesOccupation() && f.hasWord(feelings.has) {
		score -= 2 // "what's your job?": the job, before "my job is stressful so i do puzzles"
	}
	if a.intents&catHobby != 0 && a.intents&catRhythm == 0 && cats&catRhythm != 0 && f.cats&catSpareTime == 0 {
		score -= 2 // "any hobbies?": not "i get up at 3 am every day to bake bread"
	}
	if slices.Contains(a.qws, "still") && !a.pastTense && (pastVerbs.has(f.verb) || strings.HasSuffix(f.verb, "ed")) && !slices.Contains(ws, "still") {
		score -= 2 // "do you still play music?": "i still play the drums", before "i played in a band in the seventies"
	}
	if a.intents&catHobby != 0 && a.intents&catJob == 0 && cats&catJob != 0 && f.cats&catSpareTime == 0 {
		score-- // "how do you spend your free time?": a pastime before a game played professionally
	}
	if a.intents&catSport != 0 && a.intents&catJob == 0 && cats&catJob != 0 && f.cats&catSpareTime == 0 {
		score-- // "do you exercise?": the gym before the lifeguard job
	}
	if a.intents&catTravel != 0 && a.intents&catJob == 0 && cats&catJob != 0 {
		score-- // "do you travel a lot?": travels told before a job that travels
	}
	if a.intents&catCar != 0 && a.intents&catJob == 0 && cats&catJob != 0 && !commutes(ws) && score > 2 {
		score = max(score-3, 2) // "what car do you drive?": one's own truck before the snowplow one drives for the city, which still answers
	}
	if a.intents&catPlans != 0 && (f.wish || f.cats&catPlans != 0) {
		score += 2 // "what do you want to do after school?": what one hopes for, before the school one is at
	}
	if a.pastTense && strings.Contains(f.source, "used to ") {
		score++ // "what did you used to do?"
	}
	if a.origin && cats&catPlace != 0 && slicesHasAny(ws, birthWords) {
		score += 2 // "where are you from?": "i was born in odessa" before "i am a translator in lisbon"
	}
	if a.origin && cats&catPlace != 0 && slices.ContainsFunc(ws, originPlaces.has) {
		score++ // "where are you from?": "i moved to this country", before "i moved into my first home"
	}
	if a.intents&catPet != 0 && cats&catPet != 0 && haveVerbs.has(f.verb) {
		score++ // "any pets?": "i have two dachshunds" before "i knit sweaters for my dogs"
	}
	if len(a.yours) > 0 && len(ws) > 1 && ws[0] == "my" && stem(ws[1]) == a.yours[0] && a.intents&catJob != 0 {
		score++ // "what does your wife do?": "my wife flies planes", before "i stay home while my wife works"
	}
	if a.qkin != 0 && a.qkin&kinOf(ws[1:]) != 0 {
		score++ // "any kids?": "i have twin daughters" before "i am a dad"
		if a.verb == "have" && !a.grand && (hasKin(ws, a.qkin) || a.qkin&(1<<kinChildren) != 0 && saysParent(ws, false)) {
			score += 2 // "do you have kids?": "we have three boys" or "i am a mom of three" before "my kids call my van the bathtub"
		}
	}
	if near {
		score -= 100 // after every fact that covers the question
	}
	if score < 2 && !near {
		return 0, false
	}
	// "do you work?" is answered by "i used to be a chef" only after what
	// one does now.
	if strings.Contains(f.source, "used to ") && !strings.Contains(f.source, " now ") && !a.pastTense {
		score -= 2
	}
	if a.intents&catJob != 0 && !a.pastTense && !a.yesNo && slices.Contains(ws, "retired") {
		score -= 2 // "what do you do?": what one does now, before a job one retired from
	}
	return score, true
}

// animalPlaces keep animals that are not one's own.
var animalPlaces = newSet("shelter shelters zoo sanctuary clinic aquarium salon")

// studiesNow reports a fact of studies one is at now ("i am in medical
// school", "i study law"), not one left ("i dropped out of college").
func studiesNow(f *fact) bool {
	ws := f.words
	v := 1 + adverbsAt(ws, 1)
	return len(ws) > v && ws[0] == "i" && studyVerbs.has(ws[v])
}

var studyVerbs = newSet("am study attend go major")

// hasWord reports a word of fact f's sentence that is, by is, without
// splitting the sentence into a slice: it runs for every fact on the
// per-message path.
func (f *fact) hasWord(is func(string) bool) bool {
	for _, w := range f.words {
		if is(w) {
			return true
		}
	}
	return false
}
