package embed

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"sync"
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

// gated is an Embedder that reports each call on calls and answers only
// when release is closed.
type gated struct {
	mu      sync.Mutex
	batches [][]string
	calls   chan []string
	release chan struct{}
}

func (g *gated) Embed(_ context.Context, texts []string) ([][]float32, error) {
	g.mu.Lock()
	g.batches = append(g.batches, texts)
	g.mu.Unlock()
	g.calls <- texts
	<-g.release
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = []float32{float32(len(t))}
	}
	return out, nil
}

// TestCacheSharesInFlight checks that a text already being embedded for one
// caller is not requested again by a concurrent one, which waits instead.
func TestCacheSharesInFlight(t *testing.T) {
	g := &gated{calls: make(chan []string, 4), release: make(chan struct{})}
	c := NewCache(g, 8)
	ctx := context.Background()
	type result struct {
		vecs [][]float32
		err  error
	}
	first, second := make(chan result, 1), make(chan result, 1)
	go func() { v, err := c.Embed(ctx, []string{"original"}); first <- result{v, err} }()
	<-g.calls // "original" is in flight
	go func() { v, err := c.Embed(ctx, []string{"reply", "original"}); second <- result{v, err} }()
	if got := <-g.calls; len(got) != 1 || got[0] != "reply" {
		t.Errorf("second caller asked for %q, want only [reply]", got)
	}
	close(g.release)
	for _, ch := range []chan result{first, second} {
		r := <-ch
		if r.err != nil {
			t.Fatal(r.err)
		}
		if last := r.vecs[len(r.vecs)-1]; len(last) != 1 || last[0] != float32(len("original")) {
			t.Errorf("vector of original: got %v, want [8]", last)
		}
	}
	if len(g.batches) != 2 {
		t.Errorf("batches: got %v, want [[original] [reply]]", g.batches)
	}
}

// failing fails every call.
type failing struct{ calls int }

func (f *failing) Embed(context.Context, []string) ([][]float32, error) {
	f.calls++
	return nil, errors.New("throttled")
}

func TestCacheFailureIsNotCached(t *testing.T) {
	f := &failing{}
	c := NewCache(f, 1)
	for range 2 {
		if _, err := c.Embed(context.Background(), []string{"a", "b"}); err == nil {
			t.Fatal("Embed: got nil error, want the back end's")
		}
	}
	if f.calls != 2 {
		t.Errorf("back end calls: got %d, want 2 (one per Embed: a failure stops the batches and is not remembered)", f.calls)
	}
}

// TestLexicalValuesUnchanged: personas' indexes and the scores `duet eval`
// reports rest on Lexical's exact features and vectors, so a change to how
// they are hashed or summed must show here (the values were recorded
// before features were hashed with hash/fnv).
func TestLexicalValuesUnchanged(t *testing.T) {
	const text = "Deploy the app, don't deploy it twice"
	fs := Lexical{}.Features(text)
	h := fnv.New64a()
	for _, f := range fs {
		fmt.Fprintf(h, "%x:%v;", f.Hash, f.Weight)
	}
	if len(fs) != 26 || fs[0].Hash != 0xd8ba55a381ae6e07 || h.Sum64() != 0x75b118c4d91e6ce2 {
		t.Errorf("Features(%q): %d features, first %#x, digest %#x; want 26, 0xd8ba55a381ae6e07, 0x75b118c4d91e6ce2", text, len(fs), fs[0].Hash, h.Sum64())
	}
	s := Lexical{}.Sparse(text)
	h = fnv.New64a()
	fmt.Fprint(h, s.Index, s.Value)
	if h.Sum64() != 0x6c7ce6c82664b129 {
		t.Errorf("Sparse(%q): digest %#x, want 0x6c7ce6c82664b129", text, h.Sum64())
	}
}
