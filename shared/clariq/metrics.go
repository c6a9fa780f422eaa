package clariq

import (
	"slices"
	"strconv"
	"strings"
)

// RunLine is one line of a Stage 1 question run file:
// `<topic_id> 0 <question_id> <rank> <score> <run_id>`.
type RunLine struct {
	TopicID    string
	QuestionID string
	Rank       int
	Score      float64
	RunID      string
}

// Recall is question relevance as the official tool computes it:
// Recall@5, @10, @20 and @30, averaged over the labelled topics.
type Recall struct {
	At5, At10, At20, At30 float64
	Topics                int
}

// canonTopic makes "101" and "0101" the same topic, as pandas reading both
// files as integers does.
func canonTopic(s string) string {
	if n, err := strconv.Atoi(strings.TrimSpace(s)); err == nil {
		return strconv.Itoa(n)
	}
	return strings.TrimSpace(s)
}

// QuestionRecall scores a question run against labelled topics exactly as
// clariq_eval_tool.py does: each topic's lines sorted by score, highest
// first, keeping only the first line of each score (lines that tie on
// score count once); recall@k is the share of the topic's relevant
// questions among the first k; a topic absent from the run scores 0.
func QuestionRecall(labels []Topic, run []RunLine) Recall {
	byTopic := map[string][]RunLine{}
	for _, l := range run {
		t := canonTopic(l.TopicID)
		byTopic[t] = append(byTopic[t], l)
	}
	var r Recall
	for _, tp := range labels {
		rel := map[string]bool{}
		for _, q := range tp.Questions {
			rel[q] = true
		}
		if len(rel) == 0 {
			continue
		}
		r.Topics++
		lines := slices.Clone(byTopic[canonTopic(tp.ID)])
		slices.SortStableFunc(lines, func(a, b RunLine) int {
			switch {
			case a.Score > b.Score:
				return -1
			case a.Score < b.Score:
				return 1
			}
			return 0
		})
		var ranked []string
		for i, l := range lines {
			if i > 0 && l.Score == lines[i-1].Score {
				continue
			}
			ranked = append(ranked, l.QuestionID)
		}
		at := func(k int) float64 {
			seen := map[string]bool{}
			for _, q := range ranked[:min(k, len(ranked))] {
				if rel[q] {
					seen[q] = true
				}
			}
			return float64(len(seen)) / float64(len(rel))
		}
		r.At5 += at(5)
		r.At10 += at(10)
		r.At20 += at(20)
		r.At30 += at(30)
	}
	if r.Topics > 0 {
		n := float64(r.Topics)
		r.At5, r.At10, r.At20, r.At30 = r.At5/n, r.At10/n, r.At20/n, r.At30/n
	}
	return r
}

// NeedScore is clarification need as the official tool computes it:
// sklearn's precision, recall and F1 with average='weighted'.
type NeedScore struct {
	Precision, Recall, F1 float64
	Topics                int
}

// NeedMetrics scores predicted levels (by topic id) against labelled
// topics. A topic without a prediction counts as predicted 0, as in the
// official tool. Each label's precision, recall and F1 (0 where undefined,
// as sklearn reports them) are averaged weighted by the label's support.
func NeedMetrics(labels []Topic, pred map[string]int) NeedScore {
	p := map[string]int{}
	for t, n := range pred {
		p[canonTopic(t)] = n
	}
	type count struct{ tp, pred, true int }
	counts := map[int]*count{}
	get := func(l int) *count {
		if counts[l] == nil {
			counts[l] = &count{}
		}
		return counts[l]
	}
	for _, tp := range labels {
		y := tp.Need
		yh := p[canonTopic(tp.ID)]
		get(y).true++
		get(yh).pred++
		if y == yh {
			get(y).tp++
		}
	}
	var s NeedScore
	s.Topics = len(labels)
	if s.Topics == 0 {
		return s
	}
	// Summed in label order, so the figures do not wobble in the last digit.
	order := make([]int, 0, len(counts))
	for l := range counts {
		order = append(order, l)
	}
	slices.Sort(order)
	for _, l := range order {
		c := counts[l]
		var prec, rec, f1 float64
		if c.pred > 0 {
			prec = float64(c.tp) / float64(c.pred)
		}
		if c.true > 0 {
			rec = float64(c.tp) / float64(c.true)
		}
		if prec+rec > 0 {
			f1 = 2 * prec * rec / (prec + rec)
		}
		w := float64(c.true) / float64(s.Topics)
		s.Precision += w * prec
		s.Recall += w * rec
		s.F1 += w * f1
	}
	return s
}
