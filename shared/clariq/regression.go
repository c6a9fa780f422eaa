package clariq

import (
	"errors"
	"math"
	"slices"
)

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
