package annex_test

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/duetbot/duet/shared/annex"
	"github.com/duetbot/duet/shared/annex/annextest"
	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/embed"
)

// recallMessages adds a persona size to TestBriefMatchesExhaustiveSearch:
// go test -run BriefMatches -recall 30000 ./shared/annex/ (seconds, so
// not by default).
var recallMessages = flag.Int("recall", 0, "also check the index against the exhaustive search with a persona of this many messages")

// exhaustive is how Brief chose examples before the index: every pair's
// prompt compared with the message, the MaxExamples most similar kept (the
// earlier of equals first).
type exhaustive struct {
	pairs []annex.Pair
	vecs  [][]float32
}

func newExhaustive(pairs []annex.Pair) exhaustive {
	e := exhaustive{pairs: pairs, vecs: make([][]float32, len(pairs))}
	for i, p := range pairs {
		if p.Prompt != "" {
			e.vecs[i] = embed.Lexical{}.Vector(p.Prompt)
		}
	}
	return e
}

// similarities returns the similarities of the examples it chooses, best
// first.
func (e exhaustive) similarities(message string) []float64 {
	mv := embed.Lexical{}.Vector(message)
	type s struct {
		i   int
		sim float64
	}
	var all []s
	for i, v := range e.vecs {
		if v != nil {
			all = append(all, s{i, embed.Cosine(mv, v)})
		}
	}
	slices.SortStableFunc(all, func(a, b s) int { return cmp.Compare(b.sim, a.sim) })
	var out []float64
	for _, x := range all[:min(len(all), annex.MaxExamples)] {
		out = append(out, x.sim)
	}
	return out
}

// TestBriefMatchesExhaustiveSearch checks the persona's index against the
// exhaustive comparison it replaced, on generated personas: with few
// prompts it must find examples as close as those, with many (where the
// postings of common features are not all read) nearly always as close a
// best one, and most of the five.
func TestBriefMatchesExhaustiveSearch(t *testing.T) {
	ctx := context.Background()
	type size struct {
		messages           int
		wantBest, wantFive float64 // shares of questions, at least
	}
	sizes := []size{{42, 1, 1}, {600, 1, 1}, {3000, 0.98, 0.95}}
	if *recallMessages > 0 {
		sizes = append(sizes, size{*recallMessages, 0.98, 0.95})
	}
	for _, tt := range sizes {
		t.Run(fmt.Sprintf("messages=%d", tt.messages), func(t *testing.T) {
			tr := annextest.Transcript(tt.messages, 7)
			d := annex.PersonaData{Name: tr.Username(), ID: tr.Person, Pairs: tr.Pairs()}
			p, err := annex.NewPersona(ctx, d, embed.Lexical{})
			if err != nil {
				t.Fatal(err)
			}
			reqs := annextest.Requests(60, 8)
			ex := newExhaustive(d.Pairs)
			best, five, total := 0, 0, 0
			for _, r := range reqs {
				brief, err := p.Brief(ctx, r.Message.Text, nil)
				if err != nil {
					t.Fatal(err)
				}
				want := ex.similarities(r.Message.Text)
				if len(brief.Examples) != len(want) {
					t.Fatalf("%q: got %d examples, want %d", r.Message.Text, len(brief.Examples), len(want))
				}
				for i, ex := range brief.Examples {
					if i > 0 && ex.Similarity > brief.Examples[i-1].Similarity {
						t.Fatalf("%q: examples not best first: %v", r.Message.Text, brief.Examples)
					}
					if got := embed.Cosine(embed.Lexical{}.Vector(r.Message.Text), embed.Lexical{}.Vector(ex.Prompt)); math.Abs(got-ex.Similarity) > 1e-9 {
						t.Fatalf("%q: example %q has similarity %v, want its cosine %v", r.Message.Text, ex.Prompt, ex.Similarity, got)
					}
				}
				// Many prompts are equally close (the same question asked
				// again): an example counts as found when it is as close
				// as the one the exhaustive search put in its place.
				for i, w := range want {
					total++
					if brief.Examples[i].Similarity >= w-1e-9 {
						five++
						if i == 0 {
							best++
						}
					}
				}
			}
			gotBest, gotFive := float64(best)/float64(len(reqs)), float64(five)/float64(total)
			t.Logf("%d questions: the best example found for %.1f%%, %.1f%% of the best five", len(reqs), 100*gotBest, 100*gotFive)
			if gotBest < tt.wantBest || gotFive < tt.wantFive {
				t.Errorf("got the best example for %.3f of questions and %.3f of the best five, want at least %.3f and %.3f", gotBest, gotFive, tt.wantBest, tt.wantFive)
			}
		})
	}
}

// dense is an Embedder that is not an embed.Lexical (as the API back ends
// are not), with Lexical's vectors: the persona compares the message with
// every prompt instead of searching an index.
type dense struct{ embed.Lexical }

func (d dense) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return d.Lexical.Embed(ctx, texts)
}

// TestBriefWithoutIndex checks that a persona built on another embedder
// chooses the examples the index does, the request's own pairs included.
func TestBriefWithoutIndex(t *testing.T) {
	ctx := context.Background()
	tr := annextest.Transcript(300, 3)
	d := annex.PersonaData{Name: tr.Username(), ID: tr.Person, Pairs: tr.Pairs()}
	indexed, err := annex.NewPersona(ctx, d, embed.Lexical{})
	if err != nil {
		t.Fatal(err)
	}
	compared, err := annex.NewPersona(ctx, d, dense{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range annextest.Requests(40, 4) {
		extra := []annex.Pair{{Prompt: r.Context[1].Text, Answer: r.Context[2].Text}, {Prompt: r.Message.Text, Answer: "Asked and answered."}}
		a, err := indexed.Brief(ctx, r.Message.Text, extra)
		if err != nil {
			t.Fatal(err)
		}
		b, err := compared.Brief(ctx, r.Message.Text, extra)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.EqualFunc(a.Examples, b.Examples, func(x, y brain.Example) bool {
			return x.Prompt == y.Prompt && x.Answer == y.Answer && math.Abs(x.Similarity-y.Similarity) < 1e-9
		}) {
			t.Fatalf("%q: got examples %+v from the index, %+v from comparing each prompt", r.Message.Text, a.Examples, b.Examples)
		}
		if a.Examples[0].Prompt != r.Message.Text {
			t.Errorf("%q: best example %+v, want one whose prompt is the message (the request's own, or the same question learned before)", r.Message.Text, a.Examples[0])
		}
		if !slices.Equal(a.Samples, b.Samples) || a.Samples[len(a.Samples)-1] != "Asked and answered." {
			t.Errorf("%q: samples differ, or do not end with the request's answers", r.Message.Text)
		}
	}
}

// TestBriefZeroWeights: words the embedder weighs 0 reach no prompt, so
// a message of such words neither panics (each prompt is counted once
// however many postings reach it) nor returns an example twice.
func TestBriefZeroWeights(t *testing.T) {
	ctx := context.Background()
	var pairs []annex.Pair
	for i := range 600 {
		pairs = append(pairs, annex.Pair{Prompt: fmt.Sprintf("zzz hello %d", i), Answer: fmt.Sprintf("answer %d", i)})
	}
	lex := embed.Lexical{IDF: map[string]float64{"zzz": 0}, IDFDefault: 1}
	p, err := annex.NewPersona(ctx, annex.PersonaData{Name: "z", ID: "U1", Pairs: pairs}, lex)
	if err != nil {
		t.Fatal(err)
	}
	for _, msg := range []string{"zzz hello", "zzz hello 7", "hello"} {
		b, err := p.Brief(ctx, msg, nil)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, e := range b.Examples {
			if seen[e.Prompt] {
				t.Errorf("%q: example %q twice", msg, e.Prompt)
			}
			seen[e.Prompt] = true
		}
	}
}
