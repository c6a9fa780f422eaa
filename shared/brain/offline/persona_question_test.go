package offline

import "testing"

// TestAsksUnmarked checks the questions chat partners type without a
// question mark, and the remarks that are none.
func TestAsksUnmarked(t *testing.T) {
	for _, c := range []struct {
		msg  string
		asks bool
	}{
		{"u got siblings", true}, {"u have kids", true}, {"u single", true}, {"u in school", true},
		{"wanna grab a beer sometime", true}, {"ever broken a bone", true}, {"play any sports", true},
		{"coffee or tea", true}, {"dog or cat person", true}, {"so ur a good swimmer huh", true},
		{"hii wat do u do", true}, {"where u from", true},
		{"you too", false}, {"u have", false}, {"you know what i mean", false}, {"me or my wife", false},
		{"i like coffee or tea", false}, {"that is cool or not", false}, {"lol u got me", false}, {"wanna", false},
	} {
		if got := asksUnmarked(analyze(c.msg)); got != c.asks {
			t.Errorf("asksUnmarked(%q) = %v, want %v", c.msg, got, c.asks)
		}
	}
}
