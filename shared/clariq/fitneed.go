package clariq

import (
	"fmt"
	"io"
	"math"
)

// fitNeed fits the need classifier on the training topics. The
// candidates, softmax and ordinal models at several regularisations on
// standardised features, are judged by the mean of two weighted F1s: a
// 5-fold cross-validation on the training topics (two fold assignments)
// and the dev topics. Fifty dev topics alone would pick noise, as one topic
// is two points of F1.
func fitNeed(r *Ranker, train, dev []Topic, progress io.Writer) (NeedParams, NeedScore, float64) {
	buf := r.pool.Get().(*rankBuf)
	defer r.pool.Put(buf)
	feats := func(ts []Topic) ([][numNeedFeatures]float64, []int) {
		var x [][numNeedFeatures]float64
		var y []int
		for _, tp := range ts {
			x = append(x, r.needFeatures(tp.Request, buf))
			y = append(y, tp.Need-1)
		}
		return x, y
	}
	xt, yt := feats(train)
	xd, _ := feats(dev)
	type candidate struct {
		name string
		fit  func(x [][numNeedFeatures]float64, y []int, topics []Topic) NeedParams
	}
	var cands []candidate
	for _, l2 := range []float64{1, 3, 10, 30} {
		cands = append(cands, candidate{fmt.Sprintf("ordinal l2=%g", l2), func(x [][numNeedFeatures]float64, y []int, topics []Topic) NeedParams {
			xs, mean, sd := standardize(x)
			return unscale(ordinal(xs, y, l2, topics), mean, sd)
		}})
	}
	for _, l2 := range []float64{3, 10, 30} {
		for _, balance := range []float64{0, 0.5} {
			cands = append(cands, candidate{fmt.Sprintf("softmax l2=%g balance=%g", l2, balance), func(x [][numNeedFeatures]float64, y []int, _ []Topic) NeedParams {
				xs, mean, sd := standardize(x)
				return unscale(softmax(xs, y, l2, balance), mean, sd)
			}})
		}
	}
	var best NeedParams
	var bestScore NeedScore
	var bestCV float64
	bestMean := -1.0
	for _, c := range cands {
		cv := needCV(c.fit, xt, yt, train)
		p := c.fit(xt, yt, train)
		pred := map[string]int{}
		for i, tp := range dev {
			pred[tp.ID] = p.predict(xd[i])
		}
		s := NeedMetrics(dev, pred)
		fmt.Fprintf(progress, "need %s: train-CV F1 %.4f, dev F1 %.4f\n", c.name, cv, s.F1)
		if m := (cv + s.F1) / 2; m > bestMean+1e-9 {
			best, bestScore, bestCV, bestMean = p, s, cv, m
		}
	}
	return best, bestScore, bestCV
}

// needCV is the weighted F1 of fit over the training topics by 5-fold
// cross-validation, averaged over two fold assignments.
func needCV(fit func([][numNeedFeatures]float64, []int, []Topic) NeedParams, x [][numNeedFeatures]float64, y []int, topics []Topic) float64 {
	const folds, reps = 5, 2
	var f1 float64
	for rep := range reps {
		fold := func(i int) int { return (i*7 + rep*3) % folds }
		pred := map[string]int{}
		for f := range folds {
			var xi [][numNeedFeatures]float64
			var yi []int
			var ti []Topic
			for i := range topics {
				if fold(i) != f {
					xi, yi, ti = append(xi, x[i]), append(yi, y[i]), append(ti, topics[i])
				}
			}
			p := fit(xi, yi, ti)
			for i := range topics {
				if fold(i) == f {
					pred[topics[i].ID] = p.predict(x[i])
				}
			}
		}
		f1 += NeedMetrics(topics, pred).F1 / reps
	}
	return f1
}

// ordinal fits a ridge regression of the level on the features, then
// chooses the three cut points that give the best weighted F1 on the
// training topics.
func ordinal(x [][numNeedFeatures]float64, y []int, l2 float64, topics []Topic) NeedParams {
	flat := make([]float64, 0, len(x)*numNeedFeatures)
	target := make([]float64, len(y))
	for i, f := range x {
		flat = append(flat, f[:]...)
		target[i] = float64(y[i] + 1)
	}
	w := ridge(flat, target, numNeedFeatures, l2)
	var p NeedParams
	p.Weights[0] = map[string]float64{}
	for j, name := range needFeatureNames {
		p.Weights[0][name] = round(w[j])
	}
	p.Bias[0] = round(w[numNeedFeatures])
	for c := 1; c < 4; c++ {
		p.Weights[c] = map[string]float64{}
	}
	z := make([]float64, len(x))
	for i, f := range x {
		z[i] = p.Bias[0]
		for j, name := range needFeatureNames {
			z[i] += p.Weights[0][name] * f[j]
		}
	}
	grid := make([]float64, 0, 41)
	for v := 1.0; v <= 4.0001; v += 0.075 {
		grid = append(grid, round(v))
	}
	bestF1 := -1.0
	for a := 0; a < len(grid); a++ {
		for b := a + 1; b < len(grid); b++ {
			for c := b + 1; c < len(grid); c++ {
				cuts := []float64{grid[a], grid[b], grid[c]}
				pred := map[string]int{}
				for i, tp := range topics {
					level := 1
					for _, cut := range cuts {
						if z[i] > cut {
							level++
						}
					}
					pred[tp.ID] = level
				}
				if s := NeedMetrics(topics, pred); s.F1 > bestF1+1e-9 {
					bestF1, p.Cuts = s.F1, cuts
				}
			}
		}
	}
	return p
}

// softmax fits a four-class softmax regression by gradient descent; with
// balance b each class's examples weigh (n/count)^b.
func softmax(x [][numNeedFeatures]float64, y []int, l2, balance float64) NeedParams {
	var cnt [4]float64
	for _, c := range y {
		cnt[c]++
	}
	var cw [4]float64
	for c := range cw {
		cw[c] = math.Pow(float64(len(y))/(4*max(cnt[c], 1)), balance)
	}
	var w [4][numNeedFeatures]float64
	var bias [4]float64
	lr := 0.5
	for range 3000 {
		var gw [4][numNeedFeatures]float64
		var gb [4]float64
		for i, f := range x {
			var z [4]float64
			m := math.Inf(-1)
			for c := range 4 {
				z[c] = bias[c]
				for j, v := range f {
					z[c] += w[c][j] * v
				}
				m = max(m, z[c])
			}
			var sum float64
			for c := range z {
				z[c] = math.Exp(z[c] - m)
				sum += z[c]
			}
			for c := range 4 {
				g := z[c] / sum
				if c == y[i] {
					g--
				}
				g *= cw[y[i]]
				gb[c] += g
				for j, v := range f {
					gw[c][j] += g * v
				}
			}
		}
		n := float64(len(x))
		for c := range 4 {
			bias[c] -= lr * gb[c] / n
			for j := range w[c] {
				w[c][j] -= lr * (gw[c][j]/n + l2*w[c][j]/n)
			}
		}
	}
	var p NeedParams
	for c := range 4 {
		p.Weights[c] = map[string]float64{}
		for j, name := range needFeatureNames {
			p.Weights[c][name] = round(w[c][j])
		}
		p.Bias[c] = round(bias[c])
	}
	return p
}

// standardize centres and scales each feature to unit variance over x, so
// one regularisation strength suits features of any range; it returns the
// scaled rows with the means and deviations to fold back.
func standardize(x [][numNeedFeatures]float64) (xs [][numNeedFeatures]float64, mean, sd [numNeedFeatures]float64) {
	n := float64(len(x))
	for _, f := range x {
		for j, v := range f {
			mean[j] += v / n
		}
	}
	for _, f := range x {
		for j, v := range f {
			sd[j] += (v - mean[j]) * (v - mean[j]) / n
		}
	}
	for j := range sd {
		sd[j] = math.Sqrt(sd[j])
		if sd[j] < 1e-9 {
			sd[j] = 1
		}
	}
	xs = make([][numNeedFeatures]float64, len(x))
	for i, f := range x {
		for j, v := range f {
			xs[i][j] = (v - mean[j]) / sd[j]
		}
	}
	return xs, mean, sd
}

// unscale folds standardize's means and deviations into p's weights and
// biases, so p reads raw features.
func unscale(p NeedParams, mean, sd [numNeedFeatures]float64) NeedParams {
	for c := range p.Weights {
		if len(p.Weights[c]) == 0 {
			continue
		}
		w := map[string]float64{}
		b := p.Bias[c]
		for j, name := range needFeatureNames {
			w[name] = round(p.Weights[c][name] / sd[j])
			b -= p.Weights[c][name] * mean[j] / sd[j]
		}
		p.Weights[c], p.Bias[c] = w, round(b)
	}
	return p
}
