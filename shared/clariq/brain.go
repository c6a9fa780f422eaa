package clariq

import (
	"context"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/duetbot/duet/shared/brain"
)

// Brain plays a ClariQ system in a ConvAI chat: the request is the chat's
// context (or, after a bare /start, the partner's first message); each
// reply is the next clarifying question from the bank, ranked for the
// request and every answer so far; when the request needs no clarifying,
// or nothing useful is left to ask, it closes the chat. Ratings and the
// final evaluation come from the Evaluator it is given.
type Brain struct {
	r  *Ranker
	ev brain.Evaluator
	// MaxQuestions caps the questions of one chat, whatever the need.
	MaxQuestions int
	// MinScore is the model score (log-odds) below which a question is
	// not worth asking.
	MinScore float64
}

var (
	_ brain.Replier   = (*Brain)(nil)
	_ brain.Ender     = (*Brain)(nil)
	_ brain.Evaluator = (*Brain)(nil)
)

// NewBrain returns a ClariQ brain asking from r's bank and rating with ev.
func NewBrain(r *Ranker, ev brain.Evaluator) *Brain {
	return &Brain{r: r, ev: ev, MaxQuestions: 4, MinScore: -6}
}

// Prompt is what the bot says when it must speak first and has no request yet.
const Prompt = "Hello! What would you like to find information about?"

// Dialogue is a ClariQ chat read from a brain.Request: the request, the
// questions asked and the answers given, oldest first. Small talk before
// the request ("hi, can you help me?") is not part of it: Greeted and
// AskedHelp say what there was.
type Dialogue struct {
	Request   string
	Questions []string
	Answers   []string
	Greeted   bool
	AskedHelp bool
}

// ReadDialogue finds the request, the questions and the answers in req.
func ReadDialogue(req brain.Request) Dialogue {
	var d Dialogue
	opening := func(text string) {
		rest, g, h := dropSmallTalk(text)
		d.Request = strings.TrimSpace(rest)
		d.Greeted, d.AskedHelp = d.Greeted || g, d.AskedHelp || h
	}
	opening(req.Context)
	turns := req.Turns
	if d.Request == "" {
		// The bot's replies until the request comes are invitations, not
		// clarifying questions.
		for len(turns) > 0 && d.Request == "" {
			if turns[0].Role == brain.Partner {
				opening(turns[0].Text)
			}
			turns = turns[1:]
		}
	}
	asked := false
	for _, t := range turns {
		switch t.Role {
		case brain.Bot:
			d.Questions = append(d.Questions, t.Text)
			asked = true
		case brain.Partner:
			if asked {
				d.Answers = append(d.Answers, t.Text)
			} else if rest, _, _ := dropSmallTalk(t.Text); rest != "" {
				// Before any question the partner is still stating the
				// request; a greeting then adds nothing to it.
				d.Request = strings.TrimSpace(d.Request + " " + rest)
			}
		}
	}
	return d
}

// Reply returns the next clarifying question or the closing line.
func (b *Brain) Reply(ctx context.Context, req brain.Request) (string, error) {
	text, _, err := b.ReplyEnd(ctx, req)
	return text, err
}

// ReplyEnd returns the next clarifying question, or a closing line with
// end set once the request is clear or nothing useful is left to ask.
func (b *Brain) ReplyEnd(ctx context.Context, req brain.Request) (string, bool, error) {
	if err := ctx.Err(); err != nil {
		return "", false, err
	}
	d := ReadDialogue(req)
	if len(words(d.Request)) == 0 {
		if d.Greeted || d.AskedHelp {
			return invitation(d.Greeted, d.AskedHelp), false, nil
		}
		return Prompt, false, nil
	}
	if req.Closing {
		return closing(d), true, nil
	}
	limit := b.MaxQuestions
	if need := b.r.Need(d.Request); need < limit {
		limit = need
	}
	// A need of 1 still asks when the partner has already answered, but
	// the first reply to a self-contained request is the closing line.
	if len(d.Questions) >= limit {
		return closing(d), true, nil
	}
	q, ok := b.next(d)
	if !ok {
		return closing(d), true, nil
	}
	return asQuestion(q.Text), false, nil
}

// next picks the best question not yet asked, nor like one already asked.
func (b *Brain) next(d Dialogue) (Scored, bool) {
	query := d.Request
	for _, a := range d.Answers {
		query += " " + a
	}
	askedText := map[string]bool{}
	var askedTerms []map[string]bool
	reqTerms := set(terms(d.Request))
	// rejected are the facets the partner said no to; narrow are the terms
	// the answers added to the need themselves.
	rejected, narrow := map[string]bool{}, map[string]bool{}
	for i, q := range d.Questions {
		askedText[normalise(q)] = true
		own := minus(set(terms(q)), reqTerms)
		askedTerms = append(askedTerms, own)
		if i >= len(d.Answers) || unsureAnswer(d.Answers[i]) {
			continue
		}
		if negative(d.Answers[i]) {
			for t := range own {
				rejected[t] = true
			}
		}
		rest, _ := cutLead(d.Answers[i], answerLeads)
		for t := range minus(minus(set(terms(rest)), reqTerms), set(terms(q))) {
			narrow[t] = true
		}
	}
	ix := b.r.ix
	skip := func(i int) bool {
		if ix.empty[i] || askedText[normalise(ix.bank[i].Text)] {
			return true
		}
		own := minus(set(terms(ix.bank[i].Text)), reqTerms)
		for _, a := range askedTerms {
			if jaccard(own, a) >= 0.6 {
				return true
			}
		}
		// After a "no" the next question is about another facet, and once
		// an answer has narrowed the need, a question must keep to it:
		// one without any of its terms would be broader than the need.
		if shares(own, rejected) {
			return true
		}
		return len(narrow) > 0 && !shares(own, narrow)
	}
	// A question must suit the request itself, and the answers steer
	// among those: the two scores add up.
	score := b.r.Scores(d.Request)
	if len(d.Answers) > 0 {
		for i, s := range b.r.Scores(query) {
			score[i] = (score[i] + s) / 2
		}
	}
	// In a chat a question must be about the request: one sharing none
	// of its terms comes after every one that does.
	onTopic := make([]bool, len(score))
	for t := range reqTerms {
		if id, ok := ix.termID[t]; ok {
			for _, p := range ix.post[id] {
				onTopic[p.doc] = true
			}
		}
	}
	for i := range score {
		if !onTopic[i] {
			score[i] -= offTopicPenalty
		}
	}
	// A facet the partner said no to is not asked about again.
	for t := range rejected {
		if id, ok := ix.termID[t]; ok {
			for _, p := range ix.post[id] {
				score[p.doc] -= rejectPenalty
			}
		}
	}
	best := -1
	for i, s := range score {
		if (best < 0 || s > score[best]) && !skip(i) {
			best = i
		}
	}
	if best < 0 || score[best] < b.MinScore {
		return Scored{}, false
	}
	q := ix.bank[best]
	return Scored{Index: best, ID: q.ID, Text: q.Text, Score: score[best]}, true
}

// rejectPenalty is the log-odds a question loses for each term it shares
// with a question the partner said no to.
const rejectPenalty = 2

// offTopicPenalty is what a question sharing no term with the request loses.
const offTopicPenalty = 4

// negative reports an answer that turns the question down ("no, …").
func negative(answer string) bool {
	ws := words(answer)
	return len(ws) > 0 && (ws[0] == "no" || ws[0] == "nope" || ws[0] == "not" || ws[0] == "neither" || ws[0] == "nah")
}

// Rate rates the partner's last message with the brain's evaluator.
func (b *Brain) Rate(ctx context.Context, req brain.Request) (int, error) { return b.ev.Rate(ctx, req) }

// Final scores the whole chat with the brain's evaluator.
func (b *Brain) Final(ctx context.Context, req brain.Request) (brain.Scores, error) {
	return b.ev.Final(ctx, req)
}

// asQuestion turns a bank entry ("are you looking for a map") into a
// sentence ("Are you looking for a map?").
func asQuestion(s string) string {
	s = strings.TrimSpace(s)
	r, n := utf8.DecodeRuneInString(s)
	s = string(unicode.ToUpper(r)) + s[n:]
	if !strings.HasSuffix(s, "?") {
		s = strings.TrimRight(s, ".!") + "?"
	}
	return s
}

func set(ts []string) map[string]bool {
	m := make(map[string]bool, len(ts))
	for _, t := range ts {
		m[t] = true
	}
	return m
}

func minus(a, b map[string]bool) map[string]bool {
	for t := range b {
		delete(a, t)
	}
	return a
}

// shares reports whether a and b have a term in common.
func shares(a, b map[string]bool) bool {
	for t := range a {
		if b[t] {
			return true
		}
	}
	return false
}

func jaccard(a, b map[string]bool) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	n := 0
	for t := range a {
		if b[t] {
			n++
		}
	}
	return float64(n) / float64(len(a)+len(b)-n)
}
