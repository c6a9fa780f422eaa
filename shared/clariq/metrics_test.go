package clariq

import (
	"math"
	"testing"
)

func TestQuestionRecall(t *testing.T) {
	labels := []Topic{{ID: "1", Questions: []string{"A", "B"}}, {ID: "2", Questions: []string{"C"}}}
	tests := []struct {
		name string
		run  []RunLine
		want Recall
	}{
		{
			name: "both found, topic 2 missing",
			run:  []RunLine{{TopicID: "1", QuestionID: "A", Score: 3}, {TopicID: "1", QuestionID: "B", Score: 2}},
			want: Recall{At5: 0.5, At10: 0.5, At20: 0.5, At30: 0.5, Topics: 2},
		},
		{
			name: "a tie on score keeps the first line only",
			run: []RunLine{{TopicID: "1", QuestionID: "X", Score: 3}, {TopicID: "1", QuestionID: "A", Score: 3},
				{TopicID: "1", QuestionID: "B", Score: 1}, {TopicID: "02", QuestionID: "C", Score: 1}},
			want: Recall{At5: 0.75, At10: 0.75, At20: 0.75, At30: 0.75, Topics: 2},
		},
		{
			name: "sorted by score, not by file order or rank",
			run: append(func() []RunLine {
				var r []RunLine
				for i := range 10 {
					r = append(r, RunLine{TopicID: "2", QuestionID: "N", Score: float64(100 + i)})
				}
				return r
			}(), RunLine{TopicID: "2", QuestionID: "C", Score: 50}, RunLine{TopicID: "2", QuestionID: "C", Score: 99}),
			want: Recall{At5: 0, At10: 0, At20: 0.5, At30: 0.5, Topics: 2},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := QuestionRecall(labels, tt.run); got != tt.want {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestNeedMetrics(t *testing.T) {
	// The figures sklearn gives for y_true [1 2 2 3], y_pred [1 2 3 0]
	// (topic 4 has no prediction, which the official tool scores as 0):
	// precision_recall_fscore_support(average='weighted').
	labels := []Topic{{ID: "1", Need: 1}, {ID: "2", Need: 2}, {ID: "3", Need: 2}, {ID: "4", Need: 3}}
	got := NeedMetrics(labels, map[string]int{"1": 1, "2": 2, "3": 3})
	want := NeedScore{Precision: 0.75, Recall: 0.5, F1: 0.25 + 0.5*2/3, Topics: 4}
	if math.Abs(got.Precision-want.Precision) > 1e-12 || math.Abs(got.Recall-want.Recall) > 1e-12 || math.Abs(got.F1-want.F1) > 1e-12 {
		t.Fatalf("got %+v, want %+v", got, want)
	}
}
