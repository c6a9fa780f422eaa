package clariq

import (
	"errors"
	"fmt"
	"io"
	"math"
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

func round(x float64) float64 { return math.Round(x*1e6) / 1e6 }

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
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
