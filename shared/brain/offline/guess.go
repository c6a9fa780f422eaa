package offline

import (
	"strings"

	"github.com/duetbot/duet/shared/brain"
)

// guessProfile returns the index of the candidate profile the partner's
// messages in turns match best, or -1 when there are no candidates. A
// content word the partner used counts for every candidate that has it,
// weighted by how few candidates do (a word every candidate shares tells
// nothing); partners of ConvAI2 state their profile's facts, in part in
// its own words, so the overlap of stems is the signal. Ties go to the
// earlier candidate.
func guessProfile(turns []brain.Turn, profiles [][]string, texts *textCache) int {
	if len(profiles) == 0 {
		return -1
	}
	cands := make([]set, len(profiles))
	df := map[string]int{}
	for k, p := range profiles {
		cands[k] = set{}
		for _, w := range analyze(strings.Join(p, "\n")).words {
			if w.content && !cands[k].has(w.stem) {
				cands[k].add(w.stem)
				df[w.stem]++
			}
		}
	}
	// A word the partner only echoes from the bot's last message says
	// little about the partner: it counts a third.
	used := map[string]float64{}
	var last *text
	for _, t := range turns {
		if t.Role != brain.Partner {
			last = texts.get(t.Text)
			continue
		}
		for _, w := range texts.get(t.Text).words {
			if !w.content {
				continue
			}
			weight := 1.0
			if last != nil && last.stems.has(w.stem) {
				weight = 1.0 / 3
			}
			used[w.stem] = max(used[w.stem], weight)
		}
	}
	best, bestScore := 0, -1.0
	for k, c := range cands {
		score := 0.0
		for st, weight := range used {
			if c.has(st) {
				score += weight / float64(df[st])
			}
		}
		// Longer profiles match more by chance: normalise gently.
		score /= 1 + 0.05*float64(len(c))
		if score > bestScore {
			best, bestScore = k, score
		}
	}
	return best
}
