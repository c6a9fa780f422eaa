package offline

import (
	"hash/fnv"
	"testing"
)

// TestHashIsFNV1a holds the evaluator's allocation-free hashing of word
// pairs to hash/fnv's FNV-1a of a, a zero byte and b: the fitted weights in
// judge_model.json are indexed by it, so a drift would silently scramble
// every rating.
func TestHashIsFNV1a(t *testing.T) {
	want := func(parts ...string) uint32 {
		h := fnv.New32a()
		for i, p := range parts {
			if i > 0 {
				h.Write([]byte{0})
			}
			h.Write([]byte(p))
		}
		return h.Sum32()
	}
	for _, tc := range [][2]string{{"", ""}, {"uni", "cat"}, {"cats", "dogs"}, {"héllo", "wörld"}, {"a\x00b", "c"}} {
		if got, w := hash2(tc[0], tc[1]), want(tc[0], tc[1]); got != w {
			t.Errorf("hash2(%q, %q) = %#x, want FNV-1a %#x", tc[0], tc[1], got, w)
		}
		start := fnvAdd(fnvAdd(fnvOffset, tc[0]), "^")
		if got, w := hashMore(start, tc[1]), want(tc[0]+"^", tc[1]); got != w {
			t.Errorf("hashMore(FNV-1a(%q), %q) = %#x, want %#x", tc[0]+"^", tc[1], got, w)
		}
	}
}
