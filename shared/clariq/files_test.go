package clariq

import (
	"strings"
	"testing"
)

func TestReadRequests(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    []Request
		wantErr string
	}{
		{name: "underscore header", in: "topic_id\tinitial_request\n1\tTell me about kiwi\n", want: []Request{{"1", "Tell me about kiwi"}}},
		{name: "test file header", in: "topic_id\tinitial request\textra\n7\tI'm interested in dinosaurs\tx\n", want: []Request{{"7", "I'm interested in dinosaurs"}}},
		{name: "repeated topic rows count once", in: "topic_id\tinitial_request\tq\n1\tkiwi\tQ1\n1\tkiwi\tQ2\n2\tvoyager\tQ3\n", want: []Request{{"1", "kiwi"}, {"2", "voyager"}}},
		{name: "quoted field", in: "topic_id\tinitial_request\n3\t\"say \"\"hi\"\"\"\n", want: []Request{{"3", `say "hi"`}}},
		{name: "empty", in: "", wantErr: "empty file"},
		{name: "wrong header", in: "id\trequest\n1\tx\n", wantErr: "want the first two columns topic_id and initial_request"},
		{name: "no rows", in: "topic_id\tinitial_request\n", wantErr: "no rows"},
		{name: "one column", in: "topic_id\tinitial_request\n1\n", wantErr: "line 2: 1 column(s)"},
		{name: "conflicting requests", in: "topic_id\tinitial_request\n1\ta\n1\tb\n", wantErr: "two different requests"},
		{name: "space in id", in: "topic_id\tinitial_request\na b\tx\n", wantErr: "without spaces"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadRequests(strings.NewReader(tt.in))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("request %d: got %+v, want %+v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestReadBank(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		n       int
		wantErr string
	}{
		{name: "with the empty question", in: "question_id\tquestion\nQ00001\t\nQ00002\tare you looking for a map\n", n: 2},
		{name: "no header", in: "", wantErr: "empty file"},
		{name: "missing column", in: "question_id\ttext\nQ1\tx\n", wantErr: `no column "question"`},
		{name: "duplicate id", in: "question_id\tquestion\nQ1\ta\nQ1\tb\n", wantErr: "appears twice"},
		{name: "empty id", in: "question_id\tquestion\n\tx\n", wantErr: "empty question_id"},
		{name: "no questions", in: "question_id\tquestion\n", wantErr: "no questions"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadBank(strings.NewReader(tt.in))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != tt.n {
				t.Fatalf("got %d questions, want %d", len(got), tt.n)
			}
		})
	}
}

func TestReadTopics(t *testing.T) {
	in := "topic_id\tinitial_request\ttopic_desc\tclarification_need\tfacet_id\tfacet_desc\tquestion_id\tquestion\tanswer\n" +
		"1\tkiwi\td\t3\tF1\tf\tQ2\tfruit?\tyes\n" +
		"1\tkiwi\td\t3\tF2\tf\tQ2\tfruit?\tno\n" +
		"1\tkiwi\td\t3\tF2\tf\tQ00001\t\t\n" +
		"2\tvoyager\td\t4\tF3\tf\tQ3\tprobe?\tyes\n"
	got, err := ReadTopics(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Need != 3 || strings.Join(got[0].Questions, ",") != "Q2,Q00001" || got[1].Need != 4 {
		t.Fatalf("got %+v", got)
	}
	for _, tt := range []struct{ name, in, wantErr string }{
		{"need out of range", "topic_id\tinitial_request\tclarification_need\tquestion_id\n1\tx\t5\tQ1\n", "want 1..4"},
		{"no need column", "topic_id\tinitial_request\tquestion_id\n1\tx\tQ1\n", `no column "clarification_need"`},
		{"short row", "topic_id\tinitial_request\tclarification_need\tquestion_id\n1\tx\n", "no clarification_need"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := ReadTopics(strings.NewReader(tt.in)); err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("got error %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestReadRuns(t *testing.T) {
	for _, tt := range []struct{ name, in, wantErr string }{
		{"ok", "1 0 Q2 1 3.5 run\n\n1 0 Q3 2 2 run\n", ""},
		{"five fields", "1 0 Q2 1 3.5\n", "line 1: 5 fields"},
		{"bad rank", "1 0 Q2 x 3.5 run\n", `rank "x"`},
		{"bad score", "1 0 Q2 1 high run\n", `score "high"`},
		{"empty", "\n", "no lines"},
	} {
		t.Run("questions/"+tt.name, func(t *testing.T) {
			_, err := ReadQuestionRun(strings.NewReader(tt.in))
			if (err == nil) != (tt.wantErr == "") || err != nil && !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("got error %v, want %q", err, tt.wantErr)
			}
		})
	}
	for _, tt := range []struct{ name, in, wantErr string }{
		{"ok", "1 2\n2 4\n", ""},
		{"need 0", "1 0\n", `need "0"`},
		{"three fields", "1 2 3\n", "3 fields"},
		{"twice", "1 2\n01 3\n", "appears twice"},
	} {
		t.Run("need/"+tt.name, func(t *testing.T) {
			_, err := ReadNeedRun(strings.NewReader(tt.in))
			if (err == nil) != (tt.wantErr == "") || err != nil && !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("got error %v, want %q", err, tt.wantErr)
			}
		})
	}
}

func TestWriteQuestionRunRoundTrip(t *testing.T) {
	var b strings.Builder
	ranked := []Scored{{ID: "Q1", Score: 2}, {ID: "Q2", Score: 2}, {ID: "Q3", Score: -40}}
	if err := WriteQuestionRun(&b, "7", ranked, "duet"); err != nil {
		t.Fatal(err)
	}
	lines, err := ReadQuestionRun(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range lines {
		if l.TopicID != "7" || l.QuestionID != ranked[i].ID || l.Rank != i+1 || l.RunID != "duet" {
			t.Errorf("line %d: got %+v", i, l)
		}
		if i > 0 && l.Score >= lines[i-1].Score {
			t.Errorf("line %d: score %v does not decrease (the official tool keeps one line per score)", i, l.Score)
		}
	}
}

// TestBadIDsRefused: an id holding what would break a run file (a NUL, a
// tab, a line break, a space) is refused with the line it is on.
func TestBadIDsRefused(t *testing.T) {
	for _, tc := range []struct{ name, id string }{
		{"NUL", "t\x00x"},
		{"tab", "\"t\tx\""},
		{"line break", "\"t\nx\""},
		{"carriage return", "\"t\rx\""},
		{"space", "\"t x\""},
		{"escape", "t\x1bx"},
		{"not UTF-8", "t\xffx"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			requests := "topic_id\tinitial_request\n1\tfine\n" + tc.id + "\ttell me\n"
			_, err := ReadRequests(strings.NewReader(requests))
			if err == nil || !strings.Contains(err.Error(), "requests line 3: topic id") {
				t.Errorf("requests: got %v, want an error naming line 3 and the topic id", err)
			}
			bank := "question_id\tquestion\nQ1\tfine?\n" + tc.id + "\tdo you mean x?\n"
			_, err = ReadBank(strings.NewReader(bank))
			if err == nil || !strings.Contains(err.Error(), "question bank line 3: question_id") {
				t.Errorf("bank: got %v, want an error naming line 3 and the question_id", err)
			}
		})
	}
}
