package convai2

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

const sample = `[
 {"dialog": [
   {"id": 0, "sender": "participant1", "text": "hi! do you have pets?", "evaluation_score": null, "sender_class": "Human"},
   {"id": 1, "sender": "participant2", "text": "i have three horses.", "evaluation_score": 1, "sender_class": "Bot"},
   {"id": 2, "sender": "participant2", "text": "and you?", "evaluation_score": 0}],
  "start_time": "2018-07-09 04:29:15",
  "bot_profile": ["i like to ride horses."], "user_profile": ["i am a nurse."],
  "eval_score": 4, "profile_match": 1},
 {"dialog": [], "bot_profile": ["a."], "user_profile": ["b."], "eval_score": null, "profile_match": "",
  "profile_options": [["x."], ["y.", "z."]]}
]`

func TestParse(t *testing.T) {
	ds, err := Parse([]byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 2 {
		t.Fatalf("%d dialogues, want 2", len(ds))
	}
	d := ds[0]
	want := []Message{
		{ID: 0, Sender: Participant1, Text: "hi! do you have pets?", Evaluation: -1},
		{ID: 1, Sender: Participant2, Text: "i have three horses.", Evaluation: 1},
		{ID: 2, Sender: Participant2, Text: "and you?", Evaluation: 0},
	}
	for i, m := range want {
		if d.Messages[i] != m {
			t.Errorf("message %d = %+v, want %+v", i, d.Messages[i], m)
		}
	}
	if d.Score != 4 || d.ProfileMatch != 1 || d.Options != nil {
		t.Errorf("dialogue 0: score %d, match %d, options %v", d.Score, d.ProfileMatch, d.Options)
	}
	if got := d.PartnerProfile(Participant1); len(got) != 1 || got[0] != "i like to ride horses." {
		t.Errorf("participant1's partner profile = %q, want the bot profile", got)
	}
	if got := d.Profile(Participant2); got[0] != "i like to ride horses." {
		t.Errorf("participant2's profile = %q", got)
	}
	e := ds[1]
	if e.Score != 0 || e.ProfileMatch != -1 || len(e.Options) != 2 || e.Options[1][1] != "z." {
		t.Errorf("dialogue 1: score %d, match %d, options %q", e.Score, e.ProfileMatch, e.Options)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`{"dialog": []}`, "JSON array of dialogues"},
		{`[{"dialog": [], `, "not JSON"},
		{`null`, "not null"},
		{`[{"dialog": []}, 3]`, "dialogue 1: want a JSON object, got 3"},
		{`[{"dialog": {"id": 0}}]`, `dialogue 0: "dialog": want an array of messages, got {"id": 0}`},
		{`[{"dialog": "hello"}]`, `dialogue 0: "dialog": want an array of messages, got "hello"`},
		{`[{"dialog": null}]`, `dialogue 0: "dialog": want an array of messages, got null`},
		{`[{"dialog": [3]}]`, `dialogue 0: "dialog"[0]: want a JSON object, got 3`},
		{`[{"bot_profile": []}]`, `dialogue 0: "dialog": missing`},
		{`[{"dialog": [{"id": 0, "sender": "human", "text": "hi"}]}]`, `dialogue 0: "dialog"[0]: "sender": want "participant1" or "participant2", got "human"`},
		{`[{"dialog": [{"id": 0, "sender": "participant1"}]}]`, `dialogue 0: "dialog"[0]: "text": want a string, got nothing`},
		{`[{"dialog": [{"id": 0, "sender": "participant1", "text": 5}]}]`, `"text": want a string, got 5`},
		{`[{"dialog": [{"id": 1.5, "sender": "participant1", "text": "a"}]}]`, `"id": want an integer, got 1.5`},
		{`[{"dialog": [{"id": 0, "sender": "participant2", "text": "a", "evaluation_score": 2}]}]`, `"evaluation_score": want an integer 0..1 or null, got 2`},
		{`[{"dialog": [], "eval_score": 7}]`, `dialogue 0: "eval_score": want an integer 1..5 or null, got 7`},
		{`[{"dialog": [], "eval_score": "3"}]`, `"eval_score": want an integer 1..5 or null, got "3"`},
		{`[{"dialog": [], "profile_match": 2}]`, `"profile_match": want an integer 0..1`},
		{`[{"dialog": [], "bot_profile": "i am"}]`, `"bot_profile": want an array of sentences, got "i am"`},
		{`[{"dialog": [], "profile_options": {"a": 1}}]`, `"profile_options": want an array of profiles`},
		{`[{"dialog": [], "profile_options": []}]`, `"profile_options": 0 profiles, want 1..32`},
		{`[{"dialog": [], "profile_options": [["a"], [1]]}]`, `"profile_options[1]": want an array of sentences`},
	} {
		_, err := Parse([]byte(tt.in))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Parse(%s) = %v, want an error containing %q", tt.in, err, tt.want)
		}
	}
}

func TestReadTooLarge(t *testing.T) {
	if _, err := read(strings.NewReader("["+strings.Repeat(" ", 100)+"]"), 100); err == nil || !strings.Contains(err.Error(), "larger than 100 bytes") {
		t.Errorf("Read of an oversized file = %v, want a size error", err)
	}
}

func TestSpearman(t *testing.T) {
	for _, tt := range []struct {
		x, y []float64
		want float64
	}{
		{[]float64{1, 2, 3, 4}, []float64{10, 20, 30, 40}, 1},
		{[]float64{1, 2, 3, 4}, []float64{4, 3, 2, 1}, -1},
		{[]float64{1, 2, 3, 4, 5}, []float64{2, 1, 4, 3, 5}, 0.8},
		// Ties take their average rank: x ranks 1.5 1.5 3, y 1 2 3.
		{[]float64{1, 1, 2}, []float64{1, 2, 3}, 0.8660254037844387},
	} {
		if got := Spearman(tt.x, tt.y); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("Spearman(%v, %v) = %v, want %v", tt.x, tt.y, got, tt.want)
		}
	}
	if got := Spearman([]float64{1, 1}, []float64{1, 2}); !math.IsNaN(got) {
		t.Errorf("Spearman of a constant = %v, want NaN", got)
	}
}

func TestAUC(t *testing.T) {
	for _, tt := range []struct {
		s    []float64
		pos  []bool
		want float64
	}{
		{[]float64{1, 2, 3, 4}, []bool{false, false, true, true}, 1},
		{[]float64{1, 2, 3, 4}, []bool{true, true, false, false}, 0},
		{[]float64{5, 5, 5, 5}, []bool{true, false, true, false}, 0.5},
		// Pairs (pos, neg): (3,1) win, (3,4) loss, (2,1) win, (2,4) loss.
		{[]float64{1, 2, 3, 4}, []bool{false, true, true, false}, 0.5},
		{[]float64{1, 3, 2}, []bool{false, true, false}, 1},
	} {
		if got := AUC(tt.s, tt.pos); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("AUC(%v, %v) = %v, want %v", tt.s, tt.pos, got, tt.want)
		}
	}
	if got := AUC([]float64{1, 2}, []bool{true, true}); !math.IsNaN(got) {
		t.Errorf("AUC with one class = %v, want NaN", got)
	}
}

// FuzzParse: Parse never panics; what it accepts is within its limits and
// reads back the same from its own JSON; what it refuses names where.
func FuzzParse(f *testing.F) {
	f.Add([]byte(sample))
	f.Add([]byte(`[]`))
	f.Add([]byte(`[{"dialog": [{"sender": "participant1", "text": "hi", "id": -3}], "eval_score": 5.0}]`))
	f.Add([]byte(`[{"dialog": [{"sender": "participant9", "text": "hi"}]}]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		ds, err := Parse(b)
		if err != nil {
			if !json.Valid(b) {
				return
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "dialogue ") && !strings.HasPrefix(msg, "a dialogue file") && !strings.HasPrefix(msg, "not JSON") {
				t.Fatalf("error %q names no dialogue", msg)
			}
			return
		}
		type msgOut struct {
			ID         int64  `json:"id"`
			Sender     string `json:"sender"`
			Text       string `json:"text"`
			Evaluation *int   `json:"evaluation_score"`
		}
		type dOut struct {
			Dialog  []msgOut   `json:"dialog"`
			Bot     []string   `json:"bot_profile"`
			User    []string   `json:"user_profile"`
			Score   *int       `json:"eval_score"`
			Match   *int       `json:"profile_match"`
			Options [][]string `json:"profile_options,omitempty"`
		}
		out := make([]dOut, len(ds))
		for i, d := range ds {
			if len(d.Messages) > MaxMessages || len(d.Options) > MaxOptions || d.Score < 0 || d.Score > 5 {
				t.Fatalf("dialogue %d out of limits: %+v", i, d)
			}
			o := dOut{Dialog: []msgOut{}, Bot: d.BotProfile, User: d.UserProfile, Options: d.Options}
			if d.Score > 0 {
				o.Score = &d.Score
			}
			if d.ProfileMatch >= 0 {
				o.Match = &d.ProfileMatch
			}
			for _, m := range d.Messages {
				if !ValidSeat(m.Sender) || m.Evaluation < -1 || m.Evaluation > 1 || len(m.Text) > MaxTextBytes {
					t.Fatalf("dialogue %d: message out of limits: %+v", i, m)
				}
				mo := msgOut{ID: m.ID, Sender: m.Sender, Text: m.Text}
				if m.Evaluation >= 0 {
					mo.Evaluation = &m.Evaluation
				}
				o.Dialog = append(o.Dialog, mo)
			}
			out[i] = o
		}
		again, err := json.Marshal(out)
		if err != nil {
			t.Fatal(err)
		}
		ds2, err := Parse(again)
		if err != nil {
			t.Fatalf("Parse of its own output: %v\n%s", err, again)
		}
		if len(ds2) != len(ds) {
			t.Fatalf("round trip: %d dialogues, want %d", len(ds2), len(ds))
		}
		for i := range ds {
			a, b := ds[i], ds2[i]
			if a.Score != b.Score || a.ProfileMatch != b.ProfileMatch || len(a.Messages) != len(b.Messages) || len(a.Options) != len(b.Options) {
				t.Fatalf("round trip of dialogue %d: %+v != %+v", i, a, b)
			}
			for j := range a.Messages {
				if a.Messages[j] != b.Messages[j] {
					t.Fatalf("round trip of dialogue %d message %d: %+v != %+v", i, j, a.Messages[j], b.Messages[j])
				}
			}
		}
	})
}
