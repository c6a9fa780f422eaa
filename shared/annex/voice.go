package annex

import "github.com/duetbot/duet/shared/embed"

// voice is what compose reads of a persona's samples: their manner, word
// weights fitted to them, and each one's analysis under those weights. A
// persona works it out once for its latest samples (NewPersona); a request
// that teaches more of the person's answers shares the analyses of the
// samples it keeps and adds its own (with).
type voice struct {
	lex     embed.Lexical
	samples []string
	an      []*analysis // of samples[i]
	manner  Manner
}

// analysis is what compose reads of one sample.
type analysis struct {
	stats sampleStats
	vec   embed.Sparse
	norm2 float64
}

// newVoice analyses samples, weighing their words by how rare they are
// among them.
func newVoice(samples []string) *voice {
	v := &voice{lex: embed.FitLexical(samples), samples: samples, an: make([]*analysis, len(samples))}
	all := make([]analysis, len(samples))
	for i, s := range samples {
		all[i] = v.analyse(s)
		v.an[i] = &all[i]
	}
	v.manner = v.mannerOf()
	return v
}

func (v *voice) analyse(s string) analysis {
	vec := v.lex.Sparse(s)
	return analysis{stats: statsOf(s, false), vec: vec, norm2: vec.Norm2()}
}

func (v *voice) mannerOf() Manner {
	return mannerFrom(len(v.an), func(i int) *sampleStats { return &v.an[i].stats }, false)
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
	w := &voice{lex: v.lex, samples: make([]string, 0, n), an: make([]*analysis, 0, n)}
	for k := len(keep) - 1; k >= 0; k-- {
		i := keep[k]
		w.samples = append(w.samples, all[i])
		if i >= from {
			w.an = append(w.an, v.an[i-from])
		} else {
			a := w.analyse(all[i])
			w.an = append(w.an, &a)
		}
	}
	for _, t := range extra {
		a := w.analyse(t)
		w.samples = append(w.samples, t)
		w.an = append(w.an, &a)
	}
	w.manner = w.mannerOf()
	return w
}
