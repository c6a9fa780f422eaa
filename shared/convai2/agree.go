package convai2

import (
	"math"
	"sort"
)

// Spearman is the rank correlation of x and y (ties get their average
// rank), NaN when there are fewer than two pairs or either side is
// constant.
func Spearman(x, y []float64) float64 {
	if len(x) != len(y) || len(x) < 2 {
		return math.NaN()
	}
	return pearson(ranks(x), ranks(y))
}

// AUC is the ROC AUC of scores against binary labels (true: positive):
// the chance that a random positive scores above a random negative, ties
// counting half. NaN without both classes.
func AUC(scores []float64, positive []bool) float64 {
	if len(scores) != len(positive) {
		return math.NaN()
	}
	r := ranks(scores)
	var pos, neg, sum float64
	for i, p := range positive {
		if p {
			pos++
			sum += r[i]
		} else {
			neg++
		}
	}
	if pos == 0 || neg == 0 {
		return math.NaN()
	}
	return (sum - pos*(pos+1)/2) / (pos * neg)
}

// ranks are 1-based ranks of v, ties averaged.
func ranks(v []float64) []float64 {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return v[idx[a]] < v[idx[b]] })
	r := make([]float64, len(v))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && v[idx[j+1]] == v[idx[i]] {
			j++
		}
		avg := float64(i+j)/2 + 1
		for k := i; k <= j; k++ {
			r[idx[k]] = avg
		}
		i = j + 1
	}
	return r
}

func pearson(x, y []float64) float64 {
	n := float64(len(x))
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx /= n
	my /= n
	var sxy, sxx, syy float64
	for i := range x {
		dx, dy := x[i]-mx, y[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return math.NaN()
	}
	return sxy / math.Sqrt(sxx*syy)
}
