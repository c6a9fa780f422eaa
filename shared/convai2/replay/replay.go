// Package replay rates ConvAI2 dialogues as the live bot would: each
// dialogue is replayed through the ConvAI engine, Duet's seat speaking the
// dialogue's own words (a scripted Replier), the other seat's messages
// arriving as updates, so that the engine rates each one and gives the
// final for the router's "/end 1 5" with the dialogue's profile options —
// the same code, store and evaluator as a live chat.
package replay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/convai2"
	"github.com/duetbot/duet/shared/store/memstore"
)

// Rater replays dialogues with Evaluator in Seat's place.
type Rater struct {
	Evaluator brain.Evaluator
	// Seat is the seat Duet takes: convai2.Participant1 or Participant2.
	Seat string
	// Record keeps the requests the engine made of the evaluator in each
	// Result (what `duet rate fit` trains on).
	Record bool
}

// Result is what the evaluator said of one dialogue and, when recording,
// what it was asked.
type Result struct {
	convai2.Rated
	// Requests are the evaluator's Rate requests, in order, and Final its
	// Final request; set only when the Rater records.
	Requests []brain.Request
	Final    brain.Request
}

// Silence is Duet's reply where its seat said nothing before the
// partner's next message: the engine answers every message.
const Silence = "…"

// RateAll replays every dialogue of ds, on every CPU, calling tick (from
// several goroutines at once) after each; results[i] is ds[i]'s. It fails if any dialogue does, naming them.
func (r *Rater) RateAll(ctx context.Context, ds []convai2.Dialogue, tick func()) ([]Result, error) {
	out := make([]Result, len(ds))
	errs := make([]error, len(ds))
	workers := min(runtime.GOMAXPROCS(0), len(ds))
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range next {
				out[i], errs[i] = r.Rate(ctx, i, &ds[i])
				tick()
			}
		})
	}
	for i := range ds {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, errors.Join(errs...)
}

// Rated returns the ratings of results, as `duet rate -json` prints them.
func Rated(results []Result) []convai2.Rated {
	out := make([]convai2.Rated, len(results))
	for i := range results {
		out[i] = results[i].Rated
	}
	return out
}

// Rate replays dialogue d, the i-th of its file (errors name it so).
func (r *Rater) Rate(ctx context.Context, i int, d *convai2.Dialogue) (Result, error) {
	res := Result{Rated: convai2.Rated{Index: i, Ratings: []convai2.RatedMessage{}}}
	script := &script{}
	sender := &captured{}
	ev := r.Evaluator
	var rec *recorder
	if r.Record {
		rec = &recorder{Evaluator: r.Evaluator}
		ev = rec
	}
	e := &convai.Engine{
		Store:         memstore.New(),
		Sender:        sender,
		Replier:       script,
		Evaluator:     ev,
		MaxTurns:      convai2.MaxMessages + 1,
		StayOnGoodbye: true,
		Log:           slog.New(slog.DiscardHandler),
	}
	const chat = 1
	var update int64
	send := func(text string) error {
		update++
		return e.Handle(ctx, convai.Update{UpdateID: update, ChatID: chat, Text: text})
	}
	fail := func(err error, what string) (Result, error) {
		return Result{}, fmt.Errorf("dialogue %d: %s: %w", i, what, err)
	}
	if err := send("/start " + strings.Join(d.Profile(r.Seat), "\n")); err != nil {
		return fail(err, "/start")
	}
	msgs := d.Messages
	// seatRun returns the texts of Duet's seat from k on, and where they end.
	seatRun := func(k int) (string, int) {
		var texts []string
		for ; k < len(msgs) && msgs[k].Sender == r.Seat; k++ {
			if t := strings.TrimSpace(msgs[k].Text); t != "" {
				texts = append(texts, t)
			}
		}
		if len(texts) == 0 {
			return Silence, k
		}
		return strings.Join(texts, "\n"), k
	}
	k := 0
	if k < len(msgs) && msgs[k].Sender == r.Seat {
		script.next, k = seatRun(k)
		if err := send("/begin"); err != nil {
			return fail(err, "/begin")
		}
	}
	for k < len(msgs) {
		m := msgs[k]
		script.next, k = seatRun(k + 1)
		if strings.TrimSpace(m.Text) == "" {
			// The engine refuses an empty message; the partner said nothing.
			return fail(errors.New("empty text"), fmt.Sprintf(`"dialog" message id %d`, m.ID))
		}
		text := m.Text
		if convai.Parse(text).Kind != convai.Text {
			// A partner's "/start" is a message to rate, not a command
			// to the engine (ConvAI2 bots did say it).
			text = convai.Defuse(text)
		}
		before := len(sender.sent)
		if err := send(text); err != nil {
			return fail(err, fmt.Sprintf("message id %d", m.ID))
		}
		var reply convai.Reply
		if len(sender.sent) != before+1 || json.Unmarshal([]byte(sender.sent[before]), &reply) != nil || reply.Evaluation == nil {
			return fail(errors.New("the engine sent no rated reply"), fmt.Sprintf("message id %d", m.ID))
		}
		res.Ratings = append(res.Ratings, convai2.RatedMessage{ID: m.ID, Evaluation: *reply.Evaluation})
	}
	judge := brain.Judge{Min: 1, Max: 5, Profiles: d.Options}
	before := len(sender.sent)
	if err := send(convai.FormatJudge(judge)); err != nil {
		return fail(err, "/end")
	}
	var final convai.Final
	if len(sender.sent) != before+1 || json.Unmarshal([]byte(sender.sent[before]), &final) != nil || final.Text != "/end" {
		return fail(errors.New("the engine sent no final evaluation"), "/end")
	}
	f := final.Evaluation
	res.Rated.Final = convai2.RatedFinal{Score: f.Score, Profile: f.Profile, Quality: f.Quality, Breadth: f.Breadth, Engagement: f.Engagement}
	if rec != nil {
		res.Requests, res.Final = rec.rates, rec.final
	}
	return res, nil
}

// script is the Replier of a replay: it answers with Duet's seat's next
// words.
type script struct{ next string }

func (s *script) Reply(context.Context, brain.Request) (string, error) { return s.next, nil }

// captured is the Sender of a replay: it keeps what the engine sent.
type captured struct{ sent []string }

func (c *captured) Send(_ context.Context, _ int64, text string) error {
	c.sent = append(c.sent, text)
	return nil
}

// recorder keeps the requests the engine makes of the evaluator.
type recorder struct {
	brain.Evaluator
	rates []brain.Request
	final brain.Request
}

func (r *recorder) Rate(ctx context.Context, req brain.Request) (int, error) {
	r.rates = append(r.rates, cloneRequest(req))
	return r.Evaluator.Rate(ctx, req)
}

func (r *recorder) Final(ctx context.Context, req brain.Request) (brain.Scores, error) {
	r.final = cloneRequest(req)
	return r.Evaluator.Final(ctx, req)
}

func cloneRequest(req brain.Request) brain.Request {
	req.Turns = slices.Clone(req.Turns)
	return req
}
