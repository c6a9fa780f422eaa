package metrics

import (
	"slices"
	"strings"
	"sync"
)

// Tally is a Recorder that keeps, in memory, the sum of each metric by its
// dimensions. Tests read it; it is safe for concurrent use.
type Tally struct {
	mu   sync.Mutex
	sums map[string]float64
}

var _ Recorder = (*Tally)(nil)

// Record adds value to the sum of name with dims.
func (t *Tally) Record(name Name, value float64, dims ...Dimension) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.sums == nil {
		t.sums = map[string]float64{}
	}
	t.sums[key(name, dims)] += value
}

// Sum returns the sum recorded for name with exactly dims (in any order).
func (t *Tally) Sum(name Name, dims ...Dimension) float64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.sums[key(name, dims)]
}

// Total returns the sum recorded for name, whatever its dimensions.
func (t *Tally) Total(name Name) float64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	var sum float64
	for k, v := range t.sums {
		if k == string(name) || strings.HasPrefix(k, string(name)+"|") {
			sum += v
		}
	}
	return sum
}

func key(name Name, dims []Dimension) string {
	parts := make([]string, 0, len(dims))
	for _, d := range dims {
		parts = append(parts, d.Key+"="+d.Value)
	}
	slices.Sort(parts)
	return strings.Join(append([]string{string(name)}, parts...), "|")
}
