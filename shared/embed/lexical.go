package embed

import (
	"context"
	"hash/fnv"
	"maps"
	"math"
	"math/bits"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// DefaultDimensions is the length of Lexical's vectors.
const DefaultDimensions = 1024

// Lexical embeds texts offline and deterministically: words, word pairs and
// character trigrams are hashed into a fixed number of signed buckets, with
// sublinear term frequency and common function words weighted down (the
// "IDF" of a corpus nobody has to ship), then L2-normalised. Texts that share
// words or word stems come out close; it knows nothing of synonyms.
type Lexical struct {
	// Dimensions is the vector length; 0 means DefaultDimensions.
	Dimensions int
	// IDF, when set, weighs each word (and its trigrams) by how rare it is
	// in a corpus (see FitLexical); unknown words get IDFDefault.
	IDF map[string]float64
	// IDFDefault is the weight of words absent from IDF.
	IDFDefault float64
}

// FitLexical returns a Lexical whose word weights are the inverse document
// frequencies of docs, log((1+N)/(1+df)) + 1, so that words every document
// uses (a name, "should we") count less than the ones that tell documents
// apart. Words never seen weigh as much as the rarest ones.
func FitLexical(docs []string) Lexical {
	df := map[string]int{}
	for _, d := range docs {
		seen := map[string]bool{}
		for _, w := range Words(d) {
			if !seen[w] {
				seen[w] = true
				df[w]++
			}
		}
	}
	n := float64(len(docs))
	idf := make(map[string]float64, len(df))
	for w, c := range df {
		idf[w] = math.Log((1+n)/(1+float64(c))) + 1
	}
	return Lexical{IDF: idf, IDFDefault: math.Log(1+n) + 1}
}

func (l Lexical) weight(w string) float64 {
	if l.IDF == nil {
		return 1
	}
	if v, ok := l.IDF[w]; ok {
		return v
	}
	return l.IDFDefault
}

var _ Embedder = Lexical{}

// Embed returns the vectors of texts. It never fails.
func (l Lexical) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = l.Vector(t)
	}
	return out, nil
}

// Feature weights: whole words carry most of the meaning, trigrams let
// "deploy" meet "deployed", pairs reward shared phrases.
const (
	wordWeight    = 1.0
	pairWeight    = 0.5
	trigramWeight = 0.25
	stopWeight    = 0.15
)

// Vector returns the vector of one text.
func (l Lexical) Vector(text string) []float32 {
	return l.Sparse(text).Dense(l.dim())
}

func (l Lexical) dim() int {
	if l.Dimensions <= 0 {
		return DefaultDimensions
	}
	return l.Dimensions
}

// Feature is one distinct feature of a text — a word, a pair of adjacent
// words or a character trigram of a word, known by the 64-bit FNV-1a hash
// of its name — with its weight in the text: the logarithm of one plus its
// weighted count (see Vector).
type Feature struct {
	Hash   uint64
	Weight float64
}

// Bucket returns the entry of a vector of dim dimensions the feature adds
// to, and its sign there.
func (f Feature) Bucket(dim int) (int, float64) {
	if f.Hash>>63 == 1 {
		return int(f.Hash % uint64(dim)), -1
	}
	return int(f.Hash % uint64(dim)), 1
}

// Features returns the distinct features of text, in the order they first
// occur: what Vector hashes into its buckets. An index over them finds the
// texts that share features with another without comparing it with each.
func (l Lexical) Features(text string) []Feature {
	// About one feature per byte of text: one allocation for most texts.
	fs := make([]Feature, 0, len(text)+4)
	h := fnv.New64a()
	var name []byte // the feature's name, hashed
	add := func(wt float64, parts ...string) {
		name = name[:0]
		for _, p := range parts {
			name = append(name, p...)
		}
		h.Reset()
		h.Write(name)
		fs = append(fs, Feature{Hash: h.Sum64(), Weight: wt})
	}
	words := Words(text)
	for i, w := range words {
		wt := wordWeight * l.weight(w)
		stop := IsStopword(w)
		if stop {
			wt = stopWeight * l.weight(w)
		}
		add(wt, "w:", w)
		if i > 0 {
			add(pairWeight*wt, "p:", words[i-1], " ", w)
		}
		if stop {
			continue
		}
		tw := trigramWeight * l.weight(w)
		runes := []rune("<" + w + ">")
		for j := 3; j <= len(runes); j++ {
			add(tw, "t:", string(runes[j-3:j]))
		}
	}
	// Merge repeated features through a small pooled open-addressing table
	// (a map here costs the annex bot about 20 µs per request at 30,000
	// messages, and its persona load), then take the log of their counts,
	// as the sum of a feature's weights is sublinear in how often it occurs.
	tp := tablePool.Get().(*[]int32)
	defer tablePool.Put(tp)
	m := 16
	for m < 2*len(fs) {
		m *= 2
	}
	if cap(*tp) < m {
		*tp = make([]int32, m)
	}
	table := (*tp)[:m] // 1 + the position in out of the feature there
	out := fs[:0]
	for _, f := range fs {
		for i := f.Hash & uint64(m-1); ; i = (i + 1) & uint64(m-1) {
			if j := table[i]; j == 0 {
				out = append(out, f)
				table[i] = int32(len(out))
				break
			} else if out[j-1].Hash == f.Hash {
				out[j-1].Weight += f.Weight
				break
			}
		}
	}
	clear(table)
	for i := range out {
		out[i].Weight = math.Log1p(out[i].Weight)
	}
	return out
}

// tablePool holds Features' merge tables, all zero.
var tablePool = sync.Pool{New: func() any { return new([]int32) }}

// Sparse returns the vector of text (as Vector does) as its non-zero
// entries.
func (l Lexical) Sparse(text string) Sparse {
	return l.SparseOf(l.Features(text))
}

// SparseOf returns the vector of a text whose features are fs.
func (l Lexical) SparseOf(fs []Feature) Sparse {
	dim := l.dim()
	// Sum the features into a dense scratch vector, marking the entries
	// they touch in a bitmap, then read those entries in order. Pooled and
	// bitmap-walked, not a fresh vector read whole: it halves the annex
	// bot's persona load (start CPU 310 -> 140 ms at 30,000 messages) and
	// keeps annex requests/s over 2,000 there.
	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	if len(sc.v) < dim {
		sc.v = make([]float64, dim)
		sc.touched = make([]uint64, (dim+63)/64)
	}
	v, touched := sc.v, sc.touched
	for _, f := range fs {
		i, sign := f.Bucket(dim)
		v[i] += sign * f.Weight
		touched[i/64] |= 1 << (i % 64)
	}
	var norm float64
	nz := 0
	for w, set := range touched {
		for ; set != 0; set &= set - 1 {
			x := v[w*64+bits.TrailingZeros64(set)]
			norm += x * x
			nz++
		}
	}
	var s Sparse
	if norm != 0 {
		norm = math.Sqrt(norm)
		s.Index = make([]int32, 0, nz)
		s.Value = make([]float32, 0, nz)
	}
	for w, set := range touched {
		for ; set != 0; set &= set - 1 {
			i := w*64 + bits.TrailingZeros64(set)
			if x := v[i]; norm != 0 && x != 0 {
				if f := float32(x / norm); f != 0 {
					s.Index = append(s.Index, int32(i))
					s.Value = append(s.Value, f)
				}
			}
			v[i] = 0
		}
		touched[w] = 0
	}
	return s
}

// scratch is SparseOf's dense vector and bitmap of touched entries, both
// zero between uses.
type scratch struct {
	v       []float64
	touched []uint64
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// Words splits text into lower-case words of letters and digits; an
// apostrophe inside a word is kept ("don't").
func Words(text string) []string {
	lower := strings.ToLower(text)
	var words []string
	start, curly := -1, false // the word being read starts at start
	flush := func(end int) {
		if start < 0 {
			return
		}
		w := lower[start:end]
		if curly {
			w = strings.ReplaceAll(w, "’", "'")
		}
		if w = strings.TrimRight(w, "'"); w != "" {
			words = append(words, w)
		}
		start, curly = -1, false
	}
	for i, r := range lower {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if start < 0 {
				start = i
			}
		case (r == '\'' || r == '’') && start >= 0:
			curly = curly || r == '’'
		default:
			flush(i)
		}
	}
	flush(len(lower))
	return words
}

// IsStopword reports whether w (lower case) is a common English function
// word that says little about a text's topic.
func IsStopword(w string) bool { return stopwords[w] }

// Stopwords returns the function words IsStopword knows, sorted: the one
// list Duet's text code shares (the offline brain adds chat fillers and
// light verbs to it).
func Stopwords() []string { return slices.Sorted(maps.Keys(stopwords)) }

var stopwords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the and or but if then so of to in on at by for with from as is are was were be been being
	am do does did doing have has had having i me my we our you your he she it its they them their this that these those there here
	what which who whom whose when where why how not no yes can could would should will shall may might must just also too very
	about into over than up down out off all any some more most such only own same s t don't i'm it's that's you're we're isn't
	can't won't didn't doesn't let's get got oh ok okay hi hey`) {
		m[w] = true
	}
	return m
}()
