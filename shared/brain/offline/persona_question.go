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
	qkin := kinOf(qws)
	yours := yourKin(q)
	name, age := asksName(q), strings.Contains(" "+q.norm+" ", " how old ")
	type scored struct{ fact, score int }
	var out []scored
	for i := range pr.facts {
		f := &pr.facts[i]
		cats := f.intents()
		if qkin != 0 && f.kin != 0 && qkin&f.kin == 0 {
			cats &^= catFamily // "any kids?" is not answered by a sister
		}
		if qkin&f.kin == 0 && aboutOther(f.source) {
			cats &= catFamily // "my dad is a chef" tells of the family, not of one's job
		}
		if favourite && !f.likes() || yesNo && !f.covers(q, cats, verb) ||
			name && !f.tellsName() || age && !f.tellsAge() || !f.tellsOf(yours) {
			continue
		}
		if len(yours) > 0 && intents&^catFamily != 0 && cats&intents&^catFamily == 0 {
			continue // "what do your parents do?" is not answered by "my parents are divorced"
		}
		score := 3 * bits.OnesCount32(uint32(cats&intents))
		if score > 0 && f.wish && intents&catPlans == 0 {
			score-- // what one wants to be, after what one is
		}
		if score > 0 && intents&catHobby != 0 && f.cats&catSpareTime != 0 {
			score++ // a pastime named as one
		}
		for _, t := range topics {
			// A word of an intent the fact is not about is not shared:
			// "where do you live?" and "living the good life".
			if (t.cat == 0 || cats&t.cat != 0) && (f.stems.has(t.stem) || f.stems.has(spellings[t.stem])) {
				score += 2
			}
		}
		if score > 0 && sameVerb(f.verb, verb) {
			score++
		}
		if score >= 2 {
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

// yourKin returns the stems of the relatives question q asks about by
// "your": "what does your dad do?", "how old is your little brother?".
func yourKin(q *text) []string {
	var out []string
	for i, w := range q.words {
		if w.low != "your" && w.low != "ur" {
			continue
		}
		for j := i + 1; j < min(i+3, len(q.words)); j++ {
			if kin[q.words[j].low] > 0 {
				out = append(out, q.words[j].stem)
				break
			}
		}
	}
	return out
}

// tellsOf reports whether fact f speaks of one of the relatives kin
// (yourKin) by name, or is about a relative of the same kind: "what
// about your mom?" is not answered by "i am a stay at home dad".
func (f *fact) tellsOf(kinStems []string) bool {
	if len(kinStems) == 0 {
		return true
	}
	for _, st := range kinStems {
		if f.stems.has(st) || f.stems.has(kinSynonyms[st]) || kinWhole.has(st) && aboutOther(f.source) && f.kin&(1<<kin[st]) != 0 {
			return true
		}
	}
	return false
}

// kinSynonyms pair the words for the same relative.
var kinSynonyms = map[string]string{"mom": "mother", "mother": "mom", "dad": "father", "father": "dad",
	"grandma": "grandmother", "grandmother": "grandma", "grandpa": "grandfather", "grandfather": "grandpa",
	"kid": "child", "child": "kid"}

// kinWhole name every relative of a kind: "your parents" are spoken of
// by "my dad…".
var kinWhole = newSet(stemAll("parents parent siblings sibling kids children"))

// stemAll returns the stems of the words of s, space-separated.
func stemAll(s string) string {
	var out []string
	for w := range strings.FieldsSeq(s) {
		out = append(out, stem(w))
	}
	return strings.Join(out, " ")
}

// asksName reports a question about a name: "what is your dog's name?",
// "how do you call your cat?".
func asksName(q *text) bool {
	for _, w := range q.words {
		if nameWords.has(w.low) {
			return true
		}
	}
	return false
}

var nameWords = newSet("name names named call called")

// tellsName reports a fact that gives a name: "my cat is named tom".
func (f *fact) tellsName() bool {
	for w := range strings.FieldsSeq(f.source) {
		if nameWords.has(w) {
			return true
		}
	}
	return false
}

// tellsAge reports a fact that gives an age: "i am 19", "my dog is old",
// "she turned five"; not a count ("two cats").
func (f *fact) tellsAge() bool {
	prev := ""
	for w := range strings.FieldsSeq(f.source) {
		if ageWords.has(w) || isNumber(w) && (prev == "am" || prev == "is" || prev == "turned" || prev == "aged") {
			return true
		}
		prev = w
	}
	return false
}

var ageWords = newSet("old older young younger age years teen teenager teens baby retired")

// questionVerb is the verb a question asks with, the verbs of liking as
// "like": "do you have…" is best answered by "i have…", "are you…" by
// "i am…".
func questionVerb(q *text) string {
	for i := 0; i+1 < len(q.words); i++ {
		if w := q.words[i].low; w == "you" || w == "u" {
			next := q.words[i+1].low
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
		if whWords.has(w.low) || w.low == "tell" && i+1 < len(q.words) && q.words[i+1].low == "me" {
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
	for w := range strings.FieldsSeq(f.source) {
		if strings.HasPrefix(w, "fav") || fanWords.has(w) || w == "passion" || w == "lover" || w == "obsessed" {
			return true
		}
	}
	return false
}

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
		if !w.content || w.generic || light(w.low) {
			continue
		}
		c := wordIntent(q, i)
		switch {
		case f.stems.has(w.stem) || f.stems.has(spellings[w.stem]) || f.hasDigitStem(w.stem):
		case categoryNames.has(w.low) && cats&c != 0:
		case kin[w.low] > 0 && f.kin&(1<<kin[w.low]) != 0:
		case c&cats&kinds != 0 && f.verb != "" && (verb != "am" || f.verb == "am"): // "are you a vegan?" "I'm a vegetarian."
		case c&cats&catPlace != 0 && sameVerb(f.verb, verb): // "are you living in an apartment?" "I live in the city."
		case c == 0 && verbish(w.low):
		default:
			return false
		}
	}
	return true
}

// kinds are the intents whose things are of a kind, so that one answers a
// yes/no question about another: "do you play tennis?" "I play soccer."
// A pastime, a job or a place is not one of a kind.
const kinds = catPet | catSport | catMusic | catFood | catDrink | catLanguage | catCar | catBooks | catFilms

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
var lightWords = newSet(`play plays go goes get got make take use know want think try ever listen
lover lovers fan fans person people kind type sort lot lots thing things much many`)

// confirms reports whether fact f says yes to yes/no question q: it
// shares one of the question's own topic words, not only what it is
// about ("are you a vegan?" is not confirmed by "pizza is my top food").
func (f *fact) confirms(q *text) bool {
	for _, w := range q.words {
		if w.content && !w.generic && (f.stems.has(w.stem) || f.stems.has(spellings[w.stem])) {
			return true
		}
		// "any pets?" is confirmed by the horses: the word names the
		// whole intent.
		if categoryNames.has(w.low) && f.cats&intentWords[w.low] != 0 {
			return true
		}
	}
	return false
}

// spellings pair the British and American spellings profiles and
// partners mix: a question about the "colour" is answered by the "color".
var spellings = map[string]string{"colour": "color", "color": "colour", "favourite": "favorite", "favorite": "favourite",
	"colours": "colors", "colors": "colours", "theatre": "theater", "theater": "theatre"}

// noFactLeads answer a question about something the profile does not
// cover without committing the bot: "what's your favourite food?" gets
// "Hard to pick a favourite food, honestly."; "do you like music?" gets
// "I don't mind music, I guess."
func noFactLeads(q *text, yesNo bool) []string {
	for i, w := range q.words {
		if (w.low == "favorite" || w.low == "favourite") && i+1 < len(q.words) && q.words[i+1].content {
			thing := q.words[i+1].low
			return []string{"Hard to pick a favourite " + thing + ", honestly.", "I don't really have a favourite " + thing + "."}
		}
	}
	padded := " " + q.norm + " "
	for _, e := range evasions {
		if strings.Contains(padded, e.asks) {
			return e.leads
		}
	}
	if !yesNo || !strings.Contains(q.norm, "you like") && !strings.Contains(q.norm, "you enjoy") && !strings.Contains(q.norm, "you love") {
		return nil
	}
	// "do you like alcohol?": the thing liked is the question's last word.
	if n := len(q.words); n >= 4 {
		if w := q.words[n-1]; w.content && !w.generic && !verbish(w.low) && !w.proper {
			return []string{"I don't mind " + w.low + ", I guess.", firstLetterUpper(w.low) + "? Not something I think about much."}
		}
	}
	return nil
}

// evasions answer common questions about the bot that a profile rarely
// covers, without committing it to anything.
var evasions = []struct {
	asks  string // in the normalised question, spaces around
	leads []string
}{
	{" how old ", []string{"Old enough to know better!", "Older than I look, ha!"}},
	{" you a bot ", []string{"Ha, why do you ask?", "What makes you ask that?"}},
	{" you a robot ", []string{"Ha, why do you ask?", "What makes you ask that?"}},
	{" you human ", []string{"Ha, why do you ask?", "What makes you ask that?"}},
	{" male or female ", []string{"Does it matter? Let's keep it a mystery.", "I'd rather keep that a mystery."}},
	{" or a guy ", []string{"Does it matter? Let's keep it a mystery.", "I'd rather keep that a mystery."}},
	{" or a girl ", []string{"Does it matter? Let's keep it a mystery.", "I'd rather keep that a mystery."}},
	{" who are you ", []string{"Just someone who likes a good chat.", "Someone who enjoys meeting new people."}},
	{" your job ", []string{"I'd rather talk about something more fun than work!", "Work? Let's save that for later."}},
	{" do for a living ", []string{"I'd rather talk about something more fun than work!", "Work? Let's save that for later."}},
	{" your hobby ", []string{"Oh, a bit of this and that.", "Nothing special, a bit of everything."}},
	{" your hobbies ", []string{"Oh, a bit of this and that.", "Nothing special, a bit of everything."}},
	{" how was your day ", []string{"Pretty relaxed, thanks!", "Not bad at all, thanks!"}},
	{" how is your day ", []string{"Pretty relaxed, thanks!", "Not bad at all, thanks!"}},
	{" how's your day ", []string{"Pretty relaxed, thanks!", "Not bad at all, thanks!"}},
	{" where do you live ", []string{"I'd rather not say exactly where, to be honest.", "Ha, I keep that one to myself."}},
	{" where are you from ", []string{"I'd rather not say exactly where, to be honest.", "Ha, I keep that one to myself."}},
	{" what are you up to ", []string{"Not much, just chatting with you!", "Just relaxing and chatting."}},
	{" what are you doing ", []string{"Not much, just chatting with you!", "Just relaxing and chatting."}},
	{" what's up ", []string{"Not much, just chatting with you!", "Just relaxing and chatting."}},
	{" are you married ", []string{"Ha, that's a personal one!", "I'll keep that one private, if you don't mind."}},
	{" girlfriend ", []string{"Ha, that's a personal one!", "I'll keep that one private, if you don't mind."}},
	{" boyfriend ", []string{"Ha, that's a personal one!", "I'll keep that one private, if you don't mind."}},
	// Last, after "where are you from".
	{" where are you ", []string{"Right here, chatting with you!", "Ha, somewhere with a keyboard!"}},
}
