package embed

import (
	"context"
	"math"
	"testing"
)

func TestLexical(t *testing.T) {
	l := Lexical{}
	a := l.Vector("Should we deploy on Friday afternoon?")
	if again := l.Vector("Should we deploy on Friday afternoon?"); Cosine(a, again) < 0.999999 {
		t.Errorf("same text: got cosine %f, want 1 (deterministic)", Cosine(a, again))
	}
	near := Cosine(a, l.Vector("Can we deploy the release on Friday?"))
	far := Cosine(a, l.Vector("The staging database snapshots are full."))
	if near <= far {
		t.Errorf("got cosine %f for a rephrasing and %f for an unrelated text, want the first higher", near, far)
	}
	if got := Cosine(l.Vector(""), a); got != 0 {
		t.Errorf("empty text: got cosine %f, want 0", got)
	}
}

func TestCosine(t *testing.T) {
	tests := []struct {
		a, b []float32
		want float64
	}{
		{[]float32{1, 0}, []float32{1, 0}, 1},
		{[]float32{1, 0}, []float32{0, 1}, 0},
		{[]float32{1, 0}, []float32{0.6, 0.8}, 0.6},
		{[]float32{1, 1}, []float32{-1, -1}, -1},
		{[]float32{0, 0}, []float32{1, 0}, 0},
	}
	for _, tt := range tests {
		if got := Cosine(tt.a, tt.b); math.Abs(got-tt.want) > 1e-6 {
			t.Errorf("Cosine(%v, %v): got %f, want %f", tt.a, tt.b, got, tt.want)
		}
	}
}

type counting struct{ batches [][]string }

func (c *counting) Embed(_ context.Context, texts []string) ([][]float32, error) {
	c.batches = append(c.batches, texts)
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = []float32{float32(len(t))}
	}
	return out, nil
}

func TestCache(t *testing.T) {
	next := &counting{}
	c := NewCache(next, 2)
	got, err := c.Embed(context.Background(), []string{"a", "bb", "a", "ccc"})
	if err != nil {
		t.Fatal(err)
	}
	if len(next.batches) != 2 || len(next.batches[0]) != 2 || len(next.batches[1]) != 1 {
		t.Errorf("batches: got %v, want [[a bb] [ccc]]", next.batches)
	}
	if got[2][0] != 1 || got[3][0] != 3 {
		t.Errorf("vectors: got %v, want in text order", got)
	}
	if _, err := c.Embed(context.Background(), []string{"bb", "ccc"}); err != nil {
		t.Fatal(err)
	}
	if len(next.batches) != 2 {
		t.Errorf("cached texts were embedded again: batches %v", next.batches)
	}
}
