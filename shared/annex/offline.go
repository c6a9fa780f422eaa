package annex

import (
	"context"
	"errors"
	"hash/fnv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/embed"
)

// DefaultThreshold is the prompt similarity from which Offline answers with
// the person's own answer to that prompt. It suits the offline lexical
// vectors (see embed.FitLexical), whose similarities run lower than those of
// neural embeddings: rephrasings of one question score about 0.2 to 0.3.
const DefaultThreshold = 0.3

// Offline is the deterministic, network-free persona replier. When one of
// the persona's examples has a prompt close enough to the message it answers
// as the person did; otherwise it composes a reply in the person's manner
// from the sentences of theirs that best fit the message.
type Offline struct {
	// Threshold overrides DefaultThreshold when positive.
	Threshold float64
}

var _ brain.Replier = Offline{}

// Reply answers the last partner turn of req in the voice of req.Persona.
func (o Offline) Reply(ctx context.Context, req brain.Request) (string, error) {
	return o.reply(req, nil)
}

// reply is Reply, with v the analysis of req.Persona's samples when the
// caller has it (see Persona.brief), nil otherwise.
func (o Offline) reply(req brain.Request, v *voice) (string, error) {
	msg, ok := req.LastPartner()
	if !ok {
		return "", errors.New("offline persona: no message to answer")
	}
	p := req.Persona
	if p == nil {
		p = &brain.Persona{}
	}
	threshold := o.Threshold
	if threshold <= 0 {
		threshold = DefaultThreshold
	}
	for _, ex := range p.Examples {
		if ex.Similarity < threshold {
			break
		}
		if a := strings.TrimSpace(ex.Answer); a != "" && !embed.Echoes(a, msg) {
			return a, nil
		}
	}
	return compose(msg, p, v), nil
}

// compose writes a reply to msg in the manner of p's samples: the answer of
// theirs that best fits the message (the answers of the closest examples
// favoured), cut to about their usual length, with their usual opener and
// closer, mentioning the message's topic when the answer does not. v is the
// analysis of p.Samples, or nil to work it out here.
func compose(msg string, p *brain.Persona, v *voice) string {
	if v == nil {
		v = newVoice(p.Samples)
	}
	m := v.manner
	mv := v.lex.Sparse(msg)
	mn2 := mv.Norm2()

	bonus := map[string]float64{}
	for _, ex := range p.Examples {
		bonus[ex.Answer] = max(bonus[ex.Answer], ex.Similarity)
	}
	best, bestScore := "", -1.0
	// consider scores an answer first and looks at its body only when it
	// would win: the first of the best-scored usable answers wins.
	consider := func(answer string, vec embed.Sparse, n2 float64) {
		score := embed.CosineOf(embed.Dot(mv, vec), mn2, n2) + 2*bonus[answer]
		if score <= bestScore {
			return
		}
		body := strings.TrimSpace(stripCloser(strings.TrimSpace(stripOpener(answer, m.Openers)), m.Closers))
		if len(embed.Words(body)) < 2 || embed.Echoes(body, msg) {
			return
		}
		best, bestScore = body, score
	}
	for _, ex := range p.Examples {
		vec := v.lex.Sparse(ex.Answer)
		consider(ex.Answer, vec, vec.Norm2())
	}
	for i, s := range v.samples {
		consider(s, v.an[i].vec, v.an[i].norm2)
	}
	best = trimWords(best, max(m.Words, 8))

	h := hash(msg)
	var b strings.Builder
	if len(m.Openers) > 0 {
		b.WriteString(m.Openers[h%uint64(len(m.Openers))])
		b.WriteString(" ")
	}
	if best == "" {
		b.WriteString(fallback)
	} else {
		// Name what the reply is about in the asker's words: it keeps the
		// reply on the message even when the person's closest answer was
		// given to another question.
		if topic := keyPhrase(msg, p.Name); topic != "" {
			b.WriteString(topic)
			b.WriteString(" — ")
			best = lowerFirst(best)
		}
		b.WriteString(best)
	}
	if len(m.Closers) > 0 && m.CloserRate >= 0.2 && !strings.HasSuffix(best, m.Closers[0]) {
		b.WriteString(" ")
		b.WriteString(m.Closers[0])
	}
	reply := strings.TrimSpace(b.String())
	if m.Lowercase {
		reply = lowerFirst(reply)
	} else {
		reply = upperFirst(reply)
	}
	if reply == "" || embed.Echoes(reply, msg) {
		return fallback
	}
	return reply
}

// trimWords cuts s after the sentence that reaches n words.
func trimWords(s string, n int) string {
	var out []string
	words := 0
	for _, sent := range sentences(s) {
		out = append(out, sent)
		if words += len(embed.Words(sent)); words >= n {
			break
		}
	}
	return strings.Join(out, " ")
}

// fallback is said when nothing of the person's fits.
const fallback = "Let me think about that one and get back to you."

func stripOpener(s string, openers []string) string {
	for _, o := range openers {
		if strings.HasPrefix(s, o) {
			return s[len(o):]
		}
	}
	return s
}

func stripCloser(s string, closers []string) string {
	for _, c := range closers {
		if strings.HasSuffix(s, c) && len(s) > len(c) {
			return s[:len(s)-len(c)]
		}
	}
	return s
}

func hash(s string) uint64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte(s))
	return h.Sum64()
}

func lowerFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToLower(r)) + s[n:]
}

func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// keyPhrase returns the message's content words in order, at most eight:
// what the reply is about, said the way the asker put it.
func keyPhrase(msg, name string) string {
	var out []string
	seen := map[string]bool{}
	for _, w := range embed.Words(msg) {
		if embed.IsStopword(w) || len(w) < 3 || seen[w] || strings.EqualFold(w, name) {
			continue
		}
		seen[w] = true
		out = append(out, w)
		if len(out) == 8 {
			break
		}
	}
	return strings.Join(out, " ")
}
