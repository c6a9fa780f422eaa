package offline

import (
	"slices"
	"strings"
)

// When in the week or the year a question and a fact speak of: "what do
// you do on sundays?" is answered by what one does every weekend, not
// every morning.

// sameTimes reports that a question, of times q (timesOf), and a fact,
// of words fws, speak of the same time of the week or year, or either of
// none: "on sundays" and "every weekend" do, "on sundays" and "every
// morning" do not.
func sameTimes(q, fws []string) bool {
	if len(q) == 0 {
		return true
	}
	f := timesOf(fws)
	return len(f) == 0 || slices.ContainsFunc(q, func(t string) bool { return slices.Contains(f, t) })
}

// timesOf returns the times of the week or year words name, a weekend
// day as the weekend too.
func timesOf(ws []string) []string {
	var out []string
	for _, w := range ws {
		w = strings.TrimSuffix(w, "s")
		switch {
		case w == "saturday" || w == "sunday":
			out = append(out, w, "weekend")
		case w == "night" || w == "evening" || w == "tonight" || w == "bed" || w == "bedtime":
			out = append(out, "evening") // "at night" is in the evening
		case w == "autumn":
			out = append(out, "fall")
		case timeOfWeek(w) || timeOfWeek(w+"s"):
			out = append(out, w)
		}
	}
	return out
}
