package embed

import "math"

// Sparse is a vector kept as its non-zero entries, Index ascending. Lexical
// vectors have a few dozen of their 1,024 entries set: comparing them in
// this form costs a few dozen steps, not 1,024.
type Sparse struct {
	Index []int32
	Value []float32
}

// Dense returns s as a vector of dim entries (entries past dim dropped).
func (s Sparse) Dense(dim int) []float32 {
	out := make([]float32, dim)
	for k, i := range s.Index {
		if int(i) < dim {
			out[i] = s.Value[k]
		}
	}
	return out
}

// Norm2 returns the squared length of s, summed in index order.
func (s Sparse) Norm2() float64 {
	var n float64
	for _, v := range s.Value {
		n += float64(v) * float64(v)
	}
	return n
}

// Dot returns the dot product of a and b, summed in index order.
func Dot(a, b Sparse) float64 {
	var dot float64
	for i, j := 0, 0; i < len(a.Index) && j < len(b.Index); {
		switch {
		case a.Index[i] < b.Index[j]:
			i++
		case a.Index[i] > b.Index[j]:
			j++
		default:
			dot += float64(a.Value[i]) * float64(b.Value[j])
			i++
			j++
		}
	}
	return dot
}

// CosineSparse returns the cosine similarity of a and b: the same as
// Cosine of their dense forms (summed in the same order, so to the bit),
// in a number of steps that depends on their non-zero entries only.
func CosineSparse(a, b Sparse) float64 {
	return CosineOf(Dot(a, b), a.Norm2(), b.Norm2())
}

// CosineOf is the cosine similarity of two vectors from their dot product
// and squared lengths (0 when either is zero): Cosine's last step, for
// callers that keep the lengths.
func CosineOf(dot, na, nb float64) float64 {
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / (math.Sqrt(na) * math.Sqrt(nb))
}
