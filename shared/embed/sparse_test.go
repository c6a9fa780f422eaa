package embed

import (
	"hash/fnv"
	"math"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// referenceWords is Words as first written, a word at a time through a
// strings.Builder.
func referenceWords(text string) []string {
	var words []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			if w := strings.Trim(b.String(), "'"); w != "" {
				words = append(words, w)
			}
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
	return words
}

// referenceVector is Lexical.Vector as first written — features counted
// by name in a map, hashed with hash/fnv, summed into a dense vector — to
// check that the sparse form computes the same vectors.
func referenceVector(l Lexical, text string) []float32 {
	dim := l.dim()
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
		sign := 1.0
		if sum>>63 == 1 {
			sign = -1
		}
		v[int(sum%uint64(dim))] += sign * math.Log1p(c)
	}
	var norm float64
	for _, x := range v {
		norm += x * x
	}
	out := make([]float32, dim)
	if norm == 0 {
		return out
	}
	for i, x := range v {
		out[i] = float32(x / math.Sqrt(norm))
	}
	return out
}

// checkSame fails unless Vector and Sparse give text the reference vector
// (to float rounding: the reference sums colliding features in map order).
func checkSame(t *testing.T, l Lexical, text string) {
	t.Helper()
	if got, want := Words(text), referenceWords(text); !slices.Equal(got, want) {
		t.Fatalf("Words(%q): got %q, want %q", text, got, want)
	}
	want := referenceVector(l, text)
	got, sp := l.Vector(text), l.Sparse(text)
	if len(got) != len(want) {
		t.Fatalf("Vector(%q): got %d entries, want %d", text, len(got), len(want))
	}
	for i := range want {
		if math.Abs(float64(got[i]-want[i])) > 1e-6 {
			t.Fatalf("Vector(%q)[%d]: got %g, want %g", text, i, got[i], want[i])
		}
	}
	for k := 1; k < len(sp.Index); k++ {
		if sp.Index[k] <= sp.Index[k-1] {
			t.Fatalf("Sparse(%q): index not ascending at %d: %v", text, k, sp.Index)
		}
	}
	if d := sp.Dense(len(got)); Cosine(d, got) != Cosine(got, got) || CosineSparse(sp, sp) != Cosine(got, got) {
		t.Fatalf("Sparse(%q): its dense form or its cosine differs from Vector's", text)
	}
}

func TestSparseMatchesReference(t *testing.T) {
	texts := []string{
		"", "🙂", "a", "ok ok ok", "Should we deploy on Friday afternoon?",
		"Honestly, flaky tests are bugs. Quarantine them today, open a ticket each, and fix the root cause before Friday.",
		"Déjà vu: naïve café-crème, ça va? Ünïcödé wörds and the the the repeated",
		"don't won't it's l'heure O'Neil's", "rock ’n’ roll’’ 'quoted' it’s ’’",
	}
	lexicals := map[string]Lexical{
		"plain":  {},
		"fitted": FitLexical(texts),
		"small":  {Dimensions: 16},
	}
	for name, l := range lexicals {
		t.Run(name, func(t *testing.T) {
			for _, text := range texts {
				checkSame(t, l, text)
			}
		})
	}
}

func TestCosineSparse(t *testing.T) {
	l := Lexical{}
	a, b := "Can we deploy the release on Friday?", "Should we deploy on Friday afternoon?"
	got := CosineSparse(l.Sparse(a), l.Sparse(b))
	if want := Cosine(l.Vector(a), l.Vector(b)); got != want {
		t.Errorf("CosineSparse: got %v, want Cosine's %v", got, want)
	}
	if got := CosineSparse(l.Sparse(""), l.Sparse(a)); got != 0 {
		t.Errorf("CosineSparse with an empty text: got %v, want 0", got)
	}
}

func FuzzSparse(f *testing.F) {
	for _, s := range []string{"", "Should we deploy on Friday?", "café ça ünï", "x\xffy 'a' b's", "it’s ’n’ İstanbul"} {
		f.Add(s)
	}
	l := Lexical{Dimensions: 64}
	f.Fuzz(func(t *testing.T, text string) {
		checkSame(t, l, text)
	})
}
