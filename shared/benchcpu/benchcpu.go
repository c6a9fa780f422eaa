// Package benchcpu reports the CPU time a benchmark's operation costs, as
// the metric cpu-ns/op. Unlike ns/op it holds on a machine whose other work
// takes CPUs away, and under RunParallel it is the cost of one operation,
// not the wall time of one divided by the goroutines. It counts the whole
// process, the GC's share included.
package benchcpu

import "time"

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

// Reporter is the part of a *testing.B that Report uses, so that this
// package needs no testing import outside tests.
type Reporter interface {
	ReportMetric(n float64, unit string)
}

// Report reports the CPU time per operation of the n operations since m as
// cpu-ns/op. Where the platform cannot tell the process's CPU time it
// reports nothing.
func (m Meter) Report(b Reporter, n int) {
	if t, ok := cpuTime(); ok && m.ok && n > 0 {
		b.ReportMetric(float64(t-m.start)/float64(n), "cpu-ns/op")
	}
}
