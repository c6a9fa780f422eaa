package offline

import (
	"context"
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
	c := b.contexts.get(req.Context)
	if req.Closing {
		return farewell(req, c), nil
	}
	return compose(req, c, &b.texts), nil
}

// farewells take leave when the chat ends after this reply; %s is the
// context's main topic.
var farewells = []string{
	"It was good talking about %s with you. Bye!",
	"Thanks for the chat about %s. Take care!",
	"Nice talking about %s. See you!",
	"Thanks, that was fun. Goodbye!",
}

// farewell is the last reply of a chat: it says goodbye, mentioning the
// topic when there is one.
func farewell(req brain.Request, c *analysedContext) string {
	seed := seedOf(req)
	topic := ""
	if len(c.pool) > 0 {
		topic = c.pool[0].text
		if a := c.pool[0].article; a != "" {
			topic = a + " " + topic
		}
	}
	said := newHistory(req.Turns)
	for i := range farewells {
		f := farewells[(int(seed%uint64(len(farewells)))+i)%len(farewells)]
		if strings.Contains(f, "%s") {
			if topic == "" {
				continue
			}
			f = strings.Replace(f, "%s", topic, 1)
		}
		if !said.has(normalize(f)) {
			return f
		}
	}
	return "Bye for now, and thanks!"
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
			plans = append(plans, answerPlans(msg, ctxPool, seed, texts)...)
		case msg.content == 0:
			// Vague: the clarifying plan below comes first.
		default:
			plans = append(plans, reactPlan(msg, ctxPool, seed))
		}
	}
	for i, p := range plans {
		if s, ok := p.choose(seed+uint64(i), said); ok {
			return s
		}
	}
	// The clarifying and opening plans come next; they are made only
	// when the plans above all collide.
	clarify := pairPlan(clarifyVague, ctxPool, seed)
	if s, ok := clarify.choose(seed+uint64(len(plans)), said); ok {
		return s
	}
	if s, ok := pairPlan(openers, ctxPool, seed).choose(seed+uint64(len(plans)+1), said); ok {
		return s
	}
	first := clarify
	if len(plans) > 0 {
		first = plans[0]
	}
	s, _ := first.choose(seed, nil)
	return distinguish(s, said)
}

// seedOf hashes the request text and the turn index (FNV-1a), then mixes
// the bits so that every part of the seed is usable.
func seedOf(req brain.Request) uint64 {
	// FNV-1a written out, as hash/fnv computes it, so that the context
	// (up to 8 KB) and the message are not copied into byte slices.
	const offset64, prime64 = 14695981039346656037, 1099511628211
	x := uint64(offset64)
	add := func(c byte) {
		x ^= uint64(c)
		x *= prime64
	}
	for i := 0; i < len(req.Context); i++ {
		add(req.Context[i])
	}
	add(0)
	last, _ := req.LastPartner()
	for i := 0; i < len(last); i++ {
		add(last[i])
	}
	for n, i := uint64(len(req.Turns)), 0; i < 8; i++ { // little-endian
		add(byte(n >> (8 * i)))
	}
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
func answerPlans(msg *text, ctxPool []term, seed uint64, texts *textCache) []plan {
	q := questionSentence(msg)
	qt := texts.get(q) // often the whole message, or a question asked before
	pool := make([]term, 0, poolSize)
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

// choose returns the first rendering, starting from seed-chosen templates,
// that the bot has not sent before (any rendering when said is nil). It
// varies the first part fastest, then the second, then the topics; and it
// first looks for a first part the bot has not opened a reply with, so that
// a new follow-up question alone does not make a reply new.
//
// Candidates are compared by their normalised form, which key computes
// straight from the template and fill without rendering; only the chosen
// candidate is rendered.
func (p plan) choose(seed uint64, said *history) (string, bool) {
	if len(p.first) == 0 {
		return "", false
	}
	n1, n2 := len(p.first), max(len(p.second), 1)
	o1, o2 := int(seed%uint64(n1)), int((seed>>20)%uint64(n2))
	avail := p.fills[0].mask()
	needTopic := avail&(slotA|slotB) != 0 && p.hasSlotted(avail)
	// With nothing said, every candidate is new: the first one that fits
	// is chosen without computing any key.
	check := !said.empty()
	var buf [maxReply]byte
	// Whether the bot opened with first part i depends on r and i, not on
	// the second part: remember it across the j loop (0 unknown, 1 no,
	// 2 yes) for plans of up to len(openedMemo) first parts.
	var openedMemo [32]uint8
	for pass := range 2 {
		freshStart := pass == 0
		if freshStart && (said == nil || len(p.second) == 0) {
			continue
		}
		for r := range p.fills {
			openedMemo = [len(openedMemo)]uint8{}
			for j := range n2 {
				for i := range n1 {
					t1 := p.first[(o1+i)%n1]
					if t1.mask&^avail != 0 || (needTopic && t1.mask&(slotA|slotB) == 0) {
						continue
					}
					if len(p.second) > 0 && p.second[(o2+j)%n2].mask&^avail != 0 {
						continue
					}
					if check && freshStart {
						k, m := (o1+i)%n1, uint8(0)
						if k < len(openedMemo) {
							m = openedMemo[k]
						}
						if m == 0 {
							m = 1
							if said.opened(p.key(buf[:0], r, k, -1)) {
								m = 2
							}
							if k < len(openedMemo) {
								openedMemo[k] = m
							}
						}
						if m == 2 {
							continue
						}
					}
					if !check || !said.hasBytes(p.key(buf[:0], r, (o1+i)%n1, (o2+j)%n2)) {
						return p.render(r, (o1+i)%n1, (o2+j)%n2), true
					}
				}
			}
		}
	}
	return "", false
}

// history is what the bot has said in a chat, normalised.
type history struct {
	said bag // in order of first appearance, for opened
}

func newHistory(turns []brain.Turn) *history {
	// The bot's messages are normalised into one buffer, so that the
	// history costs one allocation rather than one per message: the
	// entries are slices of it.
	size, n := 0, 0
	for _, t := range turns {
		if t.Role == brain.Bot {
			size += len(t.Text)
			n++
		}
	}
	h := &history{}
	if n == 0 {
		return h
	}
	var b strings.Builder
	b.Grow(size)
	ends := make([]int, 0, n)
	for _, t := range turns {
		if t.Role == brain.Bot {
			appendNormalized(&b, t.Text)
			ends = append(ends, b.Len())
		}
	}
	all, start := b.String(), 0
	h.said.list = make([]string, 0, n)
	for _, end := range ends {
		h.said.add(all[start:end])
		start = end
	}
	return h
}

// empty reports whether the bot has said nothing; true for a nil history.
func (h *history) empty() bool { return h == nil || h.said.len() == 0 }

// has reports whether the bot said s, a normalised message; never for a nil
// history.
func (h *history) has(s string) bool { return h != nil && h.said.has(s) }

// hasBytes is has for a key in a buffer, so that candidates need no string
// of their own.
func (h *history) hasBytes(s []byte) bool {
	if h == nil {
		return false
	}
	if h.said.index != nil {
		return h.said.index.has(string(s)) // the conversion does not allocate
	}
	for _, x := range h.said.list {
		if x == string(s) {
			return true
		}
	}
	return false
}

// opened reports whether the bot began a message with the words of prefix.
func (h *history) opened(prefix []byte) bool {
	for _, s := range h.said.list {
		if len(s) >= len(prefix) && s[:len(prefix)] == string(prefix) &&
			(len(s) == len(prefix) || s[len(prefix)] == ' ') {
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

// key appends normalize(p.render(r, i, j)) to dst. For ASCII text that
// polish would not shorten it reads the templates and the fill in one pass
// and allocates nothing: polish then changes only capitals, spaces and
// punctuation, which normalize drops anyway. Otherwise it renders.
func (p plan) key(dst []byte, r, i, j int) []byte {
	f := p.fills[r%len(p.fills)]
	k := keyState{start: len(dst), ok: true}
	dst = k.template(dst, p.first[i].text, f)
	if len(p.second) > 0 && j >= 0 {
		dst = k.byte(dst, ' ')
		dst = k.template(dst, p.second[j].text, f)
	}
	// An empty key may come from a reply polish would replace ("Tell me
	// more?"); the slow path knows.
	if k.ok && len(dst) > k.start {
		return dst
	}
	return append(dst[:k.start], normalize(p.render(r, i, j))...)
}

// keyState is the state of key's one-pass normaliser. The output slice is
// passed and returned rather than kept here so that a caller's stack buffer
// does not escape. ok turns false when the fast path does not apply: a
// non-ASCII byte, more than maxReply bytes (polish would truncate), or a
// brace that is not part of a slot, or one in a fill, where ReplaceAll and
// sanitize could interact.
type keyState struct {
	start int // where the key begins in the output
	raw   int // bytes written, braces excepted
	space bool
	ok    bool
}

// template appends t, its slots filled by f.
func (k *keyState) template(out []byte, t string, f fill) []byte {
	for i := 0; i < len(t); i++ {
		c := t[i]
		if c != '{' && c != '}' {
			out = k.byte(out, c)
			continue
		}
		var v string
		if c == '{' && i+2 < len(t) && t[i+2] == '}' {
			switch t[i+1] {
			case 'a':
				v = f.a
			case 'b':
				v = f.b
			case 'c':
				v = f.c
			default:
				k.ok = false
			}
		} else {
			k.ok = false
		}
		if !k.ok || strings.ContainsAny(v, "{}") {
			k.ok = false
			return out
		}
		for m := 0; m < len(v); m++ {
			out = k.byte(out, v[m])
		}
		i += 2
	}
	return out
}

// byte appends c as normalize would see it.
func (k *keyState) byte(out []byte, c byte) []byte {
	if c >= utf8.RuneSelf {
		k.ok = false
		return out
	}
	if k.raw++; k.raw > maxReply {
		k.ok = false
		return out
	}
	if 'A' <= c && c <= 'Z' {
		c += 'a' - 'A'
	}
	if ('a' <= c && c <= 'z') || ('0' <= c && c <= '9') {
		if k.space && len(out) > k.start {
			out = append(out, ' ')
		}
		out = append(out, c)
		k.space = false
	} else {
		k.space = true
	}
	return out
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
	if isASCII(s) {
		if p, ok := polishASCII(s); ok {
			return p
		}
	}
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

// polishASCII is polish for ASCII text, in one pass and one allocation; it
// reports false for text polish would truncate or replace, which the
// general path handles. Dropping a space before punctuation as it goes is
// the same as the general path's replacements: after Fields and Join the
// spaces are single, so removing one never makes another match.
func polishASCII(s string) (string, bool) {
	var b strings.Builder
	b.Grow(len(s) + 1)
	pending, capital := false, true
	var last byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '{', '}': // sanitize
			continue
		case ' ', '\t', '\n', '\v', '\f', '\r': // unicode.IsSpace, ASCII
			pending = b.Len() > 0
			continue
		}
		if pending {
			pending = false
			switch c {
			case ',', '.', '?', '!', ';', ':':
			default:
				b.WriteByte(' ')
			}
		}
		switch {
		case capital && ('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'):
			if c >= 'a' {
				c -= 'a' - 'A'
			}
			capital = false
		case c == '.' || c == '?' || c == '!':
			capital = true
		default:
			capital = false
		}
		b.WriteByte(c)
		last = c
	}
	if b.Len() == 0 || b.Len() > maxReply {
		return "", false
	}
	if last != '.' && last != '?' && last != '!' {
		b.WriteByte('.')
	}
	return b.String(), true
}

// normalize reduces a message to lower-case words, for repeat checks.
func normalize(s string) string {
	var b strings.Builder
	if isASCII(s) {
		b.Grow(len(s)) // the normal form is never longer
	}
	appendNormalized(&b, s)
	return b.String()
}

// appendNormalized writes normalize(s) to b.
func appendNormalized(b *strings.Builder, s string) {
	if isASCII(s) {
		// The common case, byte by byte: no lower-cased copy of s.
		start := b.Len()
		space := false
		for i := 0; i < len(s); i++ {
			c := s[i]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if ('a' <= c && c <= 'z') || ('0' <= c && c <= '9') {
				if space && b.Len() > start {
					b.WriteByte(' ')
				}
				b.WriteByte(c)
				space = false
			} else {
				space = true
			}
		}
		return
	}
	start := b.Len()
	space := false
	for _, r := range strings.ToLower(s) {
		if isWordRune(r) {
			if space && b.Len() > start {
				b.WriteByte(' ')
			}
			b.WriteRune(r)
			space = false
		} else {
			space = true
		}
	}
}

func asciiLower(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}
