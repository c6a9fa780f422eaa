package embed

// EchoOverlap is the share of words from which a reply counts as a
// near-echo of the message it answers (see Echoes).
const EchoOverlap = 0.8

// Echoes reports whether reply merely repeats message: the same words, the
// whole message inside the reply, or at least EchoOverlap of their distinct
// words shared (counted against the larger of the two, so that a long reply
// that happens to use the message's few words is no echo). A message of one
// or two words counts as contained only in a reply at most two words longer:
// "ok" is not echoed by "ok, ship it on Monday then".
func Echoes(reply, message string) bool {
	rw, mw := Words(reply), Words(message)
	if len(mw) == 0 || len(rw) == 0 {
		return len(mw) == 0 && len(rw) == 0
	}
	if containsRun(rw, mw) && (len(mw) >= 3 || len(rw) <= len(mw)+2) {
		return true
	}
	rs, ms := set(rw), set(mw)
	shared := 0
	for w := range ms {
		if rs[w] {
			shared++
		}
	}
	return float64(shared) >= EchoOverlap*float64(max(len(rs), len(ms)))
}

// containsRun reports whether needle occurs in hay as a contiguous run.
func containsRun(hay, needle []string) bool {
	for i := 0; i+len(needle) <= len(hay); i++ {
		match := true
		for j, w := range needle {
			if hay[i+j] != w {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}

func set(words []string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}
