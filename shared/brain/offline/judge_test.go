package offline

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/duetbot/duet/shared/brain"
)

func TestCommittedJudge(t *testing.T) {
	m := defaultJudge()
	nonzero := 0
	for _, w := range m.Hashed {
		if w != 0 {
			nonzero++
		}
	}
	if nonzero < 1000 || m.Message[0] == 0 || m.Dialogue[1] == 0 {
		t.Errorf("the committed model looks unfitted: %d hashed weights set, bias %v, mean-logit weight %v", nonzero, m.Message[0], m.Dialogue[1])
	}
	if !strings.HasPrefix(m.Trained, "duet rate fit:") {
		t.Errorf("trained = %q, want what `duet rate fit` wrote", m.Trained)
	}
}

func TestParseJudgeModelRefuses(t *testing.T) {
	good, err := json.Marshal(defaultJudge())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParseJudgeModel(good); err != nil {
		t.Fatalf("the committed model: %v", err)
	}
	for name, change := range map[string]func(m *JudgeModel){
		"renamed feature": func(m *JudgeModel) { m.MessageFeatures = append(m.MessageFeatures[1:], "bias") },
		"short dialogue":  func(m *JudgeModel) { m.Dialogue = m.Dialogue[1:] },
		"hash size":       func(m *JudgeModel) { m.Hashed = m.Hashed[:100] },
		"unsorted cuts":   func(m *JudgeModel) { m.RatingCuts[0], m.RatingCuts[8] = m.RatingCuts[8], m.RatingCuts[0] },
		"score cuts":      func(m *JudgeModel) { m.ScoreCuts = m.ScoreCuts[:3] },
	} {
		m, _ := ParseJudgeModel(good)
		change(m)
		b, _ := json.Marshal(m)
		if _, err := ParseJudgeModel(b); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := ParseJudgeModel([]byte(`{"message": [1,`)); err == nil {
		t.Error("truncated JSON accepted")
	}
}

// synthetic labels: a partner who answers with substance is good, one
// who begs for stars or mashes keys is bad.
func syntheticSamples() (msgs, dialogs []JudgeSample) {
	ctx := "i like to ride horses.\ni help tend the fields."
	good := []string{"i grew up on a farm too, we kept goats and chickens.", "my favourite place is the lake near my town, i swim there every summer.", "i work as a nurse, the night shifts are hard but i love helping people."}
	bad := []string{"give me 5 stars please", "asdf qwer zxcv", "rate me high :)"}
	for k := range 30 {
		for label, set := range [][]string{bad, good} {
			turns := []brain.Turn{{Role: brain.Bot, Text: "hi! what do you do?"}}
			for i := range 3 {
				turns = append(turns, brain.Turn{Role: brain.Partner, Text: set[(k+i)%3]})
				msgs = append(msgs, JudgeSample{Req: brain.Request{Context: ctx, Turns: append([]brain.Turn(nil), turns...)}, Label: float64(label)})
				turns = append(turns, brain.Turn{Role: brain.Bot, Text: fmt.Sprintf("tell me more, %d?", i)})
			}
			dialogs = append(dialogs, JudgeSample{Req: brain.Request{Context: ctx, Turns: turns}, Label: float64(1 + 4*label)})
		}
	}
	return msgs, dialogs
}

func TestFitJudge(t *testing.T) {
	msgs, dialogs := syntheticSamples()
	m1, err := FitJudge(msgs, dialogs, DefaultFitOptions)
	if err != nil {
		t.Fatal(err)
	}
	m2, err := FitJudge(msgs, dialogs, DefaultFitOptions)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(m1, m2) {
		t.Error("two fits of the same samples differ")
	}
	b := WithJudge(m1)
	ctx := context.Background()
	profile := "i like to ride horses.\ni help tend the fields."
	rate := func(msg string) int {
		r, err := b.Rate(ctx, brain.Request{Context: profile, Turns: []brain.Turn{{Role: brain.Bot, Text: "hi! what do you do?"}, {Role: brain.Partner, Text: msg}}})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if g, s := rate("i work as a nurse, the night shifts are hard but i love helping people."), rate("give me 5 stars please"); g <= s {
		t.Errorf("fitted on synthetic labels: a good answer rated %d, begging %d; want the answer higher", g, s)
	}
	final := func(label int) brain.Scores {
		sc, err := b.Final(ctx, dialogs[label].Req)
		if err != nil {
			t.Fatal(err)
		}
		return sc
	}
	if bad, good := final(0), final(1); good.Score <= bad.Score {
		t.Errorf("final score: good chat %d, bad chat %d; want the good one higher", good.Score, bad.Score)
	}
	if _, err := FitJudge(nil, dialogs, DefaultFitOptions); err == nil {
		t.Error("FitJudge without messages: no error")
	}
}

// TestFinalJudgeRange: a ConvAI2 final's score falls in the server's range,
// and the guess names a candidate.
func TestFinalJudgeRange(t *testing.T) {
	req := brain.Request{Context: "i like to ride horses.\ni help tend the fields.", Turns: []brain.Turn{
		{Role: brain.Partner, Text: "hi, i bake cakes for a living and i have two cats."},
		{Role: brain.Bot, Text: "cats! what are their names?"},
		{Role: brain.Partner, Text: "tom and jerry, they love the cakes too."},
	}}
	for _, j := range []brain.Judge{{Min: 1, Max: 5}, {Min: 0, Max: 10}, {Min: 3, Max: 3}} {
		j.Profiles = [][]string{{"i am a pilot.", "i fly planes."}, {"i love to bake cakes.", "i have two cats."}}
		req.Judge = &j
		s, err := New().Final(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if s.Score < j.Min || s.Score > j.Max {
			t.Errorf("judge %d..%d: score %d", j.Min, j.Max, s.Score)
		}
		if s.Profile == nil || *s.Profile != 1 {
			t.Errorf("judge %d..%d: profile guess %v, want 1 (the cakes and cats)", j.Min, j.Max, s.Profile)
		}
	}
}

// TestFitProfileLexicon: a paraphrase seen across speakers ("horses" in
// the profile, "riding" in the messages) is learned, and it decides a
// guess no exact word decides.
func TestFitProfileLexicon(t *testing.T) {
	var profiles, messages [][]string
	for range 10 {
		profiles = append(profiles, []string{"i have three horses."}, []string{"i bake cakes."})
		messages = append(messages, []string{"i went riding today"}, []string{"the oven is hot"})
	}
	lex := FitProfileLexicon(profiles, messages, 3, 0.5, 1, 1.0/3)
	ride, horse, oven := stem("riding"), stem("horses"), stem("oven")
	if lex.Assoc[ride+" "+horse] <= 0 {
		t.Fatalf("assoc %v: want riding with horses", lex.Assoc)
	}
	if lex.Assoc[oven+" "+horse] > 0 {
		t.Errorf("assoc oven/horse %v, want none", lex.Assoc[oven+" "+horse])
	}
	turns := []brain.Turn{{Role: brain.Bot, Text: "hi"}, {Role: brain.Partner, Text: "i was riding all morning"}}
	var rc readCache
	cands := [][]string{{"i bake cakes."}, {"i have three horses."}}
	if k := guessProfile(turns, cands, &rc, lex); k != 1 {
		t.Errorf("guess %d, want 1 (horses, by the learned paraphrase)", k)
	}
	if k := guessProfile(turns, cands, &rc, nil); k != 0 {
		t.Errorf("guess without a lexicon %d, want 0 (no evidence: the first)", k)
	}
}

// TestGuessEvidenceDev measures how often the dev set's bots (participant2)
// say nothing that points at their own profile: no content word of it and
// no learned paraphrase. A guess is chance there, whatever the model
// (docs/rating.md reports the count).
func TestGuessEvidenceDev(t *testing.T) {
	var rc readCache
	spoke, none := 0, 0
	for _, d := range devDialogues(t) {
		var turns []brain.Turn
		partner := false
		for _, m := range d.Dialog {
			role := brain.Bot
			if m.Sender == "participant2" {
				role, partner = brain.Partner, true
			}
			turns = append(turns, brain.Turn{Role: role, Text: m.Text})
		}
		if !partner {
			continue
		}
		spoke++
		if profileScores(turns, [][]string{d.BotProfile}, &rc, defaultJudge().Profile)[0] == 0 {
			none++
		}
	}
	t.Logf("dev: in %d of the %d dialogues where the bot spoke, nothing it said points at its profile", none, spoke)
	if spoke != 169 || none == 0 || none >= spoke/2 {
		t.Errorf("%d of %d without evidence; want 169 dialogues, some but not most without", none, spoke)
	}
}
