package offline

import (
	"strings"
	"testing"
)

// TestRegionsEnd checks that every place's chain of regions ends in a
// place in no region: placesIn follows it, and a town that is its own
// region ("singapore" in singapore) looped for ever on a profile naming
// it.
func TestRegionsEnd(t *testing.T) {
	for name := range regions {
		seen := set{}
		for n := name; n != ""; n = regions[n] {
			if seen.has(n) {
				t.Errorf("%q: its regions come back to %q", name, n)
				break
			}
			seen.add(n)
		}
	}
	context := strings.Join([]string{"i do the books for a shipping firm in singapore.", "i grew up in kuwait city.",
		"my brother lives in luxembourg.", "i am afraid of dogs."}, "\n")
	for q, want := range map[string]int{"where did you grow up?": 1, "where does your brother live?": 2} {
		if got := reply(t, chat(t, context, q)); answeredLine(context, got) != want {
			t.Errorf("%q: %q, want it answered by line %d", q, got, want)
		}
	}
}
