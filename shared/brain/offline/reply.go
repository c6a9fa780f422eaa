package offline

import (
	"context"
	"encoding/binary"
	"hash/fnv"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/duetbot/duet/shared/brain"
)

// maxReply keeps replies the length of a chat message.
const maxReply = 280

// poolSize is how many topics a reply rotates through.
const poolSize = 4

// Reply writes the bot's next message in a ConvAI chat. It is deterministic:
// the same request gives the same reply. It returns ErrPersona when
// req.Persona is set, and the context's error when ctx is already done.
func (b *Brain) Reply(ctx context.Context, req brain.Request) (string, error) {
	if req.Persona != nil {
		return "", ErrPersona
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	return compose(req, b.contexts.get(req.Context), &b.texts), nil
}

// fill is what a template's slots are replaced with.
type fill struct{ a, b, c string }

func (f fill) mask() slotMask {
	var m slotMask
	if f.a != "" {
		m |= slotA
	}
	if f.b != "" {
		m |= slotB
	}
	if f.c != "" {
		m |= slotC
	}
	return m
}

// plan is one way to reply: a first part, an optional second part, and the
// topic rotations to fill them with.
type plan struct {
	first, second []tmpl
	fills         []fill // one per rotation; at least one
}

// compose chooses the move for req, whose context is c, and renders a reply the bot has not sent
// in this chat before.
func compose(req brain.Request, c *analysedContext, texts *textCache) string {
	seed := seedOf(req)
	said := newHistory(req.Turns)
	ctxPool := c.pool
	clarify := pairPlan(clarifyVague, ctxPool, seed)

	var plans []plan
	last, ok := req.LastPartner()
	if !ok {
		plans = append(plans, pairPlan(openers, ctxPool, 0))
	} else {
		msg := texts.get(last)
		switch {
		case msg.realRatio() < 0.5:
			plans = append(plans, pairPlan(clarifyGarbled, ctxPool, seed))
		case msg.question && (msg.content > 0 || startsQuestion(msg)):
			plans = append(plans, answerPlans(msg, ctxPool, seed)...)
		case msg.content == 0:
			// Vague: the clarifying plan below comes first.
		default:
			plans = append(plans, reactPlan(msg, ctxPool, seed))
		}
	}
	plans = append(plans, clarify, pairPlan(openers, ctxPool, seed))
	for i, p := range plans {
		if s, ok := p.choose(seed+uint64(i), said); ok {
			return s
		}
	}
	s, _ := plans[0].choose(seed, nil)
	return distinguish(s, said)
}

// seedOf hashes the request text and the turn index (FNV-1a), then mixes
// the bits so that every part of the seed is usable.
func seedOf(req brain.Request) uint64 {
	h := fnv.New64a()
	h.Write([]byte(req.Context))
	h.Write([]byte{0})
	last, _ := req.LastPartner()
	h.Write([]byte(last))
	h.Write(binary.LittleEndian.AppendUint64(nil, uint64(len(req.Turns))))
	x := h.Sum64()
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

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
	for i, w := range t.words {
		if i == 0 || w.start {
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
func answerPlans(msg *text, ctxPool []term, seed uint64) []plan {
	q := questionSentence(msg)
	qt := analyze(q)
	var pool []term
	for _, t := range slotPool(rankTerms(qt, fromPartner), poolSize) {
		if t.nounish {
			pool = append(pool, t)
		}
	}
	for _, t := range ctxPool {
		if len(pool) < poolSize && !hasKey(pool, t.key) {
			pool = append(pool, t)
		}
	}
	var plans []plan
	if choices := choiceAnswers(q); len(choices) > 0 {
		plans = append(plans, plan{first: choices, second: questionsBack, fills: []fill{{}}})
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
	case qt.topics.len() == 0 && qt.addresses:
		first = answerSelf
	case firstWord == "what" || firstWord == "what's" || firstWord == "which":
		first = answerWhat
	case firstWord == "why" || firstWord == "why's":
		first = answerWhy
	case firstWord == "how" || firstWord == "how's":
		first = answerHow
	case firstWord == "when":
		first = answerWhen
	case firstWord == "where" || firstWord == "where's":
		first = answerWhere
	case firstWord == "who" || firstWord == "who's" || firstWord == "whom":
		first = answerWho
	case auxWords.has(firstWord) && (next == "you" || next == "u" || next == "ya"):
		first = answerYouYesNo
	case auxWords.has(firstWord):
		first = answerYesNo
	}
	plans = append(plans, pairPlan(first, pool, 0))
	plans[len(plans)-1].second = questionsBack
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
func questionSentence(msg *text) string {
	for i := len(msg.sentences) - 1; i >= 0; i-- {
		if strings.HasSuffix(msg.sentences[i], "?") {
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
func reactPlan(msg *text, ctxPool []term, seed uint64) plan {
	var mine []term
	for _, t := range slotPool(rankTerms(msg, fromPartner), poolSize) {
		if t.nounish {
			mine = append(mine, t)
		}
	}
	p := plan{first: reactions, second: followUps}
	rot := max(len(mine), 1)
	for r := range rot {
		var f fill
		key := ""
		if len(mine) > 0 {
			f.a, key = mine[r].phrase(), mine[r].key
		}
		var others []term
		for _, t := range ctxPool {
			if t.key != key {
				others = append(others, t)
			}
		}
		if len(others) > 0 {
			f.c = others[(int(seed>>40)+r)%len(others)].phrase()
		}
		p.fills = append(p.fills, f)
	}
	return p
}

// choose returns the first rendering, starting from seed-chosen templates,
// that the bot has not sent before (any rendering when said is nil). It
// varies the first part fastest, then the second, then the topics; and it
// first looks for a first part the bot has not opened a reply with, so that
// a new follow-up question alone does not make a reply new.
func (p plan) choose(seed uint64, said *history) (string, bool) {
	if len(p.first) == 0 {
		return "", false
	}
	n1, n2 := len(p.first), max(len(p.second), 1)
	o1, o2 := int(seed%uint64(n1)), int((seed>>20)%uint64(n2))
	avail := p.fills[0].mask()
	needTopic := avail&(slotA|slotB) != 0 && p.hasSlotted(avail)
	for pass := range 2 {
		freshStart := pass == 0
		if freshStart && (said == nil || len(p.second) == 0) {
			continue
		}
		for r := range p.fills {
			for j := range n2 {
				for i := range n1 {
					t1 := p.first[(o1+i)%n1]
					if t1.mask&^avail != 0 || (needTopic && t1.mask&(slotA|slotB) == 0) {
						continue
					}
					if len(p.second) > 0 && p.second[(o2+j)%n2].mask&^avail != 0 {
						continue
					}
					if freshStart && said.opened(normalize(p.render(r, (o1+i)%n1, -1))) {
						continue
					}
					s := p.render(r, (o1+i)%n1, (o2+j)%n2)
					if !said.has(normalize(s)) {
						return s, true
					}
				}
			}
		}
	}
	return "", false
}

// history is what the bot has said in a chat, normalised.
type history struct {
	said set
	list []string
}

func newHistory(turns []brain.Turn) *history {
	h := &history{said: set{}}
	for _, t := range turns {
		if t.Role == brain.Bot {
			n := normalize(t.Text)
			h.said.add(n)
			h.list = append(h.list, n)
		}
	}
	return h
}

// has reports whether the bot said s; never for a nil history.
func (h *history) has(s string) bool { return h != nil && h.said.has(s) }

// opened reports whether the bot began a message with the words of prefix.
func (h *history) opened(prefix string) bool {
	for _, s := range h.list {
		if strings.HasPrefix(s, prefix) && (len(s) == len(prefix) || s[len(prefix)] == ' ') {
			return true
		}
	}
	return false
}

// hasSlotted reports whether some first part of p can use the available
// topics: only then are the topic-free ones skipped, so that the reply stays
// on topic.
func (p plan) hasSlotted(avail slotMask) bool {
	for _, t := range p.first {
		if t.mask != 0 && t.mask&^avail == 0 && t.mask&(slotA|slotB) != 0 {
			return true
		}
	}
	return false
}

// render fills templates i (first) and j (second; none when j < 0) with
// rotation r.
func (p plan) render(r, i, j int) string {
	f := p.fills[r%len(p.fills)]
	s := p.first[i].text
	if len(p.second) > 0 && j >= 0 {
		s += " " + p.second[j].text
	}
	s = strings.ReplaceAll(s, "{a}", f.a)
	s = strings.ReplaceAll(s, "{b}", f.b)
	s = strings.ReplaceAll(s, "{c}", f.c)
	return polish(s)
}

// distinguish appends clauses to s until it differs from every reply the bot
// has sent.
func distinguish(s string, said *history) string {
	for n := 0; ; n++ {
		extra := lastResort[n%len(lastResort)]
		if n >= len(lastResort) {
			extra += " (" + strconv.Itoa(n/len(lastResort)+1) + ")"
		}
		if c := polish(s + " " + extra); !said.has(normalize(c)) {
			return c
		}
	}
}

// sanitize drops characters that would read as template slots.
func sanitize(r rune) rune {
	if r == '{' || r == '}' {
		return -1
	}
	return r
}

// polish makes a filled template read like a chat message: no slot
// leftovers, single spaces, no space before punctuation, capitals at the
// start of sentences, a final punctuation mark, at most maxReply characters.
func polish(s string) string {
	s = strings.Map(sanitize, s)
	s = strings.Join(strings.Fields(s), " ")
	for _, p := range []string{" ,", " .", " ?", " !", " ;", " :"} {
		s = strings.ReplaceAll(s, p, p[1:])
	}
	b := []rune(s)
	capital := true
	for i, r := range b {
		switch {
		case capital && unicode.IsLetter(r):
			b[i] = unicode.ToUpper(r)
			capital = false
		case r == '.' || r == '?' || r == '!':
			capital = true
		case capital && !unicode.IsSpace(r):
			capital = false
		}
	}
	s = string(b)
	if utf8.RuneCountInString(s) > maxReply {
		s = string([]rune(s)[:maxReply])
		if i := strings.LastIndexByte(s, ' '); i > 0 {
			s = s[:i]
		}
		s = strings.TrimRight(s, " ,;:\u2014") + "\u2026"
	}
	if s == "" {
		return "Tell me more?"
	}
	if r, _ := utf8.DecodeLastRuneInString(s); !strings.ContainsRune(".?!\u2026", r) {
		s += "."
	}
	return s
}

// normalize reduces a message to lower-case words, for repeat checks.
func normalize(s string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.ToLower(s) {
		if isWordRune(r) {
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteRune(r)
			space = false
		} else {
			space = true
		}
	}
	return b.String()
}

func asciiLower(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}
