package clariq

import (
	"math"
)

// posting is one question a term occurs in, with its frequency there.
type posting struct {
	doc int32
	tf  float32
}

// Index is a question bank prepared for ranking. It is read-only once
// built, so one Index serves any number of goroutines.
type Index struct {
	bank     []Question
	byID     map[string]int
	termID   map[string]int32
	idf      []float64   // by term id
	post     [][]posting // by term id
	docTerms [][]int32   // each question's distinct term ids
	docLen   []float64
	avgLen   float64
	empty    []bool // the "ask nothing" questions
}

// NewIndex indexes a question bank.
func NewIndex(bank []Question) *Index {
	ix := &Index{
		bank:     bank,
		byID:     make(map[string]int, len(bank)),
		termID:   map[string]int32{},
		docTerms: make([][]int32, len(bank)),
		docLen:   make([]float64, len(bank)),
		empty:    make([]bool, len(bank)),
	}
	var total float64
	for d, q := range bank {
		ix.byID[q.ID] = d
		ts := terms(q.Text)
		ix.empty[d] = len(words(q.Text)) == 0
		tf := map[int32]float32{}
		var order []int32
		for _, t := range ts {
			id, ok := ix.termID[t]
			if !ok {
				id = int32(len(ix.post))
				ix.termID[t] = id
				ix.post = append(ix.post, nil)
			}
			if tf[id] == 0 {
				order = append(order, id)
			}
			tf[id]++
		}
		for _, id := range order {
			ix.post[id] = append(ix.post[id], posting{doc: int32(d), tf: tf[id]})
		}
		ix.docTerms[d] = order
		ix.docLen[d] = float64(len(ts))
		total += float64(len(ts))
	}
	ix.avgLen = total / float64(max(len(bank), 1))
	n := float64(len(bank))
	ix.idf = make([]float64, len(ix.post))
	for id, p := range ix.post {
		df := float64(len(p))
		ix.idf[id] = math.Log(1 + (n-df+0.5)/(df+0.5))
	}
	return ix
}

// Len returns the number of questions in the bank.
func (ix *Index) Len() int { return len(ix.bank) }

// Question returns the i-th question of the bank.
func (ix *Index) Question(i int) Question { return ix.bank[i] }

// Lookup returns the position of the question with the given id.
func (ix *Index) Lookup(id string) (int, bool) {
	i, ok := ix.byID[id]
	return i, ok
}

// weighted is a query term with its weight.
type weighted struct {
	id int32
	w  float64
}

// query turns text into known term ids with their counts as weights. A
// term the bank never uses stands for the bank's terms one edit away
// ("churchil" → "churchill"), since requests are typed in a hurry.
func (ix *Index) query(ts []string) []weighted {
	var q []weighted
	at := map[int32]int{}
	for _, t := range ts {
		id, ok := ix.termID[t]
		if !ok {
			if id, ok = ix.nearest(t); !ok {
				continue
			}
		}
		if i, ok := at[id]; ok {
			q[i].w++
			continue
		}
		at[id] = len(q)
		q = append(q, weighted{id: id, w: 1})
	}
	return q
}

// bm25 adds the BM25 score of each question for q into acc.
func (ix *Index) bm25(q []weighted, k1, b float64, acc []float64) {
	for _, qt := range q {
		idf := ix.idf[qt.id]
		for _, p := range ix.post[qt.id] {
			tf := float64(p.tf)
			norm := k1 * (1 - b + b*ix.docLen[p.doc]/ix.avgLen)
			acc[p.doc] += qt.w * idf * tf * (k1 + 1) / (tf + norm)
		}
	}
}

// nearest returns the bank term one edit (insertion, deletion,
// substitution or transposition) from t, the most frequent when several
// are; words under five letters are left alone, as too many are one edit
// apart.
func (ix *Index) nearest(t string) (int32, bool) {
	if len(t) < 5 {
		return 0, false
	}
	best, bestDF := int32(-1), 0
	try := func(c string) {
		if id, ok := ix.termID[c]; ok && (len(ix.post[id]) > bestDF || len(ix.post[id]) == bestDF && id < best) {
			best, bestDF = id, len(ix.post[id])
		}
	}
	const letters = "abcdefghijklmnopqrstuvwxyz"
	for i := 0; i <= len(t); i++ {
		for _, c := range letters {
			try(t[:i] + string(c) + t[i:])
			if i < len(t) {
				try(t[:i] + string(c) + t[i+1:])
			}
		}
		if i < len(t) {
			try(t[:i] + t[i+1:])
		}
		if i+1 < len(t) {
			try(t[:i] + string(t[i+1]) + string(t[i]) + t[i+2:])
		}
	}
	return best, best >= 0
}
