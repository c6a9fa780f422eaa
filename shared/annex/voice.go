package annex

import "github.com/duetbot/duet/shared/embed"

// voice is what compose reads of a persona's samples: their manner, word
// weights fitted to them, and their vectors under those weights. A
// persona works it out once for its latest samples (NewPersona); a request
// that teaches more of the person's answers changes only what they change
// (with).
type voice struct {
	lex     embed.Lexical
	samples []string
	stats   []sampleStats
	vecs    []embed.Sparse
	norm2   []float64
	manner  Manner
}

// newVoice analyses samples, weighing their words by how rare they are
// among them.
func newVoice(samples []string) *voice {
	v := &voice{lex: embed.FitLexical(samples), samples: samples,
		stats: make([]sampleStats, len(samples)), vecs: make([]embed.Sparse, len(samples)), norm2: make([]float64, len(samples))}
	for i, s := range samples {
		v.analyse(i, s)
	}
	v.manner = mannerFrom(v.stats, false)
	return v
}

func (v *voice) analyse(i int, s string) {
	v.stats[i] = statsOf(s, false)
	v.vecs[i] = v.lex.Sparse(s)
	v.norm2[i] = v.vecs[i].Norm2()
}

// with returns the voice of the latest MaxSamples of all's texts followed
// by extra's, each text once (its latest), when v is the voice of the
// latest MaxSamples of all: what it already analysed is reused, and its
// word weights are kept.
func (v *voice) with(all, extra []string) *voice {
	if len(extra) == 0 {
		return v
	}
	extra = dedupe(extra)
	extra = extra[max(0, len(extra)-MaxSamples):]
	later := make(map[string]bool, len(extra))
	for _, t := range extra {
		later[t] = true
	}
	// Take all's texts from the latest back, skipping those extra repeats,
	// until the window is full.
	from := len(all) - len(v.samples) // all[from:] are v.samples
	var keep []int
	for i := len(all) - 1; i >= 0 && len(keep)+len(extra) < MaxSamples; i-- {
		if !later[all[i]] {
			keep = append(keep, i)
		}
	}
	n := len(keep) + len(extra)
	w := &voice{lex: v.lex, samples: make([]string, 0, n),
		stats: make([]sampleStats, n), vecs: make([]embed.Sparse, n), norm2: make([]float64, n)}
	for k := len(keep) - 1; k >= 0; k-- {
		i, j := keep[k], len(w.samples)
		w.samples = append(w.samples, all[i])
		if i >= from {
			w.stats[j], w.vecs[j], w.norm2[j] = v.stats[i-from], v.vecs[i-from], v.norm2[i-from]
		} else {
			w.analyse(j, all[i])
		}
	}
	for _, t := range extra {
		w.samples = append(w.samples, t)
		w.analyse(len(w.samples)-1, t)
	}
	w.manner = mannerFrom(w.stats, false)
	return w
}
