package offline

import (
	"context"
	"math"

	"github.com/duetbot/duet/shared/brain"
)

// Weights of the signals in a rating; they sum to 1.
const (
	WeightRelevance  = 0.40
	WeightSubstance  = 0.30
	WeightNovelty    = 0.15
	WeightEngagement = 0.15
)

// Caps on a rating, whatever the weighted signals say.
const (
	// GibberishCap caps a message fewer than half of whose words look like
	// words.
	GibberishCap = 2
	// ShortCap caps a message of at most two words ("ok", "yes sure").
	ShortCap = 3
	// RepeatCap caps an exact repeat of an earlier partner message.
	RepeatCap = 3
)

// Tuning of the signals.
const (
	substanceContent = 6.0  // content words for full substance
	substanceWords   = 15.0 // words for full substance
	answerFloor      = 0.35 // relevance of a substantive answer to the bot's question
	breadthFull      = 12.0 // new topics for full breadth
	turnsFull        = 5.0  // partner turns for full engagement
)

// Signals are the measurements behind the rating of one partner message.
// The four scores are in 0..1; the rest are the raw facts they come from.
type Signals struct {
	// Relevance is 1−e^(−h), where h counts the message's topic stems found
	// in the context, plus half of those found only in the bot's last
	// message (not counting the reply templates' own words). A substantive
	// answer to a question of the bot scores at least 0.35.
	Relevance float64
	// Substance is RealWordRatio × (0.6 × min(1, ContentWords/6) +
	// 0.4 × min(1, Words/15)).
	Substance float64
	// Novelty is 1 minus the largest share of the message's content words
	// found in one earlier partner message (of all its words when it has no
	// content words); 0 for an exact repeat.
	Novelty float64
	// Engagement is 0.6 for asking a question plus 0.4 for addressing the
	// bot ("you").
	Engagement float64

	Words         int     // words, numbers included
	ContentWords  int     // distinct words that are neither stopwords nor gibberish
	RealWordRatio float64 // share of words that look like words; 0 for none
	Question      bool    // the message asks something
	AddressesBot  bool    // the message says "you"
	Repeat        bool    // the message repeats an earlier partner message
}

// Rating combines the signals into 1..10: 1 + 9 × the weighted sum, rounded,
// then capped by GibberishCap, ShortCap and RepeatCap.
func (s Signals) Rating() int {
	sum := WeightRelevance*s.Relevance + WeightSubstance*s.Substance +
		WeightNovelty*s.Novelty + WeightEngagement*s.Engagement
	n := 1 + int(math.Round(9*sum))
	if s.RealWordRatio < 0.5 {
		n = min(n, GibberishCap)
	}
	if s.Words <= 2 {
		n = min(n, ShortCap)
	}
	if s.Repeat {
		n = min(n, RepeatCap)
	}
	return brain.Clamp(n)
}

// Signals measures the last partner turn of req; zero Signals when the
// partner has not spoken.
func (b *Brain) Signals(req brain.Request) Signals {
	i := lastPartner(req.Turns)
	if i < 0 {
		return Signals{}
	}
	d := b.dialogue(req)
	return d.signals(i)
}

// Rate scores the last partner turn of req, 1..10 (1 when there is none).
// In a ConvAI2 chat (the context is a profile) the learned model
// (judge_model.json) rates: the chance a human finds the message good, cut
// into ten equally common ratings. A chat about a 2017 paragraph, which
// the ConvAI2 judgments say nothing of, is rated by Signals.Rating. It
// returns the context's error when ctx is already done.
func (b *Brain) Rate(ctx context.Context, req brain.Request) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	i := lastPartner(req.Turns)
	if i < 0 {
		return 1, nil
	}
	d := b.dialogue(req)
	if !d.profile {
		return d.signals(i).Rating(), nil
	}
	m := b.model()
	v := d.vector(i)
	return m.rating(m.logit(&v)), nil
}

// Final scores the whole chat, each score 1..10 (all 1 when the partner
// never spoke):
//   - in a ConvAI2 chat (a profile context, or an evaluation request in
//     req.Judge), score (1..5, or in req.Judge's range) is the learned
//     dialogue model's verdict, from the partner's message ratings, its
//     length and habits; otherwise it is 0, for the protocol to derive;
//   - quality is the mean rating of the partner's messages, each rated as
//     Rate rated it when it arrived;
//   - breadth grows with the distinct topics the partner brought in (those
//     from the context count half), full at 12;
//   - engagement is the share of engaged messages (questions, or at least
//     six words with three content words, never repeats), scaled down for
//     chats of fewer than five partner turns;
//   - when the server asked (req.Judge), Profile is the candidate profile
//     the partner's words match best (guessProfile).
func (b *Brain) Final(ctx context.Context, req brain.Request) (brain.Scores, error) {
	if err := ctx.Err(); err != nil {
		return brain.Scores{}, err
	}
	d := b.dialogue(req)
	learned := d.profile || req.Judge != nil
	m := b.model()
	var j judged
	if learned {
		j = b.judgeAll(&d)
	}
	var sum, n, engaged int
	own, shared := set{}, set{}
	for i, t := range req.Turns {
		if t.Role != brain.Partner {
			continue
		}
		s := d.signals(i)
		if d.profile { // as Rate rated it
			sum += m.rating(j.logits[n])
		} else {
			sum += s.Rating()
		}
		n++
		if s.engaged() {
			engaged++
		}
		for st := range d.at(i).topics {
			if d.ctx.stems.has(st) {
				shared.add(st)
			} else {
				own.add(st)
			}
		}
	}
	out := brain.Scores{Quality: 1, Breadth: 1, Engagement: 1}
	lo, hi := 1, 5
	if req.Judge != nil {
		lo, hi = req.Judge.Min, max(req.Judge.Max, req.Judge.Min)
		if k := guessProfile(req.Turns, req.Judge.Profiles, &b.read, b.model().Profile); k >= 0 {
			out.Profile = &k
		}
	}
	if learned {
		out.Score = lo + int(math.Round(float64((m.score(j.value)-1)*(hi-lo))/4))
	}
	if n == 0 {
		return out, nil
	}
	breadth := min(1, (float64(len(own))+0.5*float64(len(shared)))/breadthFull)
	share := float64(engaged) / float64(n)
	engagement := share * (0.6 + 0.4*min(1, float64(n)/turnsFull))
	out.Quality = brain.Clamp(int(math.Round(float64(sum) / float64(n))))
	out.Breadth = brain.Clamp(1 + int(math.Round(9*breadth)))
	out.Engagement = brain.Clamp(1 + int(math.Round(9*engagement)))
	return out, nil
}

// engaged reports a message that keeps the conversation going.
func (s Signals) engaged() bool {
	if s.Repeat || s.RealWordRatio < 0.5 {
		return false
	}
	return s.Question || (s.Words >= 6 && s.ContentWords >= 3)
}

func lastPartner(turns []brain.Turn) int {
	for i := len(turns) - 1; i >= 0; i-- {
		if turns[i].Role == brain.Partner {
			return i
		}
	}
	return -1
}

// dialogue analyses each turn of a request at most once: Final measures
// every partner turn against all those before it.
type dialogue struct {
	read    *readCache
	ctx     *text
	profile bool // the context is a ConvAI2 profile
	turns   []brain.Turn
	texts   []*text // the turns analysed, nil until needed
}

func (b *Brain) dialogue(req brain.Request) dialogue {
	c := b.contexts.get(req.Context)
	return dialogue{read: &b.read, ctx: c.text, profile: c.profile != nil, turns: req.Turns, texts: make([]*text, len(req.Turns))}
}

// at returns turn i analysed.
func (d *dialogue) at(i int) *text {
	if d.texts[i] == nil {
		d.texts[i] = d.read.text(d.turns[i].Text)
	}
	return d.texts[i]
}

// signals measures turn i, a partner turn, against what came before it.
func (d *dialogue) signals(i int) Signals {
	msg := d.at(i)
	var bot *text
	earlier := make([]*text, 0, i) // the partner turns before i, latest first
	for j := i - 1; j >= 0; j-- {
		switch d.turns[j].Role {
		case brain.Bot:
			if bot == nil {
				bot = d.at(j)
			}
		case brain.Partner:
			earlier = append(earlier, d.at(j))
		}
	}
	novel, repeat := novelty(msg, earlier)
	return Signals{
		Relevance:     relevance(msg, d.ctx, bot),
		Substance:     substance(msg),
		Novelty:       novel,
		Engagement:    engagement(msg),
		Words:         msg.wordCount,
		ContentWords:  len(msg.stems),
		RealWordRatio: msg.realRatio(),
		Question:      msg.question,
		AddressesBot:  msg.addresses,
		Repeat:        repeat,
	}
}

// relevance is the Signals.Relevance of msg; bot may be nil.
func relevance(msg, ctx *text, bot *text) float64 {
	hits := 0.0
	for st := range msg.topics {
		switch {
		case ctx.stems.has(st):
			hits++
		case bot != nil && bot.stems.has(st) && !templateVocab.has(st):
			hits += 0.5
		}
	}
	r := 1 - math.Exp(-hits)
	if bot != nil && bot.question && len(msg.stems) >= 3 && msg.realRatio() >= 0.5 {
		r = max(r, answerFloor)
	}
	return r
}

// substance is the Signals.Substance of msg.
func substance(msg *text) float64 {
	content := min(1, float64(len(msg.stems))/substanceContent)
	length := min(1, float64(msg.wordCount)/substanceWords)
	return msg.realRatio() * (0.6*content + 0.4*length)
}

// novelty is the Signals.Novelty of msg given the partner's earlier
// messages, and whether msg repeats one of them exactly.
func novelty(msg *text, earlier []*text) (float64, bool) {
	most := 0.0
	for _, e := range earlier {
		if msg.norm == e.norm {
			return 0, true
		}
		if len(msg.stems) > 0 {
			most = max(most, overlap(msg.stems, e.stems))
		} else {
			most = max(most, overlap(msg.tokens, e.tokens))
		}
	}
	return 1 - most, false
}

// overlap is the share of a found in b.
func overlap(a, b set) float64 {
	if len(a) == 0 {
		return 0
	}
	n := 0
	for w := range a {
		if b.has(w) {
			n++
		}
	}
	return float64(n) / float64(len(a))
}

// engagement is the Signals.Engagement of msg.
func engagement(msg *text) float64 {
	e := 0.0
	if msg.question {
		e += 0.6
	}
	if msg.addresses {
		e += 0.4
	}
	return e
}
