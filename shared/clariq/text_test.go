package clariq

import (
	"slices"
	"testing"
)

func TestTerms(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		// Apostrophes are taken out, straight or curly, so a possessive
		// stems to its noun.
		{"Tell me about Obama's children", []string{"obama", "children"}},
		{"I’m looking for hummingbirds’ nests", []string{"hummingbird", "nest"}},
		// The request's phrasing and the shared function words go.
		{"I would like to know more about raspberry pi, please", []string{"raspberry", "pi"}},
		{"Are you looking for a specific web site?", []string{"specific", "web", "site"}},
		{"ok, also the dinosaurs", []string{"dinosaur"}},
		{"", nil},
	} {
		if got := terms(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("terms(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
