package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"sync"
	"time"

	"github.com/duetbot/duet/shared/app/brains"
	"github.com/duetbot/duet/shared/config"
	"github.com/duetbot/duet/shared/convai2"
	"github.com/duetbot/duet/shared/convai2/replay"
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
		convai2.AddDecoys(ds, *seat, *decoys, *seed)
	}
	cfg, err := config.FromEnv()
	if err != nil {
		return err
	}
	backends, err := brains.New(ctx, cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	r := &replay.Rater{Evaluator: backends.Evaluator, Seat: *seat}
	var prog *rateProgress
	if len(ds) >= 500 {
		prog = &rateProgress{w: stderr, total: len(ds), start: time.Now()}
	}
	results, err := r.RateAll(ctx, ds, prog.tick)
	if err != nil {
		return fmt.Errorf("%s: %w", *path, err)
	}
	if *asJSON {
		return writeRatingsJSON(stdout, replay.Rated(results))
	}
	return writeRatingSummary(stdout, *path, *seat, ds, replay.Rated(results))
}

// writeRatingsJSON prints one JSON object per dialogue per line.
func writeRatingsJSON(w io.Writer, results []convai2.Rated) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for i := range results {
		if err := enc.Encode(&results[i]); err != nil {
			return err
		}
	}
	return nil
}

// writeRatingSummary prints the ratings' histogram and their agreement
// with the humans' labels.
func writeRatingSummary(w io.Writer, path, seat string, ds []convai2.Dialogue, results []convai2.Rated) error {
	a := convai2.Agree(ds, results, seat)
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
