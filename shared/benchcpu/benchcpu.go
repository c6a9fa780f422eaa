// Package benchcpu reports the CPU time a benchmark's operation costs, as
// the metric cpu-ns/op. Unlike ns/op it holds on a machine whose other work
// takes CPUs away, and under RunParallel it is the cost of one operation,
// not the wall time of one divided by the goroutines. It counts the whole
// process, the GC's share included.
package benchcpu

import (
	"testing"
	"time"
)

// Meter is the process's CPU time when a benchmark's loop started.
type Meter struct {
	start time.Duration
	ok    bool
}

// Start reads the process's CPU time; call it right before the loop (after
// b.ResetTimer).
func Start() Meter {
	t, ok := cpuTime()
	return Meter{t, ok}
}

// Report reports the CPU time per operation since m as cpu-ns/op. Where
// the platform cannot tell the process's CPU time it reports nothing.
func (m Meter) Report(b *testing.B) {
	if t, ok := cpuTime(); ok && m.ok && b.N > 0 {
		b.ReportMetric(float64(t-m.start)/float64(b.N), "cpu-ns/op")
	}
}
