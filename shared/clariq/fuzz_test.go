package clariq

import (
	"bytes"
	"strings"
	"testing"
)

func FuzzReadBank(f *testing.F) {
	f.Add("question_id\tquestion\nQ00001\t\nQ00002\tare you looking for a map\n")
	f.Add("question_id\tquestion\nQ1\t\"unclosed\n")
	f.Add("\ufeffquestion_id\tquestion\nQ1\ta\tb\n")
	f.Fuzz(func(t *testing.T, in string) {
		bank, err := ReadBank(strings.NewReader(in))
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for _, q := range bank {
			if q.ID == "" || seen[q.ID] {
				t.Fatalf("id %q empty or repeated", q.ID)
			}
			seen[q.ID] = true
		}
		// Whatever parses can be indexed and ranked.
		r := NewRanker(bank, nil)
		if got := r.Rank("tell me about kiwi", 5, nil); len(got) > 5 {
			t.Fatalf("%d results for k=5", len(got))
		}
	})
}

func FuzzReadRequests(f *testing.F) {
	f.Add("topic_id\tinitial_request\n1\tTell me about kiwi\n")
	f.Add("topic_id\tinitial request\n1\tx\n1\ty\n")
	f.Add("topic_id\tinitial_request\n\"1\t2\"\tx\n")
	f.Fuzz(func(t *testing.T, in string) {
		reqs, err := ReadRequests(strings.NewReader(in))
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for _, r := range reqs {
			if r.TopicID == "" || strings.ContainsAny(r.TopicID, " \t") || seen[r.TopicID] {
				t.Fatalf("topic id %q empty, spaced or repeated", r.TopicID)
			}
			seen[r.TopicID] = true
		}
	})
}

func FuzzReadTopics(f *testing.F) {
	f.Add("topic_id\tinitial_request\tclarification_need\tquestion_id\n1\tkiwi\t3\tQ2\n1\tkiwi\t3\tQ2\n")
	f.Add("topic_id\tinitial_request\tclarification_need\tquestion_id\n1\tkiwi\t9\tQ2\n")
	f.Fuzz(func(t *testing.T, in string) {
		ts, err := ReadTopics(strings.NewReader(in))
		if err != nil {
			return
		}
		for _, tp := range ts {
			if tp.Need < 1 || tp.Need > 4 {
				t.Fatalf("need %d", tp.Need)
			}
			seen := map[string]bool{}
			for _, q := range tp.Questions {
				if q == "" || seen[q] {
					t.Fatalf("question %q empty or repeated", q)
				}
				seen[q] = true
			}
		}
		r := QuestionRecall(ts, nil)
		if r.At30 != 0 {
			t.Fatalf("an empty run scored %v", r.At30)
		}
	})
}

func FuzzReadQuestionRun(f *testing.F) {
	f.Add("1 0 Q2 1 3.5 run\n1 0 Q3 2 2 run\n")
	f.Add("1 0 Q2 1 NaN run\n")
	f.Add("1 0 Q2 1 1e400 run\n")
	f.Fuzz(func(t *testing.T, in string) {
		lines, err := ReadQuestionRun(strings.NewReader(in))
		if err != nil {
			return
		}
		// What parses writes back and parses the same.
		var b bytes.Buffer
		for _, l := range lines {
			b.WriteString(l.TopicID + " 0 " + l.QuestionID + " 1 1 " + l.RunID + "\n")
		}
		again, err := ReadQuestionRun(&b)
		if err != nil || len(again) != len(lines) {
			t.Fatalf("round trip: %d lines, %v; want %d", len(again), err, len(lines))
		}
		var labels []Topic
		for _, l := range lines {
			labels = append(labels, Topic{ID: l.TopicID, Questions: []string{l.QuestionID}})
		}
		if r := QuestionRecall(labels, lines); r.At30 < 0 || r.At30 > 1 {
			t.Fatalf("recall %v out of 0..1", r.At30)
		}
	})
}

func FuzzReadNeedRun(f *testing.F) {
	f.Add("1 2\n2 4\n")
	f.Add("1 2\n01 3\n")
	f.Fuzz(func(t *testing.T, in string) {
		pred, err := ReadNeedRun(strings.NewReader(in))
		if err != nil {
			return
		}
		var labels []Topic
		for id, n := range pred {
			if n < 1 || n > 4 {
				t.Fatalf("need %d", n)
			}
			labels = append(labels, Topic{ID: id, Need: n})
		}
		if s := NeedMetrics(labels, pred); s.F1 < 0.999999 {
			t.Fatalf("perfect predictions scored F1 %v", s.F1)
		}
	})
}
