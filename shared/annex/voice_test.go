package annex

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
)

// TestVoiceWith checks that a request's voice, built from the persona's by
// with, is the one worked out from scratch for the same samples — the
// latest MaxSamples of the persona's answers and the request's, each text
// once — but for the word weights, which stay the persona's.
func TestVoiceWith(t *testing.T) {
	var all []string
	for i := range 260 {
		all = append(all, fmt.Sprintf("Honestly, answer %d about the build. Ship it.", i%230))
	}
	all = dedupe(all)
	base := newVoice(all[len(all)-MaxSamples:])
	tests := map[string][]string{
		"none":               nil,
		"new":                {"Short answer: no.", "fair point, later"},
		"repeats the latest": {all[len(all)-1]},
		"repeats older ones": {all[len(all)-MaxSamples], all[0], "Short answer: no.", "Short answer: no."},
		"more than a window": func() []string {
			var ex []string
			for i := range MaxSamples + 10 {
				ex = append(ex, fmt.Sprintf("lower case %d", i))
			}
			return ex
		}(),
	}
	for name, extra := range tests {
		t.Run(name, func(t *testing.T) {
			want := dedupe(append(slices.Clone(all), extra...))
			want = want[max(0, len(want)-MaxSamples):]
			got := base.with(all, extra)
			if !slices.Equal(got.samples, want) {
				t.Fatalf("samples: got %d %q…, want %d %q…", len(got.samples), got.samples[:3], len(want), want[:3])
			}
			fresh := newVoice(want)
			if !reflect.DeepEqual(got.manner, fresh.manner) {
				t.Errorf("manner: got %+v, want %+v", got.manner, fresh.manner)
			}
			if len(got.an) != len(got.samples) {
				t.Fatalf("%d analyses of %d samples", len(got.an), len(got.samples))
			}
			for i, s := range got.samples {
				if !reflect.DeepEqual(got.an[i].stats, fresh.an[i].stats) {
					t.Fatalf("stats of sample %d %q: got %+v, want %+v", i, s, got.an[i].stats, fresh.an[i].stats)
				}
				if v := base.lex.Sparse(s); !reflect.DeepEqual(got.an[i].vec, v) || got.an[i].norm2 != v.Norm2() {
					t.Fatalf("vector of sample %d %q: not the one under the persona's word weights", i, s)
				}
			}
		})
	}
}
