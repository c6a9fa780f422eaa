package offline

import (
	"slices"
	"strings"
	"testing"

	"github.com/duetbot/duet/shared/embed"
)

// TestOneStopwordListOneTokeniser: the offline brain reads words as the
// rest of Duet does — every stopword of embed's shared list is a stopword
// here, and tokens are embed.Words with only contractions expanded.
func TestOneStopwordListOneTokeniser(t *testing.T) {
	shared := embed.Stopwords()
	if len(shared) < 100 || !slices.IsSorted(shared) {
		t.Fatalf("embed.Stopwords: %d words, sorted %v; want the sorted list", len(shared), slices.IsSorted(shared))
	}
	for _, w := range shared {
		if !stopwords.has(w) || !embed.IsStopword(w) {
			t.Errorf("%q: offline stopword %v, embed.IsStopword %v; want both", w, stopwords.has(w), embed.IsStopword(w))
		}
	}
	for _, tc := range []struct{ in, want string }{
		{"Ada’s cat, it's 3 o'clock!", "ada's cat it is 3 o'clock"},
		{"‘Quoted’ and ʼtickedʼ words''", "quoted and ticked words"},
		{"I can't say", "i can not say"},
	} {
		got := tokens(tc.in)
		if s := strings.Join(got, " "); s != tc.want {
			t.Errorf("tokens(%q) = %q, want %q", tc.in, s, tc.want)
		}
	}
	plain := "Postgres upgrades need a replica, then a switchover"
	if a, b := tokens(plain), embed.Words(plain); !slices.Equal(a, b) {
		t.Errorf("tokens(%q) = %q, embed.Words = %q: want the same words", plain, a, b)
	}
}
