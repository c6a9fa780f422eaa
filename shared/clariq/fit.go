package clariq

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
)

// FitOptions steer Fit. The zero value searches the default grid.
type FitOptions struct {
	// Progress, when set, receives one line per grid point.
	Progress io.Writer
	// Folds is the cross-fitting of the association table: each training
	// topic's features use a table learned from the other folds, so the
	// model does not learn to trust a table that has seen its answers.
	Folds int
}

// FitReport is what Fit measured on the dev topics with the chosen model.
type FitReport struct {
	Dev Recall
	// TrainCV is the chosen ranker's recall on the training topics by
	// cross-validation: each fold ranked by a model fitted on the others.
	TrainCV Recall
	Need    NeedScore
	// NeedCV is the chosen need classifier's weighted F1 on the training
	// topics by cross-validation.
	NeedCV float64
}

// Fit learns a Model from the training topics and tunes its
// hyperparameters on the dev topics. It is deterministic: the same files
// give the same model.
func Fit(bank []Question, train, dev []Topic, opt FitOptions) (*Model, FitReport, error) {
	if len(train) == 0 || len(dev) == 0 {
		return nil, FitReport{}, errors.New("fit: want training and dev topics")
	}
	if opt.Folds < 2 {
		opt.Folds = 5
	}
	progress := opt.Progress
	if progress == nil {
		progress = io.Discard
	}
	ix := NewIndex(bank)
	type point struct {
		k1, b       float64
		docs, terms int
		minCount    int
	}
	var grid []point
	for _, k1 := range []float64{0.8, 1.5} {
		for _, b := range []float64{0.3, 0.75} {
			for _, pd := range [][2]int{{0, 0}, {5, 10}, {10, 20}} {
				for _, mc := range []int{2, 3} {
					grid = append(grid, point{k1, b, pd[0], pd[1], mc})
				}
			}
		}
	}
	var best *Model
	var bestRep FitReport
	var bestPoint point
	bestScore := -1.0
	for _, g := range grid {
		p := Params{K1: g.k1, B: g.b, PRFDocs: g.docs, PRFTerms: g.terms}
		m, err := fitRanker(ix, p, train, opt.Folds, g.minCount)
		if err != nil {
			return nil, FitReport{}, err
		}
		rec := evalRanker(NewRankerIndex(ix, m), dev)
		fmt.Fprintf(progress, "k1=%.1f b=%.2f prf=%d/%d assoc>=%d: dev R@10 %.4f R@30 %.4f\n", g.k1, g.b, g.docs, g.terms, g.minCount, rec.At10, rec.At30)
		if s := rec.At30 + rec.At10; s > bestScore+1e-9 {
			bestScore, best, bestRep.Dev, bestPoint = s, m, rec, g
		}
	}
	cv, err := cvRanker(ix, best.Rank, train, opt.Folds, bestPoint.minCount)
	if err != nil {
		return nil, FitReport{}, err
	}
	bestRep.TrainCV = cv
	fmt.Fprintf(progress, "chosen ranker: train-CV R@10 %.4f R@30 %.4f\n", cv.At10, cv.At30)
	need, ns, nsCV := fitNeed(NewRankerIndex(ix, best), train, dev, progress)
	best.Need = need
	bestRep.Need, bestRep.NeedCV = ns, nsCV
	return best, bestRep, nil
}

// NewRankerIndex is NewRanker over an already built index.
func NewRankerIndex(ix *Index, model *Model) *Ranker {
	r := &Ranker{ix: ix, model: model, w: model.Rank.weightVector()}
	r.pool.New = func() any {
		return &rankBuf{s: ix.newScratch(), feat: make([]float64, ix.Len()*numFeatures), score: make([]float64, ix.Len())}
	}
	return r
}

// cvRanker measures hyperparameters p on the training topics by
// cross-validation: each fold is ranked by a ranker fitted (weights and
// association table) on the other folds alone.
func cvRanker(ix *Index, p Params, train []Topic, folds, minCount int) (Recall, error) {
	var run []RunLine
	for f := range folds {
		in, out := fold(train, folds, f)
		p.Assoc, p.Weights, p.Bias = nil, nil, 0
		m, err := fitRanker(ix, p, in, folds, minCount)
		if err != nil {
			return Recall{}, fmt.Errorf("cross-validate ranker: %w", err)
		}
		r := NewRankerIndex(ix, m)
		for _, tp := range out {
			for i, s := range r.Rank(tp.Request, 30, nil) {
				run = append(run, RunLine{TopicID: tp.ID, QuestionID: s.ID, Rank: i + 1, Score: float64(30 - i)})
			}
		}
	}
	return QuestionRecall(train, run), nil
}

// evalRanker ranks the bank for each topic and scores the top 30.
func evalRanker(r *Ranker, topics []Topic) Recall {
	var run []RunLine
	for _, tp := range topics {
		for i, s := range r.Rank(tp.Request, 30, nil) {
			run = append(run, RunLine{TopicID: tp.ID, QuestionID: s.ID, Rank: i + 1, Score: float64(30 - i)})
		}
	}
	return QuestionRecall(topics, run)
}

// buildAssoc learns which question terms the relevant questions use for
// each request term: the share of topics whose request has the term r and
// whose relevant questions have w. Pairs seen in fewer than minCount topics
// are dropped, which drops everything tied to one topic's names and keeps
// what carries over ("county" → "map", "recipe" → "ingredient").
func buildAssoc(ix *Index, topics []Topic, minCount int) map[string]map[string]float64 {
	nr := map[string]int{}
	nrw := map[string]map[string]int{}
	for _, tp := range topics {
		rt := uniq(terms(tp.Request))
		qw := map[string]bool{}
		for _, id := range tp.Questions {
			if d, ok := ix.Lookup(id); ok {
				for _, t := range terms(ix.bank[d].Text) {
					qw[t] = true
				}
			}
		}
		for _, r := range rt {
			nr[r]++
			if nrw[r] == nil {
				nrw[r] = map[string]int{}
			}
			for w := range qw {
				nrw[r][w]++
			}
		}
	}
	out := map[string]map[string]float64{}
	for r, ws := range nrw {
		for w, n := range ws {
			if n < minCount {
				continue
			}
			if out[r] == nil {
				out[r] = map[string]float64{}
			}
			out[r][w] = math.Round(float64(n)/float64(nr[r]+1)*1e4) / 1e4
		}
	}
	return out
}

// fitRanker fits the logistic ranker's weights on the training topics.
func fitRanker(ix *Index, p Params, train []Topic, folds, minCount int) (*Model, error) {
	n := ix.Len()
	var x []float64
	var y []float64
	s := ix.newScratch()
	feat := make([]float64, n*numFeatures)
	for f := range folds {
		in, out := fold(train, folds, f)
		pf := p
		pf.Assoc = buildAssoc(ix, in, minCount)
		for _, tp := range out {
			rel := make([]bool, n)
			for _, id := range tp.Questions {
				if d, ok := ix.Lookup(id); ok {
					rel[d] = true
				}
			}
			ix.features(&pf, terms(tp.Request), s, feat)
			x = append(x, feat...)
			for d := range n {
				y = append(y, b2f(rel[d]))
			}
		}
	}
	w, err := logistic(x, y, numFeatures, 1.0)
	if err != nil {
		return nil, fmt.Errorf("fit ranker: %w", err)
	}
	p.Assoc = buildAssoc(ix, train, minCount)
	p.Weights = map[string]float64{}
	for i, name := range featureNames {
		p.Weights[name] = round(w[i])
	}
	p.Bias = round(w[numFeatures])
	return &Model{Rank: p}, nil
}

func round(x float64) float64 { return math.Round(x*1e6) / 1e6 }

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// logistic fits an L2-regularised logistic regression by Newton's method;
// x is row-major with k features per row, and the last weight returned is
// the bias.
func logistic(x, y []float64, k int, l2 float64) ([]float64, error) {
	m := len(y)
	d := k + 1
	w := make([]float64, d)
	row := make([]float64, d)
	for iter := 0; iter < 25; iter++ {
		g := make([]float64, d)
		h := make([]float64, d*d)
		for i := range m {
			copy(row, x[i*k:(i+1)*k])
			row[k] = 1
			z := 0.0
			for j, v := range row {
				z += w[j] * v
			}
			pr := 1 / (1 + math.Exp(-z))
			r := pr - y[i]
			c := pr * (1 - pr)
			for a, va := range row {
				if va == 0 {
					continue
				}
				g[a] += r * va
				for b := a; b < d; b++ {
					h[a*d+b] += c * va * row[b]
				}
			}
		}
		for a := range d {
			for b := 0; b < a; b++ {
				h[a*d+b] = h[b*d+a]
			}
			if a < k {
				g[a] += l2 * w[a]
				h[a*d+a] += l2
			}
			h[a*d+a] += 1e-9
		}
		step, err := solve(h, g, d)
		if err != nil {
			return nil, err
		}
		var norm float64
		for j := range w {
			w[j] -= step[j]
			norm += step[j] * step[j]
		}
		if norm < 1e-14 {
			break
		}
	}
	return w, nil
}

// solve solves a·x = b for a d×d matrix by Gaussian elimination with
// partial pivoting.
func solve(a, b []float64, d int) ([]float64, error) {
	a = slices.Clone(a)
	b = slices.Clone(b)
	for c := range d {
		p := c
		for r := c + 1; r < d; r++ {
			if math.Abs(a[r*d+c]) > math.Abs(a[p*d+c]) {
				p = r
			}
		}
		if math.Abs(a[p*d+c]) < 1e-12 {
			return nil, errors.New("singular system")
		}
		if p != c {
			for j := range d {
				a[c*d+j], a[p*d+j] = a[p*d+j], a[c*d+j]
			}
			b[c], b[p] = b[p], b[c]
		}
		for r := c + 1; r < d; r++ {
			f := a[r*d+c] / a[c*d+c]
			for j := c; j < d; j++ {
				a[r*d+j] -= f * a[c*d+j]
			}
			b[r] -= f * b[c]
		}
	}
	x := make([]float64, d)
	for r := d - 1; r >= 0; r-- {
		s := b[r]
		for j := r + 1; j < d; j++ {
			s -= a[r*d+j] * x[j]
		}
		x[r] = s / a[r*d+r]
	}
	return x, nil
}

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

// ridge solves an L2-regularised least-squares fit; the last weight is
// the bias.
func ridge(x, y []float64, k int, l2 float64) []float64 {
	d := k + 1
	a := make([]float64, d*d)
	b := make([]float64, d)
	row := make([]float64, d)
	for i := range y {
		copy(row, x[i*k:(i+1)*k])
		row[k] = 1
		for p, vp := range row {
			b[p] += vp * y[i]
			for q, vq := range row {
				a[p*d+q] += vp * vq
			}
		}
	}
	for p := range k {
		a[p*d+p] += l2
	}
	a[k*d+k] += 1e-9
	w, err := solve(a, b, d)
	if err != nil {
		return make([]float64, d)
	}
	return w
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

// fold splits topics for cross-validation: fold f of n holds out every
// nth topic from the fth on.
func fold(topics []Topic, n, f int) (in, out []Topic) {
	for i, tp := range topics {
		if i%n == f {
			out = append(out, tp)
		} else {
			in = append(in, tp)
		}
	}
	return in, out
}
