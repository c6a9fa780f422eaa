package offline

import (
	"math/bits"
	"slices"
	"strings"
)

// greets reports a message that only says hello.
func greets(t *text) bool {
	if len(t.words) == 0 || len(t.words) > 3 {
		return false
	}
	for _, w := range t.words {
		if !greetingWords.has(w.low) {
			return false
		}
	}
	return true
}

var greetingWords = newSet("hi hello hey hiya yo there man dude everyone all good morning evening afternoon")

// asksUnmarked reports a question typed without its question mark, as
// chat partners often do: "where u from", "wat do u do", "r u married",
// "any pets". Its first word, after a filler ("so", "ok"), opens a
// question in chat spelling, or it is "any" and a short thing.
func asksUnmarked(t *text) bool {
	ws := t.words
	for len(ws) > 1 && fillers.has(ws[0].low) {
		ws = ws[1:]
	}
	if len(ws) < 2 {
		return false
	}
	first, next := chatSpelling(ws[0].low), chatSpelling(ws[1].low)
	if first == "any" || first == "got" || first == "you" && (next == "got" || next == "have") || strings.HasPrefix(first, "fav") {
		return len(ws) <= 4 && (ws[1].content || ws[1].low == "any") // "any pets", "fav food", "got any pets"
	}
	if first == "where" && next == "you" {
		return true // "where u from"
	}
	return questionStart(first, next)
}

// fillers open a message before what it says.
var fillers = newSet("so and ok okay well oh cool nice lol haha hmm but aww aw omg wow ah ahh")

// chatSpelling is the standard spelling of a word spelt as in chat: "u",
// "ur", "r", "wat".
func chatSpelling(w string) string {
	if s, ok := chatWords[w]; ok {
		return s
	}
	return w
}

var chatWords = map[string]string{"u": "you", "ya": "you", "ur": "your", "r": "are", "wat": "what", "wut": "what",
	"whats": "what's", "wats": "what's", "wheres": "where's", "hows": "how's", "whos": "who's", "wht": "what",
	"where'd": "where", "hubby": "husband", "wifey": "wife"}

// chatNorm is the normalised text of t in standard spelling, padded with
// spaces, for looking up phrases: "wat do u do" is " what do you do ".
func chatNorm(t *text) string {
	var b strings.Builder
	b.WriteByte(' ')
	for _, w := range t.words {
		b.WriteString(chatSpelling(w.low))
		b.WriteByte(' ')
	}
	return b.String()
}

// withAntecedent returns question sentence qs of message msg with a
// last word that stands for a thing the message named before it replaced
// by that thing: "oh i love dogs! do you have one?" asks "do you have
// dogs?".
func withAntecedent(msg *text, qs string) string {
	// "i have two dogs, do you have any pets?": the question after the comma.
	if i := strings.LastIndex(qs, ", "); i > 0 {
		if rest := qs[i+2:]; startsQuestion(analyze(rest)) {
			msg, qs = analyze(qs[:i]+". "+rest), rest
		}
	}
	body := strings.TrimRight(qs, "?!. ")
	// "i love seafood, do you?" asks "do you love seafood?".
	if b := strings.ToLower(body); (b == "do you" || b == "do u") && len(msg.sentences) > 1 {
		for _, s := range msg.sentences {
			if rest, ok := strings.CutPrefix(strings.ToLower(strings.TrimRight(s, "?!., ")), "i "); ok && s != qs {
				return "do you " + rest + "?"
			}
		}
	}
	last := body[strings.LastIndexByte(body, ' ')+1:]
	if !standIns.has(strings.ToLower(last)) || len(msg.sentences) < 2 {
		return qs
	}
	for i := len(msg.sentences) - 1; i >= 0; i-- {
		if msg.sentences[i] == qs {
			continue
		}
		lead := analyze(msg.sentences[i])
		for j := len(lead.words) - 1; j >= 0; j-- {
			if w := lead.words[j]; w.content && intentOf(w.low) != 0 {
				return strings.TrimSuffix(body, last) + w.low + "?"
			}
		}
	}
	return qs
}

// standIns stand for a thing named before: "do you have one?".
var standIns = newSet("one any them it some")

// asksHowAreYou reports a greeting question ("how are you?", "how's it
// going?").
func asksHowAreYou(t *text) bool {
	n := " " + t.norm
	return strings.Contains(n, " how are you") || strings.Contains(n, " how r u") ||
		strings.Contains(n, " how are u") || strings.Contains(n, " how is it going") ||
		strings.Contains(n, " how's it going") || strings.Contains(n, " how you doing") ||
		strings.Contains(n, " what's up") || strings.Contains(n, " how're you") ||
		strings.Contains(n, " how are ya") ||
		(t.question && (strings.Contains(n, "how about you") || strings.HasSuffix(n, "and you")) &&
			(strings.Contains(n, "good") || strings.Contains(n, "fine") || strings.Contains(n, "well") || strings.Contains(n, "great")))
}

// answers returns the facts that answer question q, best first: those
// about what q asks (its intents), then those sharing its topic words; a
// wish ("i want to be a lawyer") only after a fact of the same intent. A
// question about a favourite is answered only by a liking, and a yes/no
// question only by a fact that speaks of each thing it names (covers).
func (pr *profile) answers(q *text) []int {
	intents := questionIntents(q)
	yesNo := asksYesNo(q)
	favourite := asksFavourite(q)
	verb := questionVerb(q)
	// The question's own words, those whose intent it does not ask about
	// left out ("living" in "what do you do for a living").
	type topic struct {
		stem string
		cat  category
	}
	var qws []string
	var topics []topic
	for i, w := range q.words {
		qws = append(qws, w.low)
		if c := wordIntent(q, i); w.content && !w.generic && (c == 0 || c&intents != 0) && !slices.Contains(topics, topic{w.stem, c}) {
			topics = append(topics, topic{w.stem, c})
		}
	}
	if strings.Contains(" "+q.norm+" ", " time of year ") {
		topics = append(topics, topic{"season", 0}) // "your favorite time of year?": a season
	}
	qkin := kinOf(qws)
	if asksParent(q) {
		qkin = 1 << kinChildren // "are you a parent?", "are you a mom?"
	}
	if strings.Contains(chatNorm(q), " significant other ") || strings.Contains(chatNorm(q), " special someone ") || strings.Contains(chatNorm(q), " love life ") {
		qkin |= 1 << kinMarried
	}
	yours := yourKin(q)
	name, age := asksName(q), strings.Contains(" "+q.norm+" ", " how old ")
	origin := intents&catPlace != 0 && slices.ContainsFunc(qws, originWords.has)
	type scored struct{ fact, score int }
	var out []scored
	for i := range pr.facts {
		f := &pr.facts[i]
		cats := f.intents()
		if qkin != 0 && qkin&f.kin == 0 {
			cats &^= catFamily // "any kids?" is not answered by a sister, nor by "my family and i…"
		}
		if qkin&f.kin == 0 && aboutOther(f.source) {
			cats &= catFamily // "my dad is a chef" tells of the family, not of one's job
		}
		if (f.wish || f.cats&catPlans != 0 && cats&catPlace == 0) && intents&catPlans == 0 && (verb == "have" || intents&catPlace != 0) {
			continue // "what dog do you have?" is not answered by "i want to be a dog", nor "where are you from?" by a move one hopes for
		}
		if favourite && !f.likes() || name && !f.tellsName() || age && !f.tellsAge() || !f.tellsOf(yours) {
			continue
		}
		// A fact that speaks of some of what a yes/no question names but
		// not of all answers it after those that do, told as it is: "do
		// you ride a motorcycle?" "I have a motorcycle."
		near := yesNo && !f.covers(q, cats, verb)
		if near && !f.namesThings(q) {
			continue
		}
		if intents&catJob != 0 && verb == "work" && cats&catJob == 0 {
			continue // "do you work in a restaurant?" is answered by a job
		}
		if slices.Contains(qws, "live") && cats&catPlace != 0 && f.onlyPeople() {
			continue // "what city do you live in?" is not answered by "i am korean american"
		}
		if aboutOther(f.source) && qkin != 0 && qkin&f.subjectKin() == 0 {
			continue // "do you have a boyfriend?" is not answered by "my parents are divorced"
		}
		if len(yours) > 0 && cats&catStudy != 0 {
			cats |= catJob // "what does your son do?": "my son is in college"
		}
		if len(yours) > 0 && intents&^catFamily != 0 && cats&intents&^catFamily == 0 {
			continue // "what do your parents do?" is not answered by "my parents are divorced"
		}
		score := 3 * bits.OnesCount32(uint32(cats&intents))
		if score > 0 && f.wish && intents&catPlans == 0 {
			score-- // what one wants to be, after what one is
		}
		if intents&catHobby != 0 && cats&catHobby != 0 {
			if f.cats&catSpareTime != 0 {
				score += 2 // a pastime named as one
			} else if f.likes() {
				score++ // a pastime one likes, before a habit
			}
		}
		shared := 0
		for _, t := range topics {
			// A word of an intent the fact is not about is not shared:
			// "where do you live?" and "living the good life".
			if (t.cat == 0 || cats&t.cat != 0) && f.speaksOf(t.stem) {
				score += 2
				if !light(t.stem) {
					shared++
				}
			}
		}
		if near && (shared == 0 || score < 5) {
			continue // of the same intent and naming a thing of the question
		}
		if score > 0 && (sameVerb(f.verb, verb) || verb == "like" && f.likes()) {
			score++ // "what music do you like?": a liking before a habit
		}
		if strongOrigin(qws) && cats&catPlace != 0 && !f.tellsOrigin() {
			continue // "where did you grow up?" is not answered by where one lives now
		}
		if intents&catPlace != 0 && !origin && f.tellsOrigin() {
			if slices.Contains(qws, "now") && !strings.Contains(f.source, "moved to ") { // "i moved to los angeles from georgia" tells both
				continue // "where do you live now?" is not answered by "i was raised in new orleans"
			}
			score-- // "where are you?": where one lives before where one is from
		}
		if intents&catJob != 0 && slices.Contains(qws, "where") && f.tellsWhere() {
			score++ // "where do you work?": the job told with its place
		} else if intents&catJob != 0 && cats&catJob != 0 && !yesNo && !slicesHasAny(qws, businesses) && !slicesHasAny(qws, places) &&
			(verb == "" || verb == "do" || verb == "am") && f.namesOccupation() {
			score++ // "what is your profession?": the job named
		}
		if intents&catLanguage != 0 && cats&catPlace != 0 && !f.namesLanguage() && shared == 0 {
			score -= 2 // "do you speak other languages?": "i am learning german" before "i moved to berlin"
		}
		if strings.Contains(" "+q.norm+" ", " how many ") && slices.ContainsFunc(strings.Fields(f.source), isNumber) {
			score++ // "how many kids do you have?": the fact that counts them
		}
		if strings.Contains(" "+q.norm+" ", " how long ") && slicesHasAny(strings.Fields(f.source), durations) {
			score++ // "how long have you been a cop?": "for twelve years"
		}
		if intents&catTravel != 0 && intents&catJob == 0 && cats&catJob != 0 {
			score-- // "do you travel a lot?": travels told before a job that travels
		}
		if asksPastTense(q) && strings.Contains(f.source, "used to ") {
			score++ // "what did you used to do?"
		}
		if origin && cats&catPlace != 0 && slices.ContainsFunc(strings.Fields(f.source), originPlaces.has) {
			score++ // "where are you from?": "i moved to this country", before "i moved into my first home"
		}
		if qkin&kinOf(strings.Fields(f.source)[1:]) != 0 {
			score++ // "any kids?": "i have twin daughters" before "i am a dad"
		}
		// "do you work?" is answered by "i used to be a chef" only after
		// what one does now.
		past := strings.Contains(f.source, "used to ") && !strings.Contains(f.source, " now ") && !asksPastTense(q)
		if near {
			score -= 100 // after every fact that covers the question
		}
		if score >= 2 || near {
			if past {
				score -= 2
			}
			out = append(out, scored{i, score})
		}
	}
	slices.SortStableFunc(out, func(a, b scored) int { return b.score - a.score })
	best := make([]int, len(out))
	for i, s := range out {
		best[i] = s.fact
	}
	return best
}

// strongOrigin reports a question about where one grew up or was born,
// not where one is ("where are you from?" is answered by either).
func strongOrigin(qws []string) bool {
	return slices.ContainsFunc(qws, func(w string) bool { return originWords.has(w) && w != "from" })
}

// originWords ask where one comes from; places name where one may.
var (
	originWords  = newSet("from born grew grow raised hometown originally")
	originPlaces = newSet("country city town state village island hometown from born grew raised")
)

// asksPastTense reports a question about the past: "what did you do?",
// "were you in the army?".
func asksPastTense(q *text) bool {
	for _, w := range q.words {
		if pastMarks.has(w.low) {
			return true
		}
	}
	return false
}

var pastMarks = newSet("did was were used before retired ago")

// namesThings reports whether fact f speaks of each thing yes/no question
// q names, by its word, leaving out the verb it asks with: "do you
// speak spanish?" and "one of the languages i am studying is spanish",
// but not "have you attended music school?" and "i can't stand school".
func (f *fact) namesThings(q *text) bool {
	for i, w := range q.words {
		if !w.content || w.generic || light(w.low) || f.speaksOf(w.stem) || f.speaksOfOther(q, i) || cuisine(q, i) {
			continue
		}
		if asksWith(q, i) || categoryNames.has(w.low) && f.intents()&wordIntent(q, i) != 0 {
			continue // the verb: "do you ride a motorcycle?", "do you like to learn languages?"; "any other languages?"
		}
		return false
	}
	return true
}

// spellings pair the British and American spellings profiles and
// partners mix: a question about the "colour" is answered by the "color".
var spellings = map[string]string{"fall": "autumn", "autumn": "fall", "frat": "fraternity", "whiskey": "whisky", "whisky": "whiskey", "colour": "color", "color": "colour", "favourite": "favorite", "favorite": "favourite",
	"colours": "colors", "colors": "colours", "theatre": "theater", "theater": "theatre"}
