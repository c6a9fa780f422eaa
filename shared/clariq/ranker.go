package clariq

import (
	"math"
	"sync"
)

// Ranker ranks a question bank for requests with a fitted Model. It is
// safe for concurrent use.
type Ranker struct {
	ix    *Index
	model *Model
	w     [numFeatures]float64
	pool  sync.Pool // *rankBuf
}

type rankBuf struct {
	s     *scratch
	feat  []float64
	score []float64
}

// NewRanker returns a ranker of bank with model (DefaultModel when nil).
func NewRanker(bank []Question, model *Model) *Ranker {
	if model == nil {
		model = DefaultModel()
	}
	r := &Ranker{ix: NewIndex(bank), model: model, w: model.Rank.weightVector()}
	r.pool.New = func() any {
		return &rankBuf{s: r.ix.newScratch(), feat: make([]float64, r.ix.Len()*numFeatures), score: make([]float64, r.ix.Len())}
	}
	return r
}

// Index returns the ranker's indexed bank.
func (r *Ranker) Index() *Index { return r.ix }

// Scores returns every bank question's score for the request text, by bank
// position (higher is more useful to ask).
func (r *Ranker) Scores(text string) []float64 {
	buf := r.pool.Get().(*rankBuf)
	defer r.pool.Put(buf)
	out := make([]float64, r.ix.Len())
	r.scoreInto(terms(text), buf, out)
	return out
}

func (r *Ranker) scoreInto(ts []string, buf *rankBuf, out []float64) {
	r.ix.features(&r.model.Rank, ts, buf.s, buf.feat)
	for d := range out {
		f := buf.feat[d*numFeatures : (d+1)*numFeatures]
		z := r.model.Rank.Bias
		for i, x := range f {
			z += r.w[i] * x
		}
		out[d] = z
	}
}

// Rank returns the k best questions for the request text, best first,
// leaving out the bank positions skip reports. Ties go to the earlier
// bank entry, so a ranking is reproducible.
func (r *Ranker) Rank(text string, k int, skip func(i int) bool) []Scored {
	buf := r.pool.Get().(*rankBuf)
	defer r.pool.Put(buf)
	r.scoreInto(terms(text), buf, buf.score)
	if skip != nil {
		for i := range buf.score {
			if skip(i) {
				buf.score[i] = math.Inf(-1)
			}
		}
	}
	top := topK(buf.score, k)
	out := make([]Scored, 0, len(top))
	for _, i := range top {
		if math.IsInf(buf.score[i], -1) {
			break
		}
		q := r.ix.bank[i]
		out = append(out, Scored{Index: i, ID: q.ID, Text: q.Text, Score: buf.score[i]})
	}
	return out
}

// Need predicts how much the request needs clarifying, 1..4.
func (r *Ranker) Need(text string) int {
	buf := r.pool.Get().(*rankBuf)
	defer r.pool.Put(buf)
	return r.model.Need.predict(r.needFeatures(text, buf))
}
