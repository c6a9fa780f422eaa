package offline

import "strings"

// What a question asks about: its intents, read off its words and the
// phrases that ask ("what do you do for a living?", "who do you live
// with?"), and what one does away from work.

// besides are the words after which a question names what it does not
// ask about: "any hobbies besides your job?".
var besides = newSet("besides except apart aside")

// questionIntents returns what question q asks about.
func questionIntents(q *text) category {
	var c category
	padded := chatNorm(q)
	for w := range strings.FieldsSeq(padded) {
		for _, p := range intentPhrasesByWord[w] {
			if strings.Contains(padded, p.phrase) {
				c |= p.cat
			}
		}
	}
	c |= knownIntents(padded)
	thing := false // a game named: "do you play chess?"
	for i, w := range q.words {
		if besides.has(w.low) || w.low == "other" && i+1 < len(q.words) && q.words[i+1].low == "than" {
			break
		}
		c |= wordIntent(q, i)
		thing = thing || gameWords.has(w.low)
	}
	// "where did you grow up?"; "what does your wife do?"; "what do you
	// do on weekends?" asks about pastimes, not work.
	if strings.Contains(padded, " grow up ") && strings.Contains(padded, " where ") {
		c |= catPlace
	}
	if strings.HasSuffix(padded, " like to do ") || strings.HasSuffix(padded, " love to do ") {
		c = c&^catJob | catHobby // "what do you like to do?" asks about pastimes
	} else if strings.HasSuffix(padded, " do ") && (strings.Contains(padded, " what does ") || strings.Contains(padded, " what do ") || strings.Contains(padded, " what did ")) {
		c |= catJob
	} else if c&catHobby != 0 && !hasIntentWord(q, catJob) {
		c &^= catJob
	}
	// "what do you do to relax?", "what do you do at night?": pastimes.
	if _, rest, ok := strings.Cut(padded, " what do you do "); ok && rest != "" && !hasIntentWord(q, catJob) && !asksLiving(padded) &&
		!jobTimes.has(strings.Fields(rest)[0]) && c&^(catJob|catHobby) == 0 {
		c = c&^catJob | catHobby
	}
	// "what do you do when you're not working?", "…before bed?",
	// "…while driving?": pastimes, not work.
	if offWork(padded) {
		c = c&^(catJob|catCar) | catHobby
	}
	if strings.Contains(padded, " who taught ") || strings.Contains(padded, " who got you into ") || strings.Contains(padded, " who introduced you ") {
		c = c&^catJob | catFamily // "who taught you to cook?" asks who, most often a relative
	}
	if strings.Contains(padded, " get to work ") || strings.Contains(padded, " get around ") || strings.Contains(padded, " commute ") {
		c = c&^catJob | catCar // "how do you get to work?" asks how one travels
	}
	if c&catRhythm != 0 || strings.Contains(padded, " pet peeve") {
		c &^= catPet // "are you an early bird?", "a night owl?", "any pet peeves?": no animal
	}
	// "which sports are you into?" asks about sports, not any pastime.
	if c&kinds != 0 && !thing {
		c &^= catHobby
	}
	// "for a living" is about work, not about where one lives; "where do
	// you work?" and "where do you study?" ask about work and studies,
	// not a place.
	if c&(catJob|catStudy) != 0 && !strings.Contains(padded, " live ") && !strings.Contains(padded, " from ") {
		c &^= catPlace
	}
	if strings.HasPrefix(padded, " who ") && strings.Contains(padded, " raised ") {
		c &^= catPlace // "who raised you?" asks who, not where
	}
	if offersChoice(strings.Fields(padded), genderWords) {
		c |= catLooks // "are you a guy or a girl?"
	}
	if strings.Contains(padded, " live with ") {
		c = c&^catPlace | catFamily // "who do you live with?" asks who, not where
	}
	if strings.Contains(padded, " live together ") && strings.Contains(padded, " your ") {
		c = c&^catPlace | catFamily // "do your parents live together?" asks about the couple, not where
	}
	if strings.Contains(padded, " live alone ") || strings.Contains(padded, " live by yourself ") {
		c |= catFamily // who one lives with, as well as where: "i have lived alone since my wife died"
	}
	if c&catAge != 0 && (strings.Contains(padded, " your dog") || strings.Contains(padded, " your kids") || strings.Contains(padded, " your son") || strings.Contains(padded, " your daughter")) {
		c &^= catAge // "how old is your dog?" is about the dog
	}
	if d := dayIntents(padded); d != 0 {
		c = c&^catLooks | d // "what does a workday look like?" asks what one does, not how one looks
	}
	if _, rest, ok := strings.Cut(padded, " like where "); ok && strings.HasPrefix(padded, " what") && c&^catPlace != 0 && !strings.Contains(rest, " where ") {
		c &^= catPlace // "what's the food like where you're from?" asks about the food
	}
	return c
}

// dayIntents is what a question about one's days asks: "what's a normal
// day like for you?" asks about work and pastimes, "what does a workday
// look like?" about work.
func dayIntents(padded string) category {
	if strings.Contains(padded, " day off ") || strings.Contains(padded, " days off ") {
		return 0 // "what do you do on your days off?": pastimes
	}
	for _, p := range []string{" workday ", " work day ", " working day ", " shift like ", " job like "} {
		if strings.Contains(padded, p) {
			return catJob
		}
	}
	for _, p := range []string{" normal day ", " typical day ", " usual day ", " average day ", " regular day ", " spend your days ",
		" spend your day ", " do all day ", " keeps you busy ", " keep you busy ", " daily routine ", " day to day ", " day like for you ", " days like ", " with your days ",
		" fills your days ", " fill your days ", " fills your time ", " fill your time "} {
		if strings.Contains(padded, p) {
			return catJob | catHobby
		}
	}
	return 0
}

// offWork reports a question about what one does away from work or at a
// time of one's day: "what do you do after work?", "what do you do
// before bed?", "how do you pass the time while driving?".
func offWork(padded string) bool {
	for _, p := range offWorkPhrases {
		if strings.Contains(padded, p) {
			return true
		}
	}
	ws := strings.Fields(padded)
	n := len(ws)
	return n >= 2 && (ws[n-2] == "before" || ws[n-2] == "after" || ws[n-2] == "while") && dailyTimes.has(ws[n-1]) &&
		(strings.Contains(padded, " you do ") || strings.Contains(padded, " pass the time ") || strings.Contains(padded, " you usually do "))
}

var offWorkPhrases = []string{" not working ", " not at work ", " outside of work ", " outside work ", " after work ", " before work ",
	" off work ", " besides work ", " apart from work ", " other than work ", " away from work "}

// dailyTimes end a time of one's day: "before bed", "while driving".
var dailyTimes = newSet("bed sleep breakfast lunch dinner school class church driving commuting cooking")

// asksLiving reports a phrase that asks about work beyond "what do you
// do": "what do you do to pay the bills?".
func asksLiving(padded string) bool {
	for _, p := range intentPhrases {
		if p.cat&catJob != 0 && !strings.HasPrefix(p.phrase, " what do ") && strings.Contains(padded, p.phrase) {
			return true
		}
	}
	return false
}

// genderWords name one as a man or a woman: "are you a guy or a girl?",
// "i am a woman".
var genderWords = newSet("male female man woman guy girl boy lady")

// jobTimes follow "what do you do" asking about work: "for a living",
// "now", "these days".
var jobTimes = newSet("for now nowadays these exactly then though all")

// wordIntent is what the i-th word of question q is about where it
// stands: "chinese" in "chinese food" is no language, "fish" in "do you
// like to fish?" no pet.
func wordIntent(q *text, i int) category {
	w := chatSpelling(q.words[i].low) // "your hubby", "your bf"
	c := intentOf(w)
	if c == 0 {
		return 0
	}
	if i+1 < len(q.words) && langAdjective(w, q.words[i+1].low) {
		c &^= catLanguage
	}
	if i > 0 && (q.words[i-1].low == "to" || chatSpelling(q.words[i-1].low) == "you") || i > 1 && q.words[i-1].low == "or" && asksWith(q, i-2) {
		c &^= catPet // "do you like to fish?", "do you fish?", "do you hunt or fish?"
	}
	if c&catJob != 0 && i+1 < len(q.words) && q.words[i+1].low == "out" {
		c = catSport // "do you work out?"
	}
	return c
}

// hasIntentWord reports a word of q about intent c.
func hasIntentWord(q *text, c category) bool {
	for _, w := range q.words {
		if intentOf(w.low)&c != 0 {
			return true
		}
	}
	return false
}
