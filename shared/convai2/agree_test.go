package convai2_test

import (
	"math"
	"slices"
	"testing"

	"github.com/duetbot/duet/shared/convai2"
)

func intp(i int) *int { return &i }

// agreeDialogues are three dialogues with Duet in participant1's seat:
// scores 1, 3, 5, two labelled partner messages each way, and profile
// options where the partner spoke (one right guess, one wrong) and where
// it did not.
func agreeDialogues() ([]convai2.Dialogue, []convai2.Rated) {
	horses, cats := []string{"i ride horses."}, []string{"i have two cats."}
	p2 := func(id int64, ev int) convai2.Message {
		return convai2.Message{ID: id, Sender: convai2.Participant2, Text: "x", Evaluation: ev}
	}
	ds := []convai2.Dialogue{
		{Messages: []convai2.Message{p2(1, 0), p2(2, 1)}, BotProfile: horses, Score: 1, ProfileMatch: 1, Options: [][]string{cats, horses}},
		{Messages: []convai2.Message{p2(1, 1), p2(2, 0)}, BotProfile: cats, Score: 3, ProfileMatch: 0, Options: [][]string{cats, horses}},
		{BotProfile: horses, Score: 5, ProfileMatch: -1, Options: [][]string{cats, horses}},
	}
	rs := []convai2.Rated{
		{Index: 0, Ratings: []convai2.RatedMessage{{ID: 1, Evaluation: 2}, {ID: 2, Evaluation: 9}}, Final: convai2.RatedFinal{Score: 2, Profile: intp(1)}},
		{Index: 1, Ratings: []convai2.RatedMessage{{ID: 1, Evaluation: 8}, {ID: 2, Evaluation: 3}}, Final: convai2.RatedFinal{Score: 3, Profile: intp(1)}},
		{Index: 2, Ratings: []convai2.RatedMessage{}, Final: convai2.RatedFinal{Score: 4, Profile: intp(0)}},
	}
	return ds, rs
}

func TestAgree(t *testing.T) {
	ds, rs := agreeDialogues()
	a := convai2.Agree(ds, rs, convai2.Participant1)
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"Spearman", a.Spearman, 1}, // scores 2, 3, 4 against 1, 3, 5
		{"AUC", a.AUC, 1},           // the good messages rated 9 and 8, the bad 2 and 3
		{"profile", a.ProfileAcc, 1.0 / 3},
		{"profile where spoke", a.ProfileAccSpoke, 0.5},
		{"ceiling", a.ProfileCeiling, (2 + 0.5) / 3},
		{"humans' guesses", a.HumanProfileAcc, 0.5},
	} {
		if math.Abs(c.got-c.want) > 1e-9 {
			t.Errorf("%s: got %v, want %v", c.name, c.got, c.want)
		}
	}
	if a.Dialogues != 3 || a.Scored != 3 || a.Messages != 4 || a.Labelled != 4 || a.Guessed != 3 || a.Spoke != 2 || a.HumanGuesses != 2 {
		t.Errorf("counts %+v", a)
	}
}

func TestAgreeWithoutLabels(t *testing.T) {
	a := convai2.Agree([]convai2.Dialogue{{ProfileMatch: -1}}, []convai2.Rated{{}}, convai2.Participant1)
	for name, v := range map[string]float64{"Spearman": a.Spearman, "AUC": a.AUC, "profile": a.ProfileAcc, "humans": a.HumanProfileAcc} {
		if !math.IsNaN(v) {
			t.Errorf("%s: got %v, want NaN without labels", name, v)
		}
	}
}

func TestAddDecoys(t *testing.T) {
	profiles := [][]string{{"a."}, {"b."}, {"c."}, {"d."}}
	var ds []convai2.Dialogue
	for _, p := range profiles {
		ds = append(ds, convai2.Dialogue{BotProfile: p})
	}
	ds[3].Options = [][]string{{"given."}}
	convai2.AddDecoys(ds, convai2.Participant1, 2, 1)
	for i, d := range ds[:3] {
		if len(d.Options) != 3 {
			t.Fatalf("dialogue %d: %d options, want the truth and 2 decoys", i, len(d.Options))
		}
		truths := 0
		for _, o := range d.Options {
			if convai2.SameProfile(o, profiles[i]) {
				truths++
			}
		}
		if truths != 1 {
			t.Errorf("dialogue %d: options %q hold the true profile %d times, want once", i, d.Options, truths)
		}
	}
	if !slices.Equal(ds[3].Options[0], []string{"given."}) || len(ds[3].Options) != 1 {
		t.Errorf("a dialogue's own options were replaced: %q", ds[3].Options)
	}
	again := make([]convai2.Dialogue, 4)
	for i := range again {
		again[i] = convai2.Dialogue{BotProfile: profiles[i]}
	}
	again[3].Options = [][]string{{"given."}}
	convai2.AddDecoys(again, convai2.Participant1, 2, 1)
	for i := range again {
		for j := range again[i].Options {
			if !slices.Equal(again[i].Options[j], ds[i].Options[j]) {
				t.Fatalf("the same seed gave other options for dialogue %d", i)
			}
		}
	}
}

func TestSameProfile(t *testing.T) {
	for _, tt := range []struct {
		a, b []string
		want bool
	}{
		{[]string{"i ride.", " i bake. "}, []string{"i ride.", "i bake."}, true},
		{[]string{"i ride."}, []string{"i ride.", "i bake."}, false},
		{[]string{"i ride."}, []string{"i bake."}, false},
	} {
		if got := convai2.SameProfile(tt.a, tt.b); got != tt.want {
			t.Errorf("SameProfile(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}
