package clariq

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestUnscale checks that folding the standardisation back into a need
// model leaves its decisions unchanged: the model on raw features predicts
// what the fitted model predicts on standardised ones.
func TestUnscale(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	x := make([][numNeedFeatures]float64, 120)
	y := make([]int, len(x))
	topics := make([]Topic, len(x))
	for i := range x {
		for j := range x[i] {
			x[i][j] = rng.NormFloat64()*float64(j+1) + float64(3*j)
		}
		x[i][3] = 5 // a constant feature must not divide by zero
		z := x[i][0] - x[i][1]/2 + rng.NormFloat64()
		y[i] = min(3, max(0, int(z/2+2)))
		topics[i] = Topic{ID: string(rune('A' + i)), Need: y[i] + 1}
	}
	xs, mean, sd := standardize(x)
	for name, fit := range map[string]func() NeedParams{
		"ordinal": func() NeedParams { return ordinal(xs, y, 1, topics) },
		"softmax": func() NeedParams { return softmax(xs, y, 1, 0.5) },
	} {
		t.Run(name, func(t *testing.T) {
			scaled := fit()
			raw := unscale(scaled, mean, sd)
			differ := 0
			for i := range x {
				if got, want := raw.predict(x[i]), scaled.predict(xs[i]); got != want {
					differ++
				}
			}
			// Rounding the weights to 1e-6 may move a topic sitting on a boundary.
			if differ > 1 {
				t.Errorf("raw-feature model differs from the standardised one on %d of %d topics", differ, len(x))
			}
		})
	}
	for j := range mean {
		var m float64
		for i := range xs {
			m += xs[i][j] / float64(len(xs))
		}
		if math.Abs(m) > 1e-9 {
			t.Errorf("feature %d: standardised mean %v, want 0", j, m)
		}
	}
}
