package offline

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/duetbot/duet/shared/brain"
)

// JudgeSample is one labelled request for FitJudge.
type JudgeSample struct {
	// Req is the request the evaluator saw: for a message, the one Rate
	// got (its last turn is the partner's message); for a dialogue, the
	// one Final got.
	Req brain.Request
	// Label is, for a message, how good it is in 0..1; for a dialogue, its
	// 1..5 score.
	Label float64
	// Weight of the sample (0 counts as 1).
	Weight float64
}

// FitOptions tune FitJudge.
type FitOptions struct {
	L2       float64 // ridge penalty of the dense message weights
	HashL2   float64 // ridge penalty of the hashed word weights
	Epochs   int     // full passes of the message model's optimiser
	DialogL2 float64 // ridge penalty of the dialogue weights
}

// DefaultFitOptions are the settings `duet rate fit` uses, chosen on the
// ConvAI2 dev set.
var DefaultFitOptions = FitOptions{L2: 0.1, HashL2: 1e-3, Epochs: 300, DialogL2: 1}

// FitJudge learns the evaluator from labelled messages and dialogues. It
// is deterministic: the same samples give the same model.
func FitJudge(messages, dialogues []JudgeSample, o FitOptions) (*JudgeModel, error) {
	if len(messages) == 0 || len(dialogues) == 0 {
		return nil, errors.New("fit: no labelled messages or dialogues")
	}
	b := New()
	vs := make([]msgVector, len(messages))
	ys := make([]float64, len(messages))
	ws := make([]float64, len(messages))
	for k, s := range messages {
		d := b.dialogue(s.Req)
		i := lastPartner(s.Req.Turns)
		if i < 0 {
			return nil, fmt.Errorf("fit: message sample %d has no partner turn", k)
		}
		vs[k] = d.vector(i).withHashes()
		ys[k] = min(1, max(0, s.Label))
		ws[k] = s.Weight
		if ws[k] == 0 {
			ws[k] = 1
		}
	}
	m := &JudgeModel{
		MessageFeatures:  slices.Clone(messageFeatures),
		DialogueFeatures: slices.Clone(dialogueFeatures),
		Message:          make([]float64, len(messageFeatures)),
		Hashed:           make([]float64, 1<<hashBits),
	}
	fitLogistic(m, vs, ys, ws, o)
	roundAll(m.Message)
	roundAll(m.Hashed)

	logits := make([]float64, len(vs))
	for k := range vs {
		logits[k] = m.logit(&vs[k])
	}
	m.RatingCuts = quantiles(logits, 9)

	b.judge = m
	xs := make([][]float64, len(dialogues))
	dy := make([]float64, len(dialogues))
	dw := make([]float64, len(dialogues))
	for k, s := range dialogues {
		d := b.dialogue(s.Req)
		j := b.judgeAll(&d)
		xs[k] = d.dialogueVector(j.logits, j.vs)
		dy[k] = s.Label
		dw[k] = s.Weight
		if dw[k] == 0 {
			dw[k] = 1
		}
	}
	w, err := ridge(xs, dy, dw, o.DialogL2)
	if err != nil {
		return nil, fmt.Errorf("fit dialogue model: %w", err)
	}
	roundAll(w)
	m.Dialogue = w
	values := make([]float64, len(xs))
	for k, x := range xs {
		for i, wi := range w {
			values[k] += wi * x[i]
		}
	}
	m.ScoreCuts = labelCuts(values, dy)
	return m, nil
}

// fitLogistic fits the message weights of m by full-batch Adam on the
// weighted cross-entropy with soft labels ys.
func fitLogistic(m *JudgeModel, vs []msgVector, ys, ws []float64, o FitOptions) {
	nd, nh := len(m.Message), len(m.Hashed)
	total := 0.0
	for _, w := range ws {
		total += w
	}
	const (
		rate   = 0.05
		beta1  = 0.9
		beta2  = 0.999
		epsAdm = 1e-8
	)
	gd, gh := make([]float64, nd), make([]float64, nh)
	md, vd := make([]float64, nd), make([]float64, nd)
	mh, vh := make([]float64, nh), make([]float64, nh)
	for epoch := 1; epoch <= max(o.Epochs, 1); epoch++ {
		clear(gd)
		clear(gh)
		for k := range vs {
			v := &vs[k]
			p := 1 / (1 + math.Exp(-m.logit(v)))
			g := (p - ys[k]) * ws[k] / total
			for i := range nd {
				gd[i] += g * v.dense[i]
			}
			if len(v.hashes) > 0 {
				scale := g / math.Sqrt(float64(len(v.hashes)))
				for _, h := range v.hashes {
					gh[h] += scale
				}
			}
		}
		for i := 1; i < nd; i++ { // the bias is not penalised
			gd[i] += o.L2 * m.Message[i]
		}
		for i := range nh {
			gh[i] += o.HashL2 * m.Hashed[i]
		}
		c1 := 1 - math.Pow(beta1, float64(epoch))
		c2 := 1 - math.Pow(beta2, float64(epoch))
		adam := func(w, g, mo, ve []float64) {
			for i := range w {
				mo[i] = beta1*mo[i] + (1-beta1)*g[i]
				ve[i] = beta2*ve[i] + (1-beta2)*g[i]*g[i]
				w[i] -= rate * (mo[i] / c1) / (math.Sqrt(ve[i]/c2) + epsAdm)
			}
		}
		adam(m.Message, gd, md, vd)
		adam(m.Hashed, gh, mh, vh)
	}
}

// ridge solves weighted least squares with an L2 penalty (the first
// weight, the bias, unpenalised) by the normal equations.
func ridge(xs [][]float64, ys, ws []float64, l2 float64) ([]float64, error) {
	n := len(xs[0])
	a := make([][]float64, n)
	for i := range a {
		a[i] = make([]float64, n+1)
	}
	for k, x := range xs {
		for i := range n {
			for j := range n {
				a[i][j] += ws[k] * x[i] * x[j]
			}
			a[i][n] += ws[k] * x[i] * ys[k]
		}
	}
	for i := 1; i < n; i++ {
		a[i][i] += l2
	}
	// Gaussian elimination with partial pivoting.
	for c := range n {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		if math.Abs(a[p][c]) < 1e-12 {
			return nil, fmt.Errorf("feature %q is constant or collinear", dialogueFeatures[c])
		}
		a[c], a[p] = a[p], a[c]
		for r := range n {
			if r == c {
				continue
			}
			f := a[r][c] / a[c][c]
			for j := c; j <= n; j++ {
				a[r][j] -= f * a[c][j]
			}
		}
	}
	w := make([]float64, n)
	for i := range n {
		w[i] = a[i][n] / a[i][i]
	}
	return w, nil
}

// quantiles returns k increasing cut points splitting v into k+1 groups
// of equal size.
func quantiles(v []float64, k int) []float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	cuts := make([]float64, k)
	for i := range cuts {
		cuts[i] = s[min(len(s)-1, (i+1)*len(s)/(k+1))]
	}
	return cuts
}

// labelCuts are the cut points that give predicted scores the labels'
// distribution: as many predictions below cut c as labels below c+2.
func labelCuts(values, labels []float64) []float64 {
	s := slices.Clone(values)
	slices.Sort(s)
	cuts := make([]float64, 4)
	for c := range cuts {
		below := 0
		for _, l := range labels {
			if l < float64(c+2) {
				below++
			}
		}
		cuts[c] = s[min(len(s)-1, below)]
	}
	return cuts
}

// roundAll rounds weights to 5 significant decimals, which keeps the
// committed file small and changes no rating.
func roundAll(w []float64) {
	for i, x := range w {
		w[i] = math.Round(x*1e5) / 1e5
	}
}
