package offline

import (
	"regexp"
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

var greetingWords = newSet("hi hii hiii hello hey heyy heya hiya howdy yo there man dude everyone all good morning evening afternoon")

// asksUnmarked reports a question typed without its question mark, as
// chat partners often do: "where u from", "wat do u do", "r u married",
// "any pets", "hi whats ur job", "tell me about your family". Its first
// word, after a filler ("so", "ok") or a hello, opens a question in chat
// spelling, or it is "any" and a short thing, an offer ("wanna…"), an
// "ever…" or a choice ("coffee or tea").
func asksUnmarked(t *text) bool {
	ws := t.words
	for len(ws) > 1 && (fillers.has(ws[0].low) || greetingWords.has(ws[0].low) || ws[0].low == "ciao") {
		ws = ws[1:]
	}
	if len(ws) == 1 {
		return onlyAsks.has(ws[0].low) // "where", "when", typed alone after a fact
	}
	if len(ws) < 2 {
		return false
	}
	first, next := chatSpelling(ws[0].low), chatSpelling(ws[1].low)
	if first == "you" && (next == "got" || next == "have") {
		return len(ws) > 2 && len(ws) <= 6 && (ws[2].content || ws[2].low == "any") // "u got siblings", "u have any pets"
	}
	if first == "any" || first == "got" || strings.HasPrefix(first, "fav") {
		return len(ws) <= 6 && (ws[1].content || ws[1].low == "any") // "any pets", "fav food", "got any pets", "any big plans for the future"
	}
	if len(ws) <= 6 && (first == "you" && youAsks.has(next) || first == "wanna" || first == "ever" && !ws[1].stop ||
		first == "been" && next == "to" || next == "any" && !stopwords.has(first)) {
		return true // "u single", "u in school", "wanna grab a beer", "ever broken a bone", "been to europe", "play any sports"
	}
	if last := ws[len(ws)-1].low; len(ws) <= 8 && (last == "huh" || last == "eh") {
		return true // "so ur a good swimmer huh"
	}
	if len(ws) <= 5 && slices.ContainsFunc(ws[1:len(ws)-1], func(w word) bool { return w.low == "or" }) &&
		!slices.ContainsFunc(ws, func(w word) bool { return persons.has(w.low) || beVerbs.has(w.low) }) {
		return true // "coffee or tea", "dog or cat person", "older or younger"
	}
	if first == "where" && next == "you" {
		return true // "where u from"
	}
	if first == "tell" && next == "me" && len(ws) > 3 && ws[2].low == "about" {
		return true // "tell me about your family"
	}
	return questionStart(first, next)
}

// youAsks open a question after "you" in chat: "u single", "u into
// sports", "so u must make good lattes"; not "you too", "you know".
var youAsks = newSet(`single married in into still ever from working studying like love enjoy play work live wanna want
drink smoke cook speak watch read travel go own must a an`)

// onlyAsks are question words that ask alone.
var onlyAsks = newSet("where when why who how")

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
	"whats": "what's", "wats": "what's", "wheres": "where's", "whens": "when's", "hows": "how's", "whos": "who's", "wht": "what",
	"where'd": "where", "hubby": "husband", "wifey": "wife", "hw": "how", "whr": "where", "fav": "favorite", "hobbys": "hobbies",
	"fave": "favorite", "bf": "boyfriend", "gf": "girlfriend"}

// shorthand is chat's shorthand for a question's opening: "wyd for fun"
// asks "what do you do for fun".
var shorthand = regexp.MustCompile(`(?i)\bwyd\b`)

// expandShorthand writes out the shorthand of chat message s.
func expandShorthand(s string) string {
	if !strings.Contains(s, "wyd") && !strings.Contains(s, "Wyd") && !strings.Contains(s, "WYD") {
		return s
	}
	return shorthand.ReplaceAllString(s, "what do you do")
}

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
	if before, rest, ok := questionAfterComma(qs); ok {
		msg, qs = analyze(before+". "+rest), rest
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
		strings.Contains(n, " how's it going") || strings.Contains(n, " hows it going") || strings.Contains(n, " how you doing") ||
		strings.Contains(n, " how's your day") || strings.Contains(n, " hows your day") || strings.Contains(n, " how is your day") ||
		strings.Contains(n, " what's up") || strings.Contains(n, " whats up") || strings.Contains(n, " how're you") ||
		strings.Contains(n, " how are ya") ||
		(t.question && (strings.Contains(n, "how about you") || strings.HasSuffix(n, "and you")) &&
			(strings.Contains(n, "good") || strings.Contains(n, "fine") || strings.Contains(n, "well") || strings.Contains(n, "great")))
}

// asksBeyondHello reports a greeting question followed by another:
// "hi, how are you? where do you live?".
func asksBeyondHello(msg *text, rc *readCache) bool {
	s := questionSentence(msg)
	if q := rc.text(s); !asksHowAreYou(q) && startsQuestion(q) {
		return true
	}
	_, rest, ok := questionAfterComma(s)
	return ok && !asksHowAreYou(rc.text(rest))
}

// questionAfterComma returns a question typed after the last comma of s,
// and what comes before it: "i have two dogs, do you have any pets?",
// "hey whats up, u in school or working".
func questionAfterComma(s string) (before, question string, ok bool) {
	i := strings.LastIndex(s, ", ")
	if i <= 0 {
		return "", "", false
	}
	if t := analyze(s[i+2:]); !startsQuestion(t) && !asksUnmarked(t) {
		return "", "", false
	}
	return s[:i], s[i+2:], true
}

// answers returns the facts that answer question q, best first: those
// about what q asks (its intents), then those sharing its topic words; a
// wish ("i want to be a lawyer") only after a fact of the same intent. A
// question about a favourite is answered only by a liking, and a yes/no
// question only by a fact that speaks of each thing it names (covers).
// What a fact must be to answer is fits, how well it answers rank
// (persona_rank.go).
func (pr *profile) answers(q *text) []int {
	a := readQuestion(q)
	type scored struct{ fact, score int }
	var out []scored
	for i := range pr.facts {
		f := &pr.facts[i]
		cats, near, ok := a.fits(f)
		if !ok {
			continue
		}
		if score, ok := a.rank(f, cats, near); ok {
			out = append(out, scored{i, score})
		}
	}
	unsaid := 0 // how well the best fact the bot cannot say answers
	for i := range pr.unsaid {
		if cats, near, ok := a.fits(&pr.unsaid[i]); ok {
			if score, ok := a.rank(&pr.unsaid[i], cats, near); ok {
				unsaid = max(unsaid, score)
			}
		}
	}
	if len(out) == 0 {
		if unsaid > 0 {
			return nil // "how old are you?" is answered by an unsayable "i'm a forty year old accountant…", not by the goldfish's age
		}
		return pr.lastResort(a)
	}
	slices.SortStableFunc(out, func(a, b scored) int { return b.score - a.score })
	if unsaid > 0 && unsaid > out[0].score {
		return nil
	}
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
	originWords  = newSet("from born grew grow raised hometown originally background heritage roots")
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
var spellings = map[string]string{"colour": "color", "color": "colour", "favourite": "favorite", "favorite": "favourite",
	"colours": "colors", "colors": "colours", "theatre": "theater", "theater": "theatre", "whiskey": "whisky", "whisky": "whiskey",
	"fall": "autumn", "autumn": "fall", "frat": "fraternity"}
