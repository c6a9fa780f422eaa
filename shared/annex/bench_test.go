package annex_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/duetbot/duet/shared/annex"
	"github.com/duetbot/duet/shared/annex/annextest"
	"github.com/duetbot/duet/shared/benchcpu"
	"github.com/duetbot/duet/shared/embed"
)

// discard is a Store that keeps nothing: the benchmarks measure the
// persona, not a store.
type discard struct{}

func (discard) SaveExchange(context.Context, annex.Exchange) error { return nil }
func (discard) LoadPersona(context.Context, string) (annex.PersonaData, error) {
	return annex.PersonaData{}, nil
}
func (discard) SavePersona(context.Context, annex.PersonaData) error { return nil }

// benchSizes are the persona sizes benchmarked, in transcript messages.
var benchSizes = []int{42, 3000, 30000}

// personaOf builds the persona of a generated transcript of n messages the
// way `duet serve` does with ANNEX_PERSONA_FILE.
func personaOf(tb testing.TB, n int) *annex.Persona {
	tb.Helper()
	t := annextest.Transcript(n, 1)
	d := annex.PersonaData{Name: t.Username(), ID: t.Person, Username: t.Username(), Pairs: t.Pairs()}
	p, err := annex.NewPersona(context.Background(), d, embed.Lexical{})
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// BenchmarkAnswer is one annex request through Engine.Answer with the
// offline replier, against generated personas of each size: a new question,
// with a context holding an earlier exchange the request teaches. It
// reports cpu-ns/op besides ns/op: the CPU one request costs (GC included),
// which holds on a shared machine.
func BenchmarkAnswer(b *testing.B) {
	reqs := annextest.Requests(512, 2)
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("messages=%d", n), func(b *testing.B) {
			e, err := annex.NewEngine(personaOf(b, n), discard{})
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			b.ReportAllocs()
			b.ResetTimer()
			cpu := benchcpu.Start()
			for i := 0; b.Loop(); i++ {
				if _, err := e.Answer(ctx, reqs[i%len(reqs)]); err != nil {
					b.Fatal(err)
				}
			}
			cpu.Report(b, b.N)
		})
	}
}

// BenchmarkNewPersona is loading a persona: what `duet serve` and the
// Lambda do once at start.
func BenchmarkNewPersona(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("messages=%d", n), func(b *testing.B) {
			t := annextest.Transcript(n, 1)
			d := annex.PersonaData{Name: t.Username(), ID: t.Person, Username: t.Username(), Pairs: t.Pairs()}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := annex.NewPersona(context.Background(), d, embed.Lexical{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkBrief is the persona's share of a request: finding the
// examples closest to the message (through the index) and the samples.
func BenchmarkBrief(b *testing.B) {
	reqs := annextest.Requests(512, 2)
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("messages=%d", n), func(b *testing.B) {
			p := personaOf(b, n)
			ctx := context.Background()
			b.ReportAllocs()
			b.ResetTimer()
			cpu := benchcpu.Start()
			for i := 0; b.Loop(); i++ {
				if _, err := p.Brief(ctx, reqs[i%len(reqs)].Message.Text, nil); err != nil {
					b.Fatal(err)
				}
			}
			cpu.Report(b, b.N)
		})
	}
}
