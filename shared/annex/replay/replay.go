package replay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/duetbot/duet/shared/annex"
	"github.com/duetbot/duet/shared/embed"
)

// Bot is a bot under evaluation: something that answers annex requests.
type Bot interface {
	Ask(ctx context.Context, req annex.Request) (string, error)
}

// BotFunc adapts a function to Bot.
type BotFunc func(ctx context.Context, req annex.Request) (string, error)

// Ask calls f.
func (f BotFunc) Ask(ctx context.Context, req annex.Request) (string, error) { return f(ctx, req) }

// Echo is the original sample endpoint: it answers "echo: " + message.text.
// It is the baseline a persona must beat.
var Echo Bot = BotFunc(func(_ context.Context, req annex.Request) (string, error) {
	return "echo: " + req.Message.Text, nil
})

// Candidate is a named bot.
type Candidate struct {
	// Name is the bot's short name in reports ("bot", "#2", "echo").
	Name string
	Bot  Bot
	// Source says what the bot is (its URL); empty means Name says it all.
	Source string
}

// CompatEmeval selects the original scorer's way of scoring.
const CompatEmeval = "emeval"

// EmevalModel is the OpenAI embedding model the original scorer used:
// scores comparable with its are computed with it.
const EmevalModel = "text-embedding-ada-002"

// LexicalName names embed.Lexical, the default embeddings, in reports.
const LexicalName = "offline (lexical, no model)"

// ConversationID is the id of the conversation replayed requests carry.
const ConversationID = "replay"

// Options tune a Run.
type Options struct {
	// Embedder embeds replies and answers; nil means embed.Lexical{}.
	Embedder embed.Embedder
	// Concurrency bounds the requests in flight; < 1 means 1.
	Concurrency int
	// Compat is "" (reply against original answer) or CompatEmeval.
	Compat string
	// EmbedderName names the embeddings that produced the scores, for the
	// reports ("offline (lexical)", "openai text-embedding-3-small").
	EmbedderName string
	// Baseline is the name of the candidate the others are compared with;
	// empty means no comparison.
	Baseline string
	// Progress, when set, is called after each request with how many of
	// total are done. It may be called from several goroutines, never at once.
	Progress func(done, total int)
}

// Case is one replayed turn: the turn and the request that replays it.
type Case struct {
	Turn    annex.Turn
	Request annex.Request
}

// ErrNoTurns is returned for a transcript with no turn to score.
var ErrNoTurns = errors.New("the transcript has no turn to score: no message by the person follows someone else's")

// Cases returns the requests that replay t by growing prefixes. For each
// turn, context holds every message before the question (the person's as
// the bot's own, from "BOT"), conversation the earlier scored exchanges
// (question and the person's answer as the bot's), and message the question.
//
// Every context and conversation is a prefix of one of two slices built
// once, so that the cases of n messages take memory linear in n, not
// quadratic (a transcript of 20,000 messages once took more than 20 GB).
// The prefixes are capped (s[:k:k]): a caller's append copies them rather
// than writing into the next case's.
func Cases(t annex.Transcript) ([]Case, error) {
	turns := t.Turns()
	if len(turns) == 0 {
		return nil, ErrNoTurns
	}
	asBot := func(m annex.Message) annex.Message {
		if m.From == t.Person {
			m.From = annex.BotFrom
		}
		return m
	}
	messages := make([]annex.Message, len(t.Messages))
	for i, m := range t.Messages {
		messages[i] = asBot(m)
	}
	exchanges := make([]annex.Message, 0, 2*len(turns))
	for _, turn := range turns {
		exchanges = append(exchanges, turn.Prompt, asBot(turn.Answer))
	}
	cases := make([]Case, len(turns))
	for i, turn := range turns {
		n := turn.Index - 1
		req := annex.Request{Message: turn.Prompt, Users: t.Users, Context: messages[:n:n]}
		if i > 0 {
			req.Conversation = annex.Conversations{{ID: ConversationID, Messages: exchanges[: 2*i : 2*i]}}
		}
		cases[i] = Case{Turn: turn, Request: req}
	}
	return cases, nil
}

// Reply is one candidate's reply to one turn and its score.
type Reply struct {
	Candidate string `json:"candidate"`
	Text      string `json:"reply,omitempty"`
	// Error says why the reply could not be scored; empty when it was.
	Error string `json:"error,omitempty"`
	// Similarity is the reply's score; JSON omits it for a failed reply.
	Similarity float64 `json:"similarity"`
	// Points, Winner and Loser rank the candidates of a turn; they are
	// set, and in JSON, only under CompatEmeval.
	Points int  `json:"points,omitempty"`
	Winner bool `json:"winner,omitempty"`
	Loser  bool `json:"loser,omitempty"`
}

// MarshalJSON writes a failed reply without a similarity: it has none, and
// a 0 would read as a score.
func (r Reply) MarshalJSON() ([]byte, error) {
	type plain Reply
	if r.Scored() {
		return json.Marshal(plain(r))
	}
	return json.Marshal(struct {
		plain
		Similarity *float64 `json:"similarity,omitempty"`
	}{plain: plain(r)})
}

// Scored reports whether the reply got a score.
func (r Reply) Scored() bool { return r.Error == "" }

// TurnResult is one replayed turn.
type TurnResult struct {
	Turn     int     `json:"turn"`  // 1-based
	Index    int     `json:"index"` // the answer's index in the transcript
	Question string  `json:"question"`
	Original string  `json:"original"`
	Replies  []Reply `json:"replies"` // one per candidate, in candidate order
}

// Summary sums up one candidate's run. Mean, Median and Min are over the
// scored replies (JSON omits them when none was); Points (under
// CompatEmeval) is the mean over every turn, a failed one counting 0
// points, so that a bot is not ranked up for the turns it failed.
type Summary struct {
	Candidate string  `json:"candidate"`
	Scored    int     `json:"scored"`
	Failed    int     `json:"failed"`
	Mean      float64 `json:"mean"`
	Median    float64 `json:"median"`
	Min       float64 `json:"min"`
	Points    float64 `json:"mean_points,omitempty"`
	Wins      int     `json:"wins,omitempty"`
	// VsBaseline compares the candidate with the baseline; nil for the
	// baseline itself, without one, or when either scored nothing.
	VsBaseline *Comparison `json:"vs_baseline,omitempty"`
}

// MarshalJSON writes a candidate that scored nothing without mean, median
// and minimum: it has none, and zeros would read as scores.
func (s Summary) MarshalJSON() ([]byte, error) {
	type plain Summary
	if s.Scored > 0 {
		return json.Marshal(plain(s))
	}
	return json.Marshal(struct {
		plain
		Mean   *float64 `json:"mean,omitempty"`
		Median *float64 `json:"median,omitempty"`
		Min    *float64 `json:"min,omitempty"`
	}{plain: plain(s)})
}

// Result is a whole evaluation.
type Result struct {
	Person string `json:"person"`
	// Name is the person's username, when the transcript has it.
	Name string `json:"name,omitempty"`
	// Transcript is the replayed file, when the caller sets it.
	Transcript string `json:"transcript,omitempty"`
	Compat     string `json:"compat,omitempty"`
	// Embedder names the embeddings that produced the similarities.
	Embedder   string   `json:"embedder"`
	Candidates []string `json:"candidates"`
	// Sources says what each candidate is (its URL), in candidate order.
	Sources []string `json:"sources"`
	// Baseline is the candidate the others are compared with, if any.
	Baseline string `json:"baseline,omitempty"`
	// Verdict says, one line per compared candidate, whether it is better
	// than the baseline and by how much.
	Verdict   []string     `json:"verdict"`
	Turns     []TurnResult `json:"turns"`
	Summaries []Summary    `json:"summaries"`
}

// Unscored returns the candidates none of whose replies could be scored.
func (r *Result) Unscored() []string {
	var out []string
	for _, s := range r.Summaries {
		if s.Scored == 0 {
			out = append(out, s.Candidate)
		}
	}
	return out
}

// Run replays t against every candidate and scores the replies. A failed
// request or embedding fails only its own reply (its Error says why); Run
// itself fails only for a transcript with no turn or no candidate.
func Run(ctx context.Context, t annex.Transcript, cands []Candidate, opt Options) (*Result, error) {
	if len(cands) == 0 {
		return nil, errors.New("replay: no bot to evaluate")
	}
	if opt.Baseline != "" && !slices.ContainsFunc(cands, func(c Candidate) bool { return c.Name == opt.Baseline }) {
		return nil, fmt.Errorf("replay: baseline %q is not among the bots", opt.Baseline)
	}
	cases, err := Cases(t)
	if err != nil {
		return nil, err
	}
	emb := opt.Embedder
	if emb == nil {
		emb = embed.Lexical{}
	}
	cache, ok := emb.(*embed.Cache)
	if !ok {
		cache = embed.NewCache(emb, 0)
	}
	emb = cache
	name := opt.EmbedderName
	switch {
	case name != "":
	case opt.Embedder == nil:
		name = LexicalName
	default:
		name = fmt.Sprintf("%T", opt.Embedder)
	}
	res := &Result{Person: t.Person, Name: t.Username(), Compat: opt.Compat, Embedder: name, Baseline: opt.Baseline, Turns: make([]TurnResult, len(cases))}
	for _, c := range cands {
		src := c.Source
		if src == "" {
			src = c.Name
		}
		res.Candidates = append(res.Candidates, c.Name)
		res.Sources = append(res.Sources, src)
	}
	for i, c := range cases {
		res.Turns[i] = TurnResult{Turn: i + 1, Index: c.Turn.Index, Question: c.Turn.Prompt.Text, Original: c.Turn.Answer.Text, Replies: make([]Reply, len(cands))}
	}

	// Every turn embeds its original answer: embed them all at once, in
	// as few calls as the back end allows, before the candidates ask for
	// them one by one. A failure here is not fatal: each turn retries, and
	// a reply whose embedding fails says so.
	_, _ = cache.Embed(ctx, originals(cases, opt.Compat))

	type job struct{ turn, cand int }
	jobs := make(chan job)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done, total := 0, len(cases)*len(cands)
	for range max(opt.Concurrency, 1) {
		wg.Go(func() {
			for j := range jobs {
				r := score(ctx, cases[j.turn], cands[j.cand], emb, opt.Compat)
				mu.Lock()
				res.Turns[j.turn].Replies[j.cand] = r
				done++
				if opt.Progress != nil {
					opt.Progress(done, total)
				}
				mu.Unlock()
			}
		})
	}
	for ti := range cases {
		for ci := range cands {
			jobs <- job{ti, ci}
		}
	}
	close(jobs)
	wg.Wait()

	if opt.Compat == CompatEmeval {
		for i := range res.Turns {
			rank(res.Turns[i].Replies)
		}
	}
	res.Summaries = summarize(res)
	compare(res)
	return res, nil
}

// originals returns the distinct texts the turns' original answers are
// scored by: the answers, or under emeval question + " " + answer.
func originals(cases []Case, compat string) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range cases {
		_, b := scoredTexts(c, "", compat)
		if !seen[b] {
			seen[b] = true
			out = append(out, b)
		}
	}
	return out
}

// scoredTexts returns the texts whose similarity scores reply to c: the
// reply and the original answer, or under emeval each after the question.
func scoredTexts(c Case, reply, compat string) (a, b string) {
	a, b = reply, c.Turn.Answer.Text
	if compat == CompatEmeval {
		q := c.Turn.Prompt.Text
		a, b = q+" "+reply, q+" "+b
	}
	return a, b
}

// score asks one candidate one turn and scores its reply.
func score(ctx context.Context, c Case, cand Candidate, emb embed.Embedder, compat string) Reply {
	r := Reply{Candidate: cand.Name}
	text, err := cand.Bot.Ask(ctx, c.Request)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	r.Text = text
	a, b := scoredTexts(c, text, compat)
	vecs, err := emb.Embed(ctx, []string{a, b})
	if err != nil {
		r.Error = fmt.Sprintf("embedding failed: %v", err)
		return r
	}
	r.Similarity = embed.Cosine(vecs[0], vecs[1])
	return r
}

// rank gives the scored replies of a turn the original scorer's points:
// round((s - min) / (max - min) * 100), 0 for all when max == min (so a lone
// candidate gets 0). When at least two replies were scored and they differ,
// the best is the winner and the worst the loser; a lone reply, or replies
// that all tie, neither win nor lose.
func rank(replies []Reply) {
	lo, hi := math.Inf(1), math.Inf(-1)
	n := 0
	for _, r := range replies {
		if r.Scored() {
			lo, hi = min(lo, r.Similarity), max(hi, r.Similarity)
			n++
		}
	}
	if n == 0 {
		return
	}
	for i := range replies {
		r := &replies[i]
		if !r.Scored() {
			continue
		}
		if n >= 2 && hi > lo {
			r.Points = int(math.Floor((r.Similarity-lo)/(hi-lo)*100 + 0.5)) // JavaScript's Math.round
			r.Winner = r.Similarity == hi
			r.Loser = r.Similarity == lo
		}
	}
}

func summarize(res *Result) []Summary {
	out := make([]Summary, len(res.Candidates))
	for ci, name := range res.Candidates {
		s := Summary{Candidate: name}
		var sims []float64
		points := 0
		for _, t := range res.Turns {
			r := t.Replies[ci]
			if !r.Scored() {
				s.Failed++
				continue
			}
			sims = append(sims, r.Similarity)
			points += r.Points
			if r.Winner {
				s.Wins++
			}
		}
		s.Scored = len(sims)
		if s.Scored > 0 {
			s.Mean, s.Median, s.Min = stats(sims)
		}
		if turns := s.Scored + s.Failed; turns > 0 {
			s.Points = float64(points) / float64(turns)
		}
		out[ci] = s
	}
	return out
}

// stats returns the mean, median and minimum of xs (not empty).
func stats(xs []float64) (mean, median, least float64) {
	s := slices.Sorted(slices.Values(xs))
	var sum float64
	for _, x := range s {
		sum += x
	}
	mean = sum / float64(len(s))
	if n := len(s); n%2 == 1 {
		median = s[n/2]
	} else {
		median = (s[n/2-1] + s[n/2]) / 2
	}
	return mean, median, s[0]
}
