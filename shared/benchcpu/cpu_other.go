//go:build !unix

package benchcpu

import "time"

// cpuTime is unknown here: the benchmarks report no cpu-ns/op.
func cpuTime() (time.Duration, bool) { return 0, false }
