package embed

import (
	"context"
	"hash/fnv"
	"maps"
	"math"
	"slices"
	"strings"
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
	dim := l.Dimensions
	if dim <= 0 {
		dim = DefaultDimensions
	}
	counts := map[string]float64{}
	words := Words(text)
	for i, w := range words {
		wt := wordWeight * l.weight(w)
		if IsStopword(w) {
			wt = stopWeight * l.weight(w)
		}
		counts["w:"+w] += wt
		if i > 0 {
			counts["p:"+words[i-1]+" "+w] += pairWeight * wt
		}
		if IsStopword(w) {
			continue
		}
		r := []rune("<" + w + ">")
		for j := 0; j+3 <= len(r); j++ {
			counts["t:"+string(r[j:j+3])] += trigramWeight * l.weight(w)
		}
	}
	v := make([]float64, dim)
	for f, c := range counts {
		h := fnv.New64a()
		_, _ = h.Write([]byte(f))
		sum := h.Sum64()
		idx := int(sum % uint64(dim))
		sign := 1.0
		if sum>>63 == 1 {
			sign = -1
		}
		v[idx] += sign * math.Log1p(c) // sublinear in how often a feature occurs
	}
	var norm float64
	for _, x := range v {
		norm += x * x
	}
	out := make([]float32, dim)
	if norm == 0 {
		return out
	}
	norm = math.Sqrt(norm)
	for i, x := range v {
		out[i] = float32(x / norm)
	}
	return out
}

// Words splits text into lower-case words of letters and digits; an
// apostrophe inside a word is kept ("don't").
func Words(text string) []string {
	var words []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			words = append(words, strings.Trim(b.String(), "'"))
			b.Reset()
		}
	}
	for _, r := range strings.ToLower(text) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		case (r == '\'' || r == '’') && b.Len() > 0:
			b.WriteRune('\'')
		default:
			flush()
		}
	}
	flush()
	out := words[:0]
	for _, w := range words {
		if w != "" {
			out = append(out, w)
		}
	}
	return out
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
