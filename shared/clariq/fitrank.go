package clariq

import (
	"fmt"
	"math"
)

// NewRankerIndex is NewRanker over an already built index.
func NewRankerIndex(ix *Index, model *Model) *Ranker {
	r := &Ranker{ix: ix, model: model, w: model.Rank.weightVector()}
	r.pool.New = func() any {
		return &rankBuf{s: ix.newScratch(), feat: make([]float64, ix.Len()*numFeatures), score: make([]float64, ix.Len())}
	}
	return r
}

// cvRanker measures hyperparameters p on the training topics by
// cross-validation: each fold is ranked by a ranker fitted (weights and
// association table) on the other folds alone.
func cvRanker(ix *Index, p Params, train []Topic, folds, minCount int) (Recall, error) {
	var run []RunLine
	for f := range folds {
		in, out := fold(train, folds, f)
		p.Assoc, p.Weights, p.Bias = nil, nil, 0
		m, err := fitRanker(ix, p, in, folds, minCount)
		if err != nil {
			return Recall{}, fmt.Errorf("cross-validate ranker: %w", err)
		}
		r := NewRankerIndex(ix, m)
		for _, tp := range out {
			for i, s := range r.Rank(tp.Request, 30, nil) {
				run = append(run, RunLine{TopicID: tp.ID, QuestionID: s.ID, Rank: i + 1, Score: float64(30 - i)})
			}
		}
	}
	return QuestionRecall(train, run), nil
}

// evalRanker ranks the bank for each topic and scores the top 30.
func evalRanker(r *Ranker, topics []Topic) Recall {
	var run []RunLine
	for _, tp := range topics {
		for i, s := range r.Rank(tp.Request, 30, nil) {
			run = append(run, RunLine{TopicID: tp.ID, QuestionID: s.ID, Rank: i + 1, Score: float64(30 - i)})
		}
	}
	return QuestionRecall(topics, run)
}

// buildAssoc learns which question terms the relevant questions use for
// each request term: the share of topics whose request has the term r and
// whose relevant questions have w. Pairs seen in fewer than minCount topics
// are dropped, which drops everything tied to one topic's names and keeps
// what carries over ("county" → "map", "recipe" → "ingredient").
func buildAssoc(ix *Index, topics []Topic, minCount int) map[string]map[string]float64 {
	nr := map[string]int{}
	nrw := map[string]map[string]int{}
	for _, tp := range topics {
		rt := uniq(terms(tp.Request))
		qw := map[string]bool{}
		for _, id := range tp.Questions {
			if d, ok := ix.Lookup(id); ok {
				for _, t := range terms(ix.bank[d].Text) {
					qw[t] = true
				}
			}
		}
		for _, r := range rt {
			nr[r]++
			if nrw[r] == nil {
				nrw[r] = map[string]int{}
			}
			for w := range qw {
				nrw[r][w]++
			}
		}
	}
	out := map[string]map[string]float64{}
	for r, ws := range nrw {
		for w, n := range ws {
			if n < minCount {
				continue
			}
			if out[r] == nil {
				out[r] = map[string]float64{}
			}
			out[r][w] = math.Round(float64(n)/float64(nr[r]+1)*1e4) / 1e4
		}
	}
	return out
}

// fitRanker fits the logistic ranker's weights on the training topics.
func fitRanker(ix *Index, p Params, train []Topic, folds, minCount int) (*Model, error) {
	n := ix.Len()
	var x []float64
	var y []float64
	s := ix.newScratch()
	feat := make([]float64, n*numFeatures)
	for f := range folds {
		in, out := fold(train, folds, f)
		pf := p
		pf.Assoc = buildAssoc(ix, in, minCount)
		for _, tp := range out {
			rel := make([]bool, n)
			for _, id := range tp.Questions {
				if d, ok := ix.Lookup(id); ok {
					rel[d] = true
				}
			}
			ix.features(&pf, terms(tp.Request), s, feat)
			x = append(x, feat...)
			for d := range n {
				y = append(y, b2f(rel[d]))
			}
		}
	}
	w, err := logistic(x, y, numFeatures, 1.0)
	if err != nil {
		return nil, fmt.Errorf("fit ranker: %w", err)
	}
	p.Assoc = buildAssoc(ix, train, minCount)
	p.Weights = map[string]float64{}
	for i, name := range featureNames {
		p.Weights[name] = round(w[i])
	}
	p.Bias = round(w[numFeatures])
	return &Model{Rank: p}, nil
}
