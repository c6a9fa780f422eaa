package annex

import (
	"cmp"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/duetbot/duet/shared/embed"
)

// Search limits of the prompt index.
const (
	// searchBudget is how many postings a search reads in full lists: the
	// rarest features of the message first, each whole while the budget
	// lasts; past it, a feature's champions only.
	searchBudget = 1 << 15
	// maxPostings is how many prompts a feature's champion list holds:
	// those in which it weighs most.
	maxPostings = 128
	// searchCandidates is how many prompts a search scores exactly: the
	// best by the index's estimate.
	searchCandidates = 64
)

// index finds the prompts closest to a message without comparing the
// message with each: an inverted index from each lexical feature (word,
// word pair, trigram; see embed.Lexical.Features) to the prompts that have
// it, with its weight in each, built once when the persona is loaded. A
// search adds up, over the message's features, the products of their
// weights in the message and in the prompts of their postings — the
// cosine of the two texts, but for features that collide in a bucket of
// their vectors — and scores the best searchCandidates prompts exactly,
// with their vectors.
//
// A search reads at most searchBudget postings of full lists, plus
// maxPostings per other feature of the message, however many prompts the
// persona has: it reads the postings of the message's rarest features
// (those that tell prompts apart) in full, and of features too common for
// the budget (a stop word, "should we") only the champions — the
// maxPostings prompts in which the feature weighs most.
type index struct {
	lex embed.Lexical
	// The postings of the feature with hash h, when ids[h] = k, are
	// doc[start[k]:start[k+1]] with weights weight[start[k]:start[k+1]],
	// in prompt order; when there are more than maxPostings, its champions
	// are cdoc[cstart[k]:cstart[k+1]] and cweight[…].
	ids             map[uint64]int32
	start, cstart   []int32
	doc, cdoc       []int32
	weight, cweight []float32
	// The vector of prompt d is vidx[voff[d]:voff[d+1]] (entries) and
	// vval[voff[d]:voff[d+1]] (values), its squared length norm2[d]; it is
	// the prompt of pair[d].
	voff  []int32
	vidx  []int32
	vval  []float32
	norm2 []float64
	pair  []int32
	// first are the first prompts, in order: what a search falls back on
	// when fewer than MaxExamples prompts share a feature with the message.
	first []int32

	// scratch is reused: accumulators sized to 30,000 prompts, made anew
	// for every request, would cost annex requests/s.
	scratch sync.Pool // *searchScratch
}

// searchScratch is one search's accumulators, reused across searches.
type searchScratch struct {
	acc     []float32 // by prompt; zero between searches
	touched []int32   // room for every prompt, and one more
	best    candidates
	feats   []queryFeature
	q       []float64 // the message's vector, dense; zero between searches
}

// newIndex indexes prompts, prompts[d] being the prompt of pair pairs[d].
func newIndex(lex embed.Lexical, prompts []string, pairs []int32) *index {
	x := &index{lex: lex, pair: pairs}
	type posting struct {
		feature int32
		weight  float32
	}
	// Analyse the prompts on every CPU: most of the work of loading.
	feats := make([][]embed.Feature, len(prompts))
	vecs := make([]embed.Sparse, len(prompts))
	var wg sync.WaitGroup
	workers := min(runtime.GOMAXPROCS(0), len(prompts)/256+1)
	for w := range workers {
		wg.Go(func() {
			for d := w; d < len(prompts); d += workers {
				feats[d] = lex.Features(prompts[d])
				vecs[d] = lex.SparseOf(feats[d])
			}
		})
	}
	wg.Wait()

	nf, nv := 0, 0
	for d := range feats {
		nf += len(feats[d])
		nv += len(vecs[d].Index)
	}
	all := make([]posting, 0, nf)
	x.ids = make(map[uint64]int32, nf/8)
	x.vidx, x.vval = make([]int32, 0, nv), make([]float32, 0, nv)
	off := make([]int32, 0, len(prompts)+1)
	x.voff = append(make([]int32, 0, len(prompts)+1), 0)
	x.norm2 = make([]float64, len(prompts))
	var count []int32
	for d, fs := range feats {
		off = append(off, int32(len(all)))
		var n2 float64
		for _, f := range fs {
			n2 += f.Weight * f.Weight
		}
		norm := math.Sqrt(n2)
		for _, f := range fs {
			if f.Weight <= 0 {
				continue // adds nothing to a search
			}
			k, ok := x.ids[f.Hash]
			if !ok {
				k = int32(len(count))
				x.ids[f.Hash] = k
				count = append(count, 0)
			}
			count[k]++
			all = append(all, posting{k, float32(f.Weight / norm)})
		}
		feats[d] = nil
		v := vecs[d]
		x.vidx = append(x.vidx, v.Index...)
		x.vval = append(x.vval, v.Value...)
		x.voff = append(x.voff, int32(len(x.vidx)))
		x.norm2[d] = v.Norm2()
		if len(x.first) < MaxExamples {
			x.first = append(x.first, int32(d))
		}
	}
	off = append(off, int32(len(all)))

	// Lay the postings out by feature, in prompt order.
	full := make([]int32, len(count)+1)
	for k, c := range count {
		full[k+1] = full[k] + c
	}
	doc := make([]int32, len(all))
	weight := make([]float32, len(all))
	fill := append([]int32(nil), full[:len(count)]...)
	for d := range prompts {
		for _, p := range all[off[d]:off[d+1]] {
			doc[fill[p.feature]] = int32(d)
			weight[fill[p.feature]] = p.weight
			fill[p.feature]++
		}
	}
	x.start, x.doc, x.weight = full, doc, weight
	// Pick the champions of each long list.
	x.cstart = make([]int32, len(count)+1)
	var top candidates
	for k := range count {
		lo, hi := full[k], full[k+1]
		if hi-lo > maxPostings {
			top = top[:0]
			for p := lo; p < hi; p++ {
				top = top.keep(candidate{doc[p], weight[p]}, maxPostings)
			}
			for _, c := range top {
				x.cdoc = append(x.cdoc, c.doc)
				x.cweight = append(x.cweight, c.score)
			}
		}
		x.cstart[k+1] = int32(len(x.cdoc))
	}
	dim := lex.Dimensions
	if dim <= 0 {
		dim = embed.DefaultDimensions
	}
	x.scratch.New = func() any {
		return &searchScratch{acc: make([]float32, len(prompts)), touched: make([]int32, len(prompts)+1), q: make([]float64, dim)}
	}
	return x
}

// queryFeature is a feature of a message: its postings k, how many there
// are, and its weight in the message.
type queryFeature struct {
	k, n int32
	w    float32
}

// scored is a pair and the similarity of its prompt to a message.
type scored struct {
	pair int
	sim  float64
}

// search returns the prompts closest to the message whose features are
// qf and vector qv: the best searchCandidates by the index's estimate
// (or, when fewer than MaxExamples share a feature with it, those and the
// first prompts), each with its exact cosine similarity to the message, in
// no particular order. It appends them to out.
func (x *index) search(qf []embed.Feature, qv embed.Sparse, out []scored) []scored {
	// The scratch goes back only on a normal return: after a panic its
	// arrays may not be zero.
	s := x.scratch.Get().(*searchScratch)
	var n2 float64
	for _, f := range qf {
		n2 += f.Weight * f.Weight
	}
	norm := math.Sqrt(n2)
	// The message's indexed features, rarest first.
	feats := s.feats[:0]
	for _, f := range qf {
		if f.Weight <= 0 {
			continue
		}
		if k, ok := x.ids[f.Hash]; ok {
			feats = append(feats, queryFeature{k, x.start[k+1] - x.start[k], float32(f.Weight / norm)})
		}
	}
	slices.SortFunc(feats, func(a, b queryFeature) int {
		if c := cmp.Compare(a.n, b.n); c != 0 {
			return c
		}
		return cmp.Compare(a.k, b.k)
	})
	s.feats = feats
	// touched lists the prompts reached, each once: a slot is written for
	// every posting and kept only when the posting is the prompt's first.
	// Branch-free, it keeps annex's CPU per request at 30,000 messages
	// about 20 µs lower (BenchmarkAnswer: 218 -> 201 µs).
	acc, touched, nt := s.acc, s.touched, 0
	budget := int32(searchBudget)
	for _, f := range feats {
		docs, weights := x.doc[x.start[f.k]:x.start[f.k+1]], x.weight[x.start[f.k]:x.start[f.k+1]]
		if f.n > maxPostings && f.n > budget {
			docs, weights = x.cdoc[x.cstart[f.k]:x.cstart[f.k+1]], x.cweight[x.cstart[f.k]:x.cstart[f.k+1]]
		} else {
			budget -= f.n
		}
		weights = weights[:len(docs)]
		for p, d := range docs {
			a := acc[d]
			touched[nt] = d
			if a == 0 {
				nt++
			}
			// At least the least float32, so that a reached prompt never
			// sums to 0.
			acc[d] = a + max(f.w*weights[p], math.SmallestNonzeroFloat32)
		}
	}
	best := s.best[:0]
	for _, d := range touched[:nt] {
		// Most prompts score below the weakest candidate: skip them here.
		if len(best) < searchCandidates || acc[d] >= best[0].score {
			best = best.keep(candidate{d, acc[d]}, searchCandidates)
		}
		acc[d] = 0
	}
	for _, d := range x.first {
		if len(best) >= MaxExamples {
			break
		}
		if !best.has(d) {
			best = append(best, candidate{d, 0})
		}
	}
	s.best = best
	// Score the candidates against the message's vector spread out: each
	// costs a step per entry of its vector. The sums run in index order,
	// as embed.Cosine's do.
	q := s.q
	for k, i := range qv.Index {
		q[i] = float64(qv.Value[k])
	}
	qn2 := qv.Norm2()
	for _, c := range best {
		var dot float64
		vals := x.vval[x.voff[c.doc]:x.voff[c.doc+1]]
		for k, i := range x.vidx[x.voff[c.doc]:x.voff[c.doc+1]] {
			dot += q[i] * float64(vals[k])
		}
		out = append(out, scored{int(x.pair[c.doc]), embed.CosineOf(dot, qn2, x.norm2[c.doc])})
	}
	for _, i := range qv.Index {
		q[i] = 0
	}
	x.scratch.Put(s)
	return out
}

// candidate is a prompt and its estimated similarity.
type candidate struct {
	doc   int32
	score float32
}

// candidates is a min-heap of candidates, the worst on top, to be replaced
// by a better one: one of lower score, or of equal score and later doc (so
// that the earlier of equals is kept, whatever the order of arrival).
type candidates []candidate

func (h candidates) worse(i, j int) bool {
	return h[i].score < h[j].score || h[i].score == h[j].score && h[i].doc > h[j].doc
}

// keep adds c to h when h holds fewer than n candidates or c is better
// than its worst, which it then replaces.
func (h candidates) keep(c candidate, n int) candidates {
	if len(h) < n {
		h = append(h, c)
		h.up(len(h) - 1)
		return h
	}
	h = append(h, c) // compare c with the worst as h[n]
	if h.worse(n, 0) {
		return h[:n]
	}
	h[0] = c
	h = h[:n]
	h.down(0)
	return h
}

// up restores the heap after h[i] was added.
func (h candidates) up(i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if !h.worse(i, parent) {
			return
		}
		h[parent], h[i] = h[i], h[parent]
		i = parent
	}
}

// down restores the heap after h[i] was replaced by a better one.
func (h candidates) down(i int) {
	for {
		least, l, r := i, 2*i+1, 2*i+2
		if l < len(h) && h.worse(l, least) {
			least = l
		}
		if r < len(h) && h.worse(r, least) {
			least = r
		}
		if least == i {
			return
		}
		h[i], h[least] = h[least], h[i]
		i = least
	}
}

func (h candidates) has(d int32) bool {
	for _, c := range h {
		if c.doc == d {
			return true
		}
	}
	return false
}
