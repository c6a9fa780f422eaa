package offline

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// pairPlan fills {a} and {b} with neighbouring topics of pool, starting at a
// seed-chosen topic (offset 0: the best topic first).
func pairPlan(first []tmpl, pool []term, seed uint64) plan {
	p := plan{first: first}
	k := len(pool)
	if k == 0 {
		p.fills = []fill{{}}
		return p
	}
	off := int(seed>>40) % k
	p.fills = make([]fill, 0, k)
	for r := range k {
		f := fill{a: pool[(off+r)%k].phrase()}
		if k > 1 {
			f.b = pool[(off+r+1)%k].phrase()
		}
		p.fills = append(p.fills, f)
	}
	return p
}

// startsQuestion reports a message that opens like a question ("what would
// you do?") rather than one that only ends with a question mark ("ok?").
func startsQuestion(t *text) bool {
	first := 0 // "oh cool, where at?": the first word after the fillers
	for first+1 < len(t.words) && fillers.has(t.words[first].low) {
		first++
	}
	for i, w := range t.words {
		if i == 0 || i == first || w.start {
			next := ""
			if i+1 < len(t.words) {
				next = t.words[i+1].low
			}
			if questionStart(w.low, next) {
				return true
			}
		}
	}
	return false
}

// answerPlans answer the partner's question: pick a side of an "A or B?"
// question, or answer by the kind of question, then often ask back.
func answerPlans(msg *text, ctxPool []term, seed uint64, rc *readCache, v *voice) []plan {
	q := questionSentence(msg)
	qt := rc.text(q) // often the whole message, or a question asked before
	pool := partnerTopics(qt)
	for _, t := range ctxPool {
		if len(pool) < poolSize && !hasKey(pool, t.key) {
			pool = append(pool, t)
		}
	}
	var plans []plan
	if choices := choiceAnswers(q); len(choices) > 0 {
		plans = append(plans, plan{first: choices, second: v.questionsBack, fills: []fill{{}}})
	}
	first := answerOther
	firstWord, next := "", ""
	if len(qt.words) > 0 {
		firstWord = qt.words[0].low
	}
	if len(qt.words) > 1 {
		next = qt.words[1].low
	}
	switch {
	case len(qt.topics) == 0 && qt.addresses:
		first = v.answerSelf
	case firstWord == "what" || firstWord == "what's" || firstWord == "which":
		first = answerWhat
	case firstWord == "why" || firstWord == "why's":
		first = answerWhy
	case firstWord == "how" || firstWord == "how's":
		first = v.answerHow
	case firstWord == "when":
		first = v.answerWhen
	case firstWord == "where" || firstWord == "where's":
		first = v.answerWhere
	case firstWord == "who" || firstWord == "who's" || firstWord == "whom":
		first = v.answerWho
	case auxWords.has(firstWord) && (next == "you" || next == "u" || next == "ya"):
		first = answerYouYesNo
	case auxWords.has(firstWord):
		first = answerYesNo
	}
	plans = append(plans, pairPlan(first, pool, 0))
	plans[len(plans)-1].second = v.questionsBack
	return plans
}

func hasKey(ts []term, key string) bool {
	for _, t := range ts {
		if t.key == key {
			return true
		}
	}
	return false
}

// questionSentence returns the sentence of msg that asks: the last one with
// a question mark, else the last one that opens like a question.
// bareAsk reports a question of a few words that names no one, which
// asks more of what came before it: "how many?", "what kind?".
func bareAsk(s string) bool {
	ws := strings.Fields(strings.ToLower(strings.TrimRight(s, "?!. ")))
	return len(ws) > 0 && len(ws) <= 3 && whWords.has(ws[0]) &&
		!slices.ContainsFunc(ws, func(w string) bool { return w == "you" || w == "u" || w == "your" || w == "ur" })
}

func questionSentence(msg *text) string {
	for i := len(msg.sentences) - 1; i >= 0; i-- {
		if strings.HasSuffix(msg.sentences[i], "?") {
			// "how are you? what do you do": the question typed after
			// the hello without its mark is the one asked
			if i+1 < len(msg.sentences) && asksHowAreYou(analyze(msg.sentences[i])) {
				for _, later := range msg.sentences[i+1:] {
					if t := analyze(later); startsQuestion(t) && !asksHowAreYou(t) {
						return later
					}
				}
			}
			// "do you have any grandkids? how many?": the question the
			// follow-up is about
			if i > 0 && strings.HasSuffix(msg.sentences[i-1], "?") && bareAsk(msg.sentences[i]) {
				return msg.sentences[i-1]
			}
			return msg.sentences[i]
		}
	}
	for i := len(msg.sentences) - 1; i >= 0; i-- {
		if startsQuestion(analyze(msg.sentences[i])) {
			return msg.sentences[i]
		}
	}
	if len(msg.sentences) > 0 {
		return msg.sentences[len(msg.sentences)-1]
	}
	return ""
}

// choiceAnswers picks a side of an "A or B?" question: "Would you stay still
// or brush it off?" gives "Honestly, I'd stay still." and its alternatives.
func choiceAnswers(q string) []tmpl {
	q = strings.Trim(strings.Map(sanitize, q), " ?!.")
	lower := asciiLower(q)
	i := strings.Index(lower, " or ")
	if i < 0 {
		return nil
	}
	left, right := q[:i], q[i+len(" or "):]
	if j := strings.LastIndexAny(left, ",:;\u2014"); j >= 0 {
		_, size := utf8.DecodeRuneInString(left[j:])
		left = left[j+size:]
	}
	if j := strings.IndexAny(right, ",:;?\u2014"); j >= 0 {
		right = right[:j]
	}
	lw, rw := strings.Fields(left), strings.Fields(right)
	if len(rw) == 1 && asciiLower(rw[0]) == "not" {
		return nil // "is it safe or not" is a yes/no question
	}
	aux, subj := "", ""
	if len(lw) >= 1 && auxWords.has(asciiLower(lw[0])) {
		if len(lw) < 2 || !choiceSubjects.has(asciiLower(lw[1])) {
			return nil // "would the wasp sting or fly": too hard to split
		}
		aux, subj = asciiLower(lw[0]), asciiLower(lw[1])
		lw = lw[2:]
	} else if len(lw) >= 1 && whWords.has(asciiLower(lw[0])) {
		return nil // "what do you prefer, A or B" is split at the comma
	}
	if subj == "u" {
		subj = "you"
	}
	// "Would you rather stay or go", "Do you prefer tea or coffee".
	verb := true
	if len(lw) > 0 {
		switch asciiLower(lw[0]) {
		case "rather":
			lw = lw[1:]
		case "prefer", "like", "want", "choose", "pick", "take":
			lw, verb = lw[1:], false
		}
	}
	if len(rw) >= 2 && auxWords.has(asciiLower(rw[0])) && choiceSubjects.has(asciiLower(rw[1])) {
		rw = rw[2:]
	}
	if len(lw) == 0 || len(rw) == 0 || len(lw) > 6 || len(rw) > 6 {
		return nil
	}
	copula := aux == "is" || aux == "are" || aux == "was" || aux == "were" || aux == "am"
	var out []tmpl
	for _, opt := range []string{swapPronouns(lw), swapPronouns(rw)} {
		var s string
		switch {
		case copula:
			s = "I'd say " + opt + "."
		case subj == "" || !verb:
			s = "I'd go with " + opt + "."
		case subj == "you":
			s = "Honestly, I'd " + opt + "."
		case subj == "i":
			s = "I think you should " + opt + "."
		case subj == "we":
			s = "I think we should " + opt + "."
		default:
			s = "I think " + subj + " would " + opt + "."
		}
		for _, r := range choiceReasons {
			out = append(out, tmpl{text: s + r})
		}
	}
	return out
}

// choiceSubjects are the pronouns after which an "A or B" question splits.
var choiceSubjects = newSet("you u i we they he she it")

// swapPronouns turns the partner's words about the bot into the bot's words
// about itself: "your bag" becomes "my bag", "my bag" becomes "your bag".
func swapPronouns(ws []string) string {
	out := make([]string, len(ws))
	for i, w := range ws {
		switch asciiLower(w) {
		case "your":
			w = "my"
		case "yours":
			w = "mine"
		case "yourself":
			w = "myself"
		case "my":
			w = "your"
		case "mine":
			w = "yours"
		case "myself":
			w = "yourself"
		case "me":
			w = "you"
		}
		out[i] = w
	}
	return strings.Join(out, " ")
}

// reactPlan reacts to the partner's main topic and links back to a context
// topic with a follow-up question.
func reactPlan(msg *text, ctxPool []term, seed uint64, v *voice) plan {
	mine := partnerTopics(msg)
	p := plan{first: reactions, second: v.followUps}
	rot := max(len(mine), 1)
	p.fills = make([]fill, 0, rot)
	for r := range rot {
		var f fill
		key := ""
		if len(mine) > 0 {
			f.a, key = mine[r].phrase(), mine[r].key
		}
		if n := countOthers(ctxPool, key); n > 0 {
			f.c = nthOther(ctxPool, key, (int(seed>>40)+r)%n).phrase()
		}
		p.fills = append(p.fills, f)
	}
	return p
}

// countOthers counts the terms of pool whose key is not key.
func countOthers(pool []term, key string) int {
	n := 0
	for _, t := range pool {
		if t.key != key {
			n++
		}
	}
	return n
}

// nthOther returns the n-th term of pool whose key is not key (counting
// from 0), without collecting them in a slice; n < countOthers(pool, key).
func nthOther(pool []term, key string, n int) term {
	for _, t := range pool {
		if t.key != key {
			if n == 0 {
				return t
			}
			n--
		}
	}
	panic("offline: nthOther out of range")
}

// asciiLower lowers the ASCII letters of s only, so that a byte offset in
// it is one in s (strings.ToLower may change the length of other letters).
func asciiLower(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}
