package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/duetbot/duet/shared/app/brains"
	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/config"
	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/convai2"
	"github.com/duetbot/duet/shared/store/memstore"
)

func init() {
	register("rate", "rate ConvAI2 dialogues as the live bot would, and the agreement with their human labels (fit: refit the evaluator)", runRate)
}

const rateUsage = `usage: duet rate -dialogs FILE.json [-seat participant1] [-json] [-decoys N] [-seed N]
       duet rate fit -data DIR [-out shared/brain/offline/judge_model.json]`

func runRate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "fit" {
		return rateFit(ctx, args[1:], stdout, stderr)
	}
	fs := newFlags("rate", stderr)
	path := fs.String("dialogs", "", "ConvAI2 dialogue file (a JSON array, as in DeepPavlov/convai's 2018/data)")
	seat := fs.String("seat", convai2.Participant1, "the seat Duet takes: participant1 or participant2")
	asJSON := fs.Bool("json", false, "one JSON object per dialogue per line, in input order")
	decoys := fs.Int("decoys", 0, "give each dialogue without profile_options the partner's true profile and N others' (random order), as the dev protocol does")
	seed := fs.Uint64("seed", 1, "seed of -decoys")
	fs.Usage = func() { fmt.Fprintln(stderr, rateUsage); fs.PrintDefaults() }
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *path == "" || fs.NArg() > 0 {
		return fmt.Errorf("%w: %s", errUsage, rateUsage)
	}
	if !convai2.ValidSeat(*seat) {
		return fmt.Errorf("-seat %q: want participant1 or participant2", *seat)
	}
	if *decoys < 0 || *decoys >= convai2.MaxOptions {
		return fmt.Errorf("-decoys %d: want 0..%d", *decoys, convai2.MaxOptions-1)
	}
	ds, err := readFile(*path, convai2.MaxFileBytes, convai2.Read)
	if err != nil {
		return err
	}
	if *decoys > 0 {
		addDecoys(ds, *seat, *decoys, *seed)
	}
	cfg, err := config.FromEnv()
	if err != nil {
		return err
	}
	backends, err := brains.New(ctx, cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	r := &rater{evaluator: backends.Evaluator, seat: *seat}
	var prog *rateProgress
	if len(ds) >= 500 {
		prog = &rateProgress{w: stderr, total: len(ds), start: time.Now()}
	}
	results, err := r.rateAll(ctx, ds, prog.tick)
	if err != nil {
		return fmt.Errorf("%s: %w", *path, err)
	}
	if *asJSON {
		return writeRatingsJSON(stdout, results)
	}
	return writeRatingSummary(stdout, *path, *seat, ds, results)
}

// rated is what Duet said of one dialogue.
type rated struct {
	Index   int             `json:"index"`
	Ratings []ratedMsg      `json:"ratings"`
	Final   ratedFinal      `json:"final"`
	reqs    []brain.Request // the evaluator's requests, when recording
	final   brain.Request
}

type ratedMsg struct {
	ID         int64 `json:"id"`
	Evaluation int   `json:"evaluation"`
}

type ratedFinal struct {
	Score      int  `json:"score"`
	Profile    *int `json:"profile_idx,omitempty"`
	Quality    int  `json:"quality"`
	Breadth    int  `json:"breadth"`
	Engagement int  `json:"engagement"`
}

// rater replays dialogues through the ConvAI engine: Duet's seat speaks
// the dialogue's own words (a scripted Replier), the other seat's
// messages arrive as updates, and the engine rates each one and gives the
// final for the router's "/end 1 5" with the dialogue's profile options —
// the same code, store and evaluator as a live chat.
type rater struct {
	evaluator brain.Evaluator
	seat      string
	record    bool // keep the evaluator's requests (for fit)
}

// silence is Duet's reply where its seat said nothing before the
// partner's next message: the engine answers every message.
const silence = "…"

func (r *rater) rateAll(ctx context.Context, ds []convai2.Dialogue, tick func()) ([]rated, error) {
	out := make([]rated, len(ds))
	errs := make([]error, len(ds))
	workers := min(runtime.GOMAXPROCS(0), len(ds))
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range next {
				out[i], errs[i] = r.rate(ctx, i, &ds[i])
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

// rate replays dialogue i.
func (r *rater) rate(ctx context.Context, i int, d *convai2.Dialogue) (rated, error) {
	res := rated{Index: i, Ratings: []ratedMsg{}}
	script := &script{}
	sender := &captured{}
	ev := brain.Evaluator(r.evaluator)
	var rec *recorder
	if r.record {
		rec = &recorder{Evaluator: r.evaluator}
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
	fail := func(err error, what string) (rated, error) {
		return rated{}, fmt.Errorf("dialogue %d: %s: %w", i, what, err)
	}
	if err := send("/start " + strings.Join(d.Profile(r.seat), "\n")); err != nil {
		return fail(err, "/start")
	}
	msgs := d.Messages
	// seatRun returns the texts of Duet's seat from k on, and where they end.
	seatRun := func(k int) (string, int) {
		var texts []string
		for ; k < len(msgs) && msgs[k].Sender == r.seat; k++ {
			if t := strings.TrimSpace(msgs[k].Text); t != "" {
				texts = append(texts, t)
			}
		}
		if len(texts) == 0 {
			return silence, k
		}
		return strings.Join(texts, "\n"), k
	}
	k := 0
	if k < len(msgs) && msgs[k].Sender == r.seat {
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
		res.Ratings = append(res.Ratings, ratedMsg{ID: m.ID, Evaluation: *reply.Evaluation})
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
	res.Final = ratedFinal{Score: f.Score, Profile: f.Profile, Quality: f.Quality, Breadth: f.Breadth, Engagement: f.Engagement}
	if rec != nil {
		res.reqs, res.final = rec.rates, rec.final
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
	req.Turns = append([]brain.Turn(nil), req.Turns...)
	return req
}

// addDecoys gives every dialogue without options its partner's true
// profile and n others' (from other dialogues, different from it), in a
// random order from seed.
func addDecoys(ds []convai2.Dialogue, seat string, n int, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 0x6475657420726174))
	for i := range ds {
		if ds[i].Options != nil || len(ds) < 2 {
			continue
		}
		truth := ds[i].PartnerProfile(seat)
		opts := [][]string{truth}
		for tries := 0; len(opts) < n+1 && tries < 100*n; tries++ {
			j := rng.IntN(len(ds))
			p := ds[j].PartnerProfile(seat)
			if j == i || len(p) == 0 || sameProfile(p, truth) {
				continue
			}
			opts = append(opts, p)
		}
		rng.Shuffle(len(opts), func(a, b int) { opts[a], opts[b] = opts[b], opts[a] })
		ds[i].Options = opts
	}
}

func sameProfile(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if strings.TrimSpace(a[i]) != strings.TrimSpace(b[i]) {
			return false
		}
	}
	return true
}

func writeRatingsJSON(w io.Writer, results []rated) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for i := range results {
		if err := enc.Encode(&results[i]); err != nil {
			return err
		}
	}
	return nil
}

// agreement is how Duet's judgments agree with the humans' labels.
type agreement struct {
	Dialogues, Scored, Messages, Labelled, Guessed, Spoke int
	Spearman, AUC                                         float64
	ProfileAcc, ProfileAccSpoke                           float64
	HumanProfileAcc                                       float64
	HumanGuesses                                          int
	// ProfileCeiling is the best profile accuracy a guess can expect:
	// right wherever the partner spoke, chance (one in the number of
	// options) where it never did.
	ProfileCeiling float64
	// OracleAUC is the message AUC of the dialogue's own human score
	// (eval_score) used as every message's rating, over the labelled
	// messages of scored dialogues: how far the humans' per-message
	// thumbs follow their view of the whole dialogue.
	OracleAUC      float64
	OracleMessages int
}

// agree measures results against the labels of ds.
func agree(ds []convai2.Dialogue, results []rated, seat string) agreement {
	a := agreement{Dialogues: len(ds), ProfileAcc: math.NaN(), ProfileAccSpoke: math.NaN(), HumanProfileAcc: math.NaN(), ProfileCeiling: math.NaN()}
	var sx, sy, mx, ox []float64
	var my, oy []bool
	ceiling := 0.0
	right, rightSpoke, humanRight := 0, 0, 0
	for i, d := range ds {
		res := results[i]
		a.Messages += len(res.Ratings)
		if d.Score > 0 {
			a.Scored++
			sx = append(sx, float64(res.Final.Score))
			sy = append(sy, float64(d.Score))
		}
		byID := map[int64]int{}
		for _, m := range res.Ratings {
			byID[m.ID] = m.Evaluation
		}
		for _, m := range d.Messages {
			if m.Sender != seat && m.Evaluation >= 0 {
				if ev, ok := byID[m.ID]; ok {
					a.Labelled++
					mx = append(mx, float64(ev))
					my = append(my, m.Evaluation == 1)
					if d.Score > 0 {
						ox = append(ox, float64(d.Score))
						oy = append(oy, m.Evaluation == 1)
					}
				}
			}
		}
		if res.Final.Profile != nil && len(d.Options) > 0 {
			truth := d.PartnerProfile(seat)
			ok := sameProfile(d.Options[*res.Final.Profile], truth)
			a.Guessed++
			if ok {
				right++
			}
			if len(res.Ratings) > 0 {
				a.Spoke++
				ceiling++
				if ok {
					rightSpoke++
				}
			} else {
				ceiling += 1 / float64(len(d.Options))
			}
		}
		if d.ProfileMatch >= 0 {
			a.HumanGuesses++
			humanRight += d.ProfileMatch
		}
	}
	a.Spearman = convai2.Spearman(sx, sy)
	a.AUC = convai2.AUC(mx, my)
	a.OracleAUC, a.OracleMessages = convai2.AUC(ox, oy), len(ox)
	if a.Guessed > 0 {
		a.ProfileAcc = float64(right) / float64(a.Guessed)
		a.ProfileCeiling = ceiling / float64(a.Guessed)
	}
	if a.Spoke > 0 {
		a.ProfileAccSpoke = float64(rightSpoke) / float64(a.Spoke)
	}
	if a.HumanGuesses > 0 {
		a.HumanProfileAcc = float64(humanRight) / float64(a.HumanGuesses)
	}
	return a
}

func writeRatingSummary(w io.Writer, path, seat string, ds []convai2.Dialogue, results []rated) error {
	a := agree(ds, results, seat)
	hist := make([]int, 11)
	for _, r := range results {
		for _, m := range r.Ratings {
			hist[m.Evaluation]++
		}
	}
	fmt.Fprintf(w, "%s: %d dialogues, Duet in %s's seat, %d messages of %s rated\n", path, a.Dialogues, seat, a.Messages, convai2.Other(seat))
	fmt.Fprintf(w, "ratings 1..10:")
	for v := 1; v <= 10; v++ {
		fmt.Fprintf(w, " %d", hist[v])
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "agreement with the humans' labels:")
	fmt.Fprintf(w, "  dialogue score vs eval_score       Spearman %s  (%d dialogues)\n", figure(a.Spearman), a.Scored)
	fmt.Fprintf(w, "  message rating vs evaluation_score ROC AUC  %s  (%d messages)\n", figure(a.AUC), a.Labelled)
	if a.OracleMessages > 0 {
		fmt.Fprintf(w, "    (the dialogue's own eval_score as every message's rating: ROC AUC %s, %d messages)\n", figure(a.OracleAUC), a.OracleMessages)
	}
	fmt.Fprintf(w, "  partner's profile guessed          accuracy %s  (%d dialogues with options; %s of the %d where the partner spoke)\n",
		figure(a.ProfileAcc), a.Guessed, figure(a.ProfileAccSpoke), a.Spoke)
	if a.Guessed > a.Spoke {
		fmt.Fprintf(w, "    (ceiling %s: in %d dialogues the partner never spoke, where a guess is chance)\n", figure(a.ProfileCeiling), a.Guessed-a.Spoke)
	}
	if a.HumanGuesses > 0 {
		fmt.Fprintf(w, "  the humans' own profile guesses    accuracy %s  (profile_match, %d dialogues)\n", figure(a.HumanProfileAcc), a.HumanGuesses)
	}
	return nil
}

// figure prints a measure, or "n/a" when the labels do not allow it.
func figure(v float64) string {
	if math.IsNaN(v) {
		return " n/a"
	}
	return fmt.Sprintf("%.3f", v)
}

// rateProgress reports long runs on stderr.
type rateProgress struct {
	mu    sync.Mutex
	w     io.Writer
	total int
	done  int
	start time.Time
	last  time.Time
}

func (p *rateProgress) tick() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	if now := time.Now(); now.Sub(p.last) >= time.Second || p.done == p.total {
		p.last = now
		fmt.Fprintf(p.w, "rated %d/%d dialogues (%s)\n", p.done, p.total, now.Sub(p.start).Round(time.Millisecond))
	}
}
