package clariq

import (
	"math"
	"slices"
	"strings"
)

// Features the ranker computes for each (request, question) pair. None
// names a question: they describe how the question's words meet the
// request's, so the model carries over to topics it has never seen.
const (
	fBM25      = iota // BM25 of the request, over the best question's
	fPRF              // BM25 of the feedback-expanded request, over the best
	fCover            // idf share of the request's terms the question has
	fAllTerms         // 1 when the question has every request term
	fAssoc            // learned request-term → question-term association, mean over the question's terms
	fAssocMax         // the same, strongest single term
	fEmpty            // 1 for the "ask nothing" question
	fRare             // mean idf of the question's terms, over the bank's largest
	fLen              // question length in terms, over 10
	fBM25Sq           // fBM25 squared: the model's one bend
	fQCover           // idf share of the question's terms that the request has
	fQCoverExp        // the same with the feedback terms counted as the request's
	fForeign          // the question's rarest term outside request and feedback, over the bank's largest idf
	numFeatures
)

var featureNames = [numFeatures]string{"bm25", "prf", "cover", "all_terms", "assoc", "assoc_max", "empty", "rare", "len", "bm25_sq", "qcover", "qcover_exp", "foreign"}

// Params are the ranker's tuned and learned parameters (model.json).
type Params struct {
	K1, B float64 // BM25
	// PRFDocs and PRFTerms size the pseudo-relevance feedback: the terms
	// of the top PRFDocs questions, the PRFTerms heaviest added to the query.
	PRFDocs, PRFTerms int
	// Assoc maps a request term to question terms that the training topics'
	// relevant questions used for it, with a strength.
	Assoc map[string]map[string]float64 `json:"assoc,omitempty"`
	// Weights of the logistic ranker, by feature name, and its bias.
	Weights map[string]float64
	Bias    float64
}

// Scored is a bank question with its score for a request.
type Scored struct {
	Index int // position in the bank
	ID    string
	Text  string
	Score float64
}

// scratch holds one ranking's working arrays.
type scratch struct {
	bm, prf, assoc, assocMax, cover []float64
	vec                             []float64 // association by term id
	mark                            []uint8   // by term id: 1 request, 2 feedback
	all                             []bool
}

func (ix *Index) newScratch() *scratch {
	n := ix.Len()
	return &scratch{
		bm: make([]float64, n), prf: make([]float64, n), assoc: make([]float64, n),
		assocMax: make([]float64, n), cover: make([]float64, n), all: make([]bool, n),
		vec: make([]float64, len(ix.post)), mark: make([]uint8, len(ix.post)),
	}
}

// features computes every question's features for the request terms ts;
// feat is filled row-major, numFeatures per question.
func (ix *Index) features(p *Params, ts []string, s *scratch, feat []float64) {
	n := ix.Len()
	clear(s.bm)
	clear(s.prf)
	clear(s.cover)
	q := ix.query(ts)
	ix.bm25(q, p.K1, p.B, s.bm)
	clear(s.mark)
	for _, qt := range q {
		s.mark[qt.id] = 1
	}

	// Coverage: the idf share of the request's distinct terms each question has.
	var idfSum float64
	for _, qt := range q {
		idfSum += ix.idf[qt.id]
	}
	for _, qt := range q {
		for _, ps := range ix.post[qt.id] {
			s.cover[ps.doc] += ix.idf[qt.id] / idfSum
		}
	}
	// Feedback: the heaviest terms of the best questions, weighted by
	// their share of each question's score.
	if p.PRFDocs > 0 && p.PRFTerms > 0 {
		top := topK(s.bm, p.PRFDocs)
		w := map[int32]float64{}
		for _, d := range top {
			if s.bm[d] <= 0 {
				break
			}
			for _, t := range ix.docTerms[d] {
				w[t] += ix.idf[t] * s.bm[d] / s.bm[top[0]]
			}
		}
		exp := make([]weighted, 0, len(w))
		for t, x := range w {
			exp = append(exp, weighted{id: t, w: x})
		}
		slices.SortFunc(exp, func(a, b weighted) int {
			if a.w != b.w {
				if a.w > b.w {
					return -1
				}
				return 1
			}
			return int(a.id - b.id)
		})
		if len(exp) > p.PRFTerms {
			exp = exp[:p.PRFTerms]
		}
		if len(exp) > 0 {
			top := exp[0].w
			for i := range exp {
				exp[i].w /= top
			}
		}
		ix.bm25(exp, p.K1, p.B, s.prf)
		for _, e := range exp {
			if s.mark[e.id] == 0 {
				s.mark[e.id] = 2
			}
		}
	}
	// Association: what the training topics' questions said for these terms.
	clear(s.vec)
	for _, t := range ts {
		for w, a := range p.Assoc[t] {
			if id, ok := ix.termID[w]; ok {
				s.vec[id] += a
			}
		}
	}
	bmMax, prfMax := maxOf(s.bm), maxOf(s.prf)
	for d := 0; d < n; d++ {
		f := feat[d*numFeatures : (d+1)*numFeatures]
		clear(f)
		if ix.empty[d] {
			f[fEmpty] = 1
			continue
		}
		f[fBM25] = s.bm[d] / bmMax
		f[fBM25Sq] = f[fBM25] * f[fBM25]
		f[fPRF] = s.prf[d] / prfMax
		f[fCover] = s.cover[d]
		if s.cover[d] > 0.999 {
			f[fAllTerms] = 1
		}
		var sum, mx, idf, inReq, inExp, foreign float64
		for _, t := range ix.docTerms[d] {
			v := s.vec[t]
			sum += v
			mx = max(mx, v)
			idf += ix.idf[t]
			switch s.mark[t] {
			case 1:
				inReq += ix.idf[t]
				inExp += ix.idf[t]
			case 2:
				inExp += ix.idf[t]
			default:
				foreign = max(foreign, ix.idf[t])
			}
		}
		if idf > 0 {
			f[fQCover] = inReq / idf
			f[fQCoverExp] = inExp / idf
		}
		f[fForeign] = foreign / ix.maxIDF()
		if k := len(ix.docTerms[d]); k > 0 {
			f[fAssoc] = sum / float64(k)
			f[fRare] = idf / float64(k) / ix.maxIDF()
		}
		f[fAssocMax] = mx
		f[fLen] = ix.docLen[d] / 10
	}
}

func (ix *Index) maxIDF() float64 {
	n := float64(ix.Len())
	return math.Log(1 + (n-1+0.5)/(1+0.5))
}

func maxOf(xs []float64) float64 {
	m := 0.0
	for _, x := range xs {
		m = max(m, x)
	}
	if m == 0 {
		return 1
	}
	return m
}

// topK returns the positions of the k largest values, largest first, ties
// by position.
func topK(xs []float64, k int) []int {
	k = min(k, len(xs))
	idx := make([]int, 0, k+1)
	for i, x := range xs {
		if len(idx) == k && x <= xs[idx[k-1]] {
			continue
		}
		j := len(idx)
		if j < k {
			idx = append(idx, i)
		} else {
			j = k - 1
		}
		for j > 0 && xs[idx[j-1]] < x {
			idx[j] = idx[j-1]
			j--
		}
		idx[j] = i
	}
	return idx
}

// weightVector orders p.Weights by feature.
func (p *Params) weightVector() [numFeatures]float64 {
	var w [numFeatures]float64
	for i, name := range featureNames {
		w[i] = p.Weights[name]
	}
	return w
}

// normalise keeps the words of a question or request comparable for the
// "never ask twice" check.
func normalise(s string) string { return strings.Join(words(s), " ") }
