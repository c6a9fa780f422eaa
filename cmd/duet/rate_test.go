package main

import (
	"bufio"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/convai2/replay"

	"github.com/duetbot/duet/shared/brain/offline"
	"github.com/duetbot/duet/shared/convai2"
)

// rateSample has what real releases have: the seat speaking first, two
// partner messages in a row, a partner saying "/start", a dialogue with
// candidate profiles and one without a word from the partner.
const rateSample = `[
 {"dialog": [
   {"id": 0, "sender": "participant1", "text": "hi! do you have pets?"},
   {"id": 1, "sender": "participant2", "text": "i have three horses. do you ride?"},
   {"id": 2, "sender": "participant1", "text": "no, i am a nurse. long shifts."},
   {"id": 3, "sender": "participant2", "text": "/start"},
   {"id": 4, "sender": "participant2", "text": "i ride my horses every weekend at the farm."},
   {"id": 5, "sender": "participant1", "text": "that sounds lovely. bye!"},
   {"id": 6, "sender": "participant2", "text": "bye, it was nice talking to you"}],
  "bot_profile": ["i like to ride horses.", "i help tend the fields."],
  "user_profile": ["i am a nurse.", "i work long shifts."],
  "eval_score": 4, "profile_match": 1,
  "profile_options": [["i love to bake cakes.", "i have two cats."], ["i like to ride horses.", "i help tend the fields."]]},
 {"dialog": [{"id": 0, "sender": "participant1", "text": "hello?"}],
  "bot_profile": ["i am a pilot."], "user_profile": ["i like tea."], "eval_score": 1}
]`

func writeTemp(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRateJSON(t *testing.T) {
	path := writeTemp(t, "dialogs.json", rateSample)
	for _, tt := range []struct {
		seat    string
		ids     [][]int64
		options []bool
	}{
		{"participant1", [][]int64{{1, 3, 4, 6}, {}}, []bool{true, false}},
		{"participant2", [][]int64{{0, 2, 5}, {0}}, []bool{true, false}},
	} {
		stdout, stderr, code := runDuet(t, "rate", "-dialogs", path, "-seat", tt.seat, "-json")
		if code != 0 {
			t.Fatalf("seat %s: exit %d: %s", tt.seat, code, stderr)
		}
		sc := bufio.NewScanner(strings.NewReader(stdout))
		i := 0
		for ; sc.Scan(); i++ {
			var got struct {
				Index   int `json:"index"`
				Ratings []struct {
					ID         *int64 `json:"id"`
					Evaluation int    `json:"evaluation"`
				} `json:"ratings"`
				Final map[string]*int `json:"final"`
			}
			dec := json.NewDecoder(strings.NewReader(sc.Text()))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&got); err != nil {
				t.Fatalf("seat %s line %d: %v: %s", tt.seat, i, err, sc.Text())
			}
			if got.Index != i {
				t.Errorf("seat %s line %d: index %d", tt.seat, i, got.Index)
			}
			if len(got.Ratings) != len(tt.ids[i]) {
				t.Fatalf("seat %s dialogue %d: %d ratings, want one per partner message %v", tt.seat, i, len(got.Ratings), tt.ids[i])
			}
			for k, r := range got.Ratings {
				if r.ID == nil || *r.ID != tt.ids[i][k] || r.Evaluation < 1 || r.Evaluation > 10 {
					t.Errorf("seat %s dialogue %d rating %d = %+v, want id %d, evaluation 1..10", tt.seat, i, k, r, tt.ids[i][k])
				}
			}
			for _, key := range []string{"score", "quality", "breadth", "engagement"} {
				v := got.Final[key]
				hi := 10
				if key == "score" {
					hi = 5
				}
				if v == nil || *v < 1 || *v > hi {
					t.Errorf("seat %s dialogue %d: final %s = %v, want 1..%d", tt.seat, i, key, v, hi)
				}
			}
			p, has := got.Final["profile_idx"]
			if has != tt.options[i] || (has && (p == nil || *p < 0 || *p > 1)) {
				t.Errorf("seat %s dialogue %d: profile_idx %v (present %v), want present %v and 0..1", tt.seat, i, p, has, tt.options[i])
			}
		}
		if i != 2 {
			t.Errorf("seat %s: %d lines, want 2", tt.seat, i)
		}
	}
}

func TestRateSummary(t *testing.T) {
	path := writeTemp(t, "dialogs.json", rateSample)
	stdout, stderr, code := runDuet(t, "rate", "-dialogs", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"2 dialogues, Duet in participant1's seat, 4 messages of participant2 rated", "Spearman", "ROC AUC   n/a  (0 messages)", "1 dialogues with options"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, stdout)
		}
	}
}

func TestRateErrors(t *testing.T) {
	for _, tt := range []struct {
		name, file string
		args       []string
		code       int
		want       string
	}{
		{"no file", "", nil, 2, "usage: duet rate"},
		{"bad seat", rateSample, []string{"-seat", "bot"}, 1, `-seat "bot"`},
		{"bad json", `[{"dialog": [}`, nil, 1, "not JSON"},
		{"wrong key type", `[{"dialog": [{"id": 0, "sender": "participant1", "text": "a"}]}, {"dialog": [{"id": 0, "sender": "participant3", "text": "a"}]}]`, nil, 1, `dialogue 1: "dialog"[0]: "sender"`},
		{"empty message", `[{"dialog": [{"id": 7, "sender": "participant2", "text": "  "}]}]`, nil, 1, "dialogue 0: \"dialog\" message id 7: empty text"},
		{"missing file", "", []string{"-dialogs", "/nonexistent/x.json"}, 1, "no such file"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"rate"}, tt.args...)
			if tt.file != "" {
				args = append(args, "-dialogs", writeTemp(t, "d.json", tt.file))
			}
			_, stderr, code := runDuet(t, args...)
			if code != tt.code || !strings.Contains(stderr, tt.want) {
				t.Errorf("duet %v: exit %d, stderr %q; want exit %d and %q", args, code, stderr, tt.code, tt.want)
			}
		})
	}
}

func convai2Data(t testing.TB, name string) []convai2.Dialogue {
	t.Helper()
	dir := os.Getenv("CONVAI2_DATA")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "data", "convai2")
	}
	ds, err := readFile(filepath.Join(dir, name), convai2.MaxFileBytes, convai2.Read)
	if os.IsNotExist(err) {
		t.Skipf("ConvAI2 data absent (%v): put DeepPavlov/convai's 2018/data at ../shared/data/convai2 beside the clone, or set CONVAI2_DATA", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// TestRateDev holds the committed evaluator to its figures on the dev set
// (data_intermediate.json, options = the true profile and one other
// dialogue's): what docs/rating.md reports. The
// message AUC floor is below the goal of 0.70, which the model
// does not reach.
func TestRateDev(t *testing.T) {
	ds := convai2Data(t, "data_intermediate.json")
	convai2.AddDecoys(ds, convai2.Participant1, 1, 1)
	r := &replay.Rater{Evaluator: offline.New(), Seat: convai2.Participant1}
	res, err := r.RateAll(context.Background(), ds, func() {})
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range ds {
		n := 0
		for _, m := range d.Messages {
			if m.Sender == convai2.Participant2 {
				n++
			}
		}
		if len(res[i].Ratings) != n {
			t.Fatalf("dialogue %d: %d ratings, want %d", i, len(res[i].Ratings), n)
		}
	}
	a := convai2.Agree(ds, replay.Rated(res), convai2.Participant1)
	t.Logf("dev: Spearman %.3f (%d), AUC %.3f (%d), profile %.3f (%d; %.3f of %d where the partner spoke)",
		a.Spearman, a.Scored, a.AUC, a.Labelled, a.ProfileAcc, a.Guessed, a.ProfileAccSpoke, a.Spoke)
	if a.Scored != 198 || a.Labelled != 439 || a.Guessed != 291 {
		t.Errorf("dev set: %d scored dialogues, %d labelled messages, %d guesses; want 198, 439, 291", a.Scored, a.Labelled, a.Guessed)
	}
	if a.Spearman < 0.48 {
		t.Errorf("dialogue Spearman %.3f, want at least 0.48 (goal 0.40)", a.Spearman)
	}
	if a.AUC < 0.64 {
		t.Errorf("message AUC %.3f, want at least 0.64 (what the committed model reaches)", a.AUC)
	}
	if a.ProfileAccSpoke < 0.74 {
		t.Errorf("profile accuracy where the partner spoke %.3f, want at least 0.74", a.ProfileAccSpoke)
	}
	if math.Abs(a.ProfileCeiling-(169+122.0/2)/291) > 1e-9 {
		t.Errorf("profile ceiling %.4f, want (169 + 122/2)/291", a.ProfileCeiling)
	}
}

// TestUsageOnce: a command's usage error prints its usage text once, with
// exit code 2.
func TestUsageOnce(t *testing.T) {
	for _, cmd := range []string{"rate", "clariq", "persona"} {
		_, stderr, code := runDuet(t, cmd)
		if code != 2 || !strings.HasPrefix(stderr, "usage: duet "+cmd) || strings.Contains(stderr, "usage: usage") {
			t.Errorf("duet %s: exit %d, stderr %q; want 2 and one \"usage: duet %s\"", cmd, code, stderr, cmd)
		}
	}
}

// TestReaction: the weak label a reply gives the message before it.
func TestReaction(t *testing.T) {
	for _, c := range []struct {
		reply string
		want  float64
	}{
		{"haha that is cool", 1},
		{"what? that makes no sense", 0},
		{"i work in a bank.", 0.5},
		{"lol, why?", 0.5},
		{"", 0.25},
		{replay.Silence, 0.25},
	} {
		if got := reaction(c.reply); got != c.want {
			t.Errorf("reaction(%q) = %v, want %v", c.reply, got, c.want)
		}
	}
}

// TestMessageSamples: a message's label mixes the dialogue's score with
// the reaction of the rater's next turn; without reaction it is the score.
func TestMessageSamples(t *testing.T) {
	final := brain.Request{Turns: []brain.Turn{
		{Role: brain.Bot, Text: "hi"}, {Role: brain.Partner, Text: "i am a robot"},
		{Role: brain.Bot, Text: "haha cool"}, {Role: brain.Partner, Text: "blue"},
	}}
	reqs := []brain.Request{{Turns: final.Turns[:2]}, {Turns: final.Turns[:4]}}
	got := messageSamples(reqs, final, 1, 0.5)
	if got[0].Label != 0.5 || got[1].Label != 0.125 {
		t.Errorf("labels %v, %v; want 0.5 (score 0, liked) and 0.125 (score 0, no reply)", got[0].Label, got[1].Label)
	}
	if got := messageSamples(reqs, final, 5, 0); got[0].Label != 1 || got[1].Label != 1 {
		t.Errorf("labels without reaction %v, %v; want 1, 1", got[0].Label, got[1].Label)
	}
}
