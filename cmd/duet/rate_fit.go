package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/brain/offline"
	"github.com/duetbot/duet/shared/convai2"
	"github.com/duetbot/duet/shared/convai2/replay"
)

// devFile is the ConvAI2 release rate fit reports the dev figures on.
const devFile = "data_intermediate.json"

// rateFit learns the offline evaluator from the ConvAI2 exports in a
// directory: every export_*.json trains (Duet in participant1's seat, the
// human's, rating participant2, the bot), and data_intermediate.json, when
// there, gives the dev figures. It replays each dialogue through the
// engine exactly as `duet rate` does and fits on the requests the
// evaluator got.
func rateFit(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("rate fit", stderr)
	dir := fs.String("data", "", "directory of the ConvAI2 release (DeepPavlov/convai's 2018/data)")
	out := fs.String("out", "shared/brain/offline/judge_model.json", "where to write the model")
	o := offline.DefaultFitOptions
	fs.Float64Var(&o.L2, "l2", o.L2, "ridge penalty of the dense message weights")
	fs.Float64Var(&o.HashL2, "hash-l2", o.HashL2, "ridge penalty of the hashed word weights")
	fs.IntVar(&o.Epochs, "epochs", o.Epochs, "passes of the message model's optimiser")
	fs.Float64Var(&o.DialogL2, "dialog-l2", o.DialogL2, "ridge penalty of the dialogue weights")
	react := fs.Float64("react", defaultReactionShare, "share of a message's label its reply's reaction makes (0..1)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dir == "" || fs.NArg() > 0 {
		return fmt.Errorf("%w: %s", errUsage, rateUsage)
	}
	files, err := filepath.Glob(filepath.Join(*dir, "export_*.json"))
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("%s: no export_*.json files to train on", *dir)
	}
	sort.Strings(files)
	// The replay only collects the dialogues; FitJudge rates them anew, so
	// the committed model (stale while features change) plays no part.
	r := &replay.Rater{Evaluator: offline.WithJudge(offline.NeutralJudge()), Seat: convai2.Participant1, Record: true}
	var msgs, dialogs []offline.JudgeSample
	var profiles, said [][]string
	for _, f := range files {
		ds, err := readFile(f, convai2.MaxFileBytes, convai2.Read)
		if err != nil {
			return err
		}
		res, err := r.RateAll(ctx, ds, func() {})
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		for i, d := range ds {
			p, m := profileSpeakers(&d)
			profiles, said = append(profiles, p...), append(said, m...)
			if d.Score == 0 {
				continue // the human gave no score: nothing to learn
			}
			msgs = append(msgs, messageSamples(res[i].Requests, res[i].Final, d.Score, *react)...)
			dialogs = append(dialogs, offline.JudgeSample{Req: res[i].Final, Label: float64(d.Score)})
		}
		fmt.Fprintf(stderr, "%s: %d dialogues\n", filepath.Base(f), len(ds))
	}
	m, err := offline.FitJudge(msgs, dialogs, o)
	if err != nil {
		return err
	}
	m.Profile = offline.FitProfileLexicon(profiles, said, profileMinCount, profileMinPMI, profileAssocWeight, profileEchoWeight)
	m.Trained = fmt.Sprintf("duet rate fit: %d messages in %d scored dialogues of %d ConvAI2 exports; profile lexicon from %d speakers", len(msgs), len(dialogs), len(files), len(profiles))
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	if err := os.WriteFile(*out, append(b, '\n'), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s (%s)\n", *out, m.Trained)
	dev := filepath.Join(*dir, devFile)
	ds, err := readFile(dev, convai2.MaxFileBytes, convai2.Read)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	convai2.AddDecoys(ds, convai2.Participant1, 1, 1)
	res, err := (&replay.Rater{Evaluator: offline.WithJudge(m), Seat: convai2.Participant1}).RateAll(ctx, ds, func() {})
	if err != nil {
		return err
	}
	return writeRatingSummary(stdout, dev, convai2.Participant1, ds, replay.Rated(res))
}

// messageSamples label each rated message of a dialogue, weighted so
// that every dialogue counts about the same. The label is the
// dialogue's score, 1..5 as 0..1, mixed (share react) with how the rater
// answered the message: the exports have no per-message labels, but a
// human who answers "what?" or "that makes no sense" did not like what
// they read, and one who answers "haha, cool" did (reaction).
func messageSamples(reqs []brain.Request, final brain.Request, score int, react float64) []offline.JudgeSample {
	out := make([]offline.JudgeSample, len(reqs))
	for i, req := range reqs {
		label := float64(score-1) / 4
		if react > 0 {
			next := ""
			if k := len(req.Turns); k < len(final.Turns) && final.Turns[k].Role == brain.Bot {
				next = final.Turns[k].Text
			}
			label = (1-react)*label + react*reaction(next)
		}
		out[i] = offline.JudgeSample{Req: req, Label: label, Weight: 1}
	}
	return out
}

// defaultReactionShare is the part of a message's training label that
// its reply's reaction makes, chosen on the dev figures (the weights are
// not fitted on them). Message AUC on the dev set: 0.580 with none, 0.617
// with 0.5, 0.648 with 0.85 and 0.646 with 1 (hash-l2 3e-4); 0.662 with
// 0.85 and hash-l2 1e-3.
const defaultReactionShare = 0.85

var (
	reactionBad  = regexp.MustCompile(`(?i)\b(what|huh|nonsense|stupid|bot|sense|understand|weird|strange|repeat|already|dumb|wtf|why|boring|rude)\b|\?\s*$`)
	reactionGood = regexp.MustCompile(`(?i)\b(lol|haha|cool|nice|great|awesome|me too|wow|interesting|good|yes|yeah|love|agree|funny|thanks)\b`)
)

// reaction is how a reply received the message before it, 0..1: 1 for
// liking it, 0 for confusion or complaint, ½ for neither, ¼ for no reply
// at all (the human left).
func reaction(reply string) float64 {
	if strings.TrimSpace(reply) == "" || reply == replay.Silence {
		return 0.25
	}
	v := 0.5
	if reactionGood.MatchString(reply) {
		v += 0.5
	}
	if reactionBad.MatchString(reply) {
		v -= 0.5
	}
	return v
}

// The profile lexicon's settings, chosen by fitting on the 2018-07-07
// export and guessing on the 2018-07-06 one (the dev set plays no part).
const (
	profileMinCount    = 8
	profileMinPMI      = 1.5
	profileAssocWeight = 0.3
	profileEchoWeight  = 1.0 / 3
)

// profileSpeakers returns, for each participant of d whose profile is
// known and who spoke, the profile and the messages.
func profileSpeakers(d *convai2.Dialogue) (profiles, messages [][]string) {
	for _, seat := range []string{convai2.Participant1, convai2.Participant2} {
		p := d.Profile(seat)
		if len(p) == 0 {
			continue
		}
		var said []string
		for _, m := range d.Messages {
			if m.Sender == seat {
				said = append(said, m.Text)
			}
		}
		if len(said) > 0 {
			profiles, messages = append(profiles, p), append(messages, said)
		}
	}
	return profiles, messages
}
