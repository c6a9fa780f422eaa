package offline

import (
	"math"
	"strings"

	"github.com/duetbot/duet/shared/brain"
)

// ProfileLexicon is the learned part of the profile guess: how telling a
// profile word is, and which words of a speaker go with which words of
// their profile (paraphrases: "horse" with "ride", "vet" with
// "veterinarian"). `duet rate fit` learns it from the ConvAI2 exports, in
// which each bot's profile and its messages are both known.
type ProfileLexicon struct {
	// IDF is the inverse document frequency of a stem over the profile
	// sentences; a stem absent has DefaultIDF.
	IDF        map[string]float64 `json:"idf"`
	DefaultIDF float64            `json:"default_idf"`
	// Assoc weighs a (message stem, profile stem) pair, keyed
	// "message stem profile stem": its pointwise mutual information over
	// the training dialogues, kept when positive and seen often enough.
	Assoc map[string]float64 `json:"assoc"`
	// AssocWeight scales the association evidence against exact matches;
	// EchoWeight is the weight of a word the partner only echoes from
	// Duet's last message.
	AssocWeight float64 `json:"assoc_weight"`
	EchoWeight  float64 `json:"echo_weight"`
}

func (l *ProfileLexicon) idf(st string) float64 {
	if l == nil {
		return 1
	}
	if v, ok := l.IDF[st]; ok {
		return v
	}
	return l.DefaultIDF
}

// guessProfile returns the index of the candidate profile the partner's
// messages in turns match best, or -1 when there are no candidates.
// Partners of ConvAI2 state their profile's facts, in part in its own
// words and in part in paraphrase: a content stem the partner used counts
// its IDF (over profiles) for every candidate that has it, and the
// strongest learned association between it and a stem of the candidate
// counts besides. A word the partner only echoes from Duet's last
// message says little about the partner and counts less. Ties go to the
// earlier candidate.
func guessProfile(turns []brain.Turn, profiles [][]string, rc *readCache, lex *ProfileLexicon) int {
	if len(profiles) == 0 {
		return -1
	}
	scores := profileScores(turns, profiles, rc, lex)
	best := 0
	for k, s := range scores {
		if s > scores[best] {
			best = k
		}
	}
	return best
}

// profileScores is how well each candidate matches the partner's words.
func profileScores(turns []brain.Turn, profiles [][]string, rc *readCache, lex *ProfileLexicon) []float64 {
	echo := 1.0 / 3
	if lex != nil {
		echo = lex.EchoWeight
	}
	// The partner's content stems in order of first use, each with its
	// weight (the order keeps the sums, and so ties, deterministic).
	var used []string
	weights := map[string]float64{}
	var last *text
	for _, t := range turns {
		if t.Role != brain.Partner {
			last = rc.text(t.Text)
			continue
		}
		for _, w := range rc.text(t.Text).words {
			if !w.content {
				continue
			}
			weight := 1.0
			if last != nil && last.stems.has(w.stem) {
				weight = echo
			}
			if old, ok := weights[w.stem]; !ok {
				used = append(used, w.stem)
				weights[w.stem] = weight
			} else {
				weights[w.stem] = max(old, weight)
			}
		}
	}
	scores := make([]float64, len(profiles))
	for k, p := range profiles {
		cand := rc.text(strings.Join(p, "\n")).stems
		score := 0.0
		for _, st := range used {
			weight := weights[st]
			if cand.has(st) {
				score += weight * lex.idf(st)
				continue
			}
			if lex == nil || lex.AssocWeight == 0 {
				continue
			}
			best := 0.0
			for c := range cand {
				best = max(best, lex.Assoc[st+" "+c])
			}
			score += weight * lex.AssocWeight * best
		}
		// Longer profiles match more by chance: normalise gently.
		scores[k] = score / (1 + 0.05*float64(len(cand)))
	}
	return scores
}

// FitProfileLexicon learns a ProfileLexicon from speakers whose profile
// and messages are both known: profiles[i] is speaker i's profile,
// messages[i] its messages. Pairs seen in fewer than minCount speakers
// are dropped, and so are pairs of a pointwise mutual information below
// minPMI.
func FitProfileLexicon(profiles, messages [][]string, minCount int, minPMI, assocWeight, echoWeight float64) *ProfileLexicon {
	var rc readCache
	stemsOf := func(lines []string) set {
		s := set{}
		for _, l := range lines {
			for _, w := range rc.text(l).words {
				if w.content {
					s.add(w.stem)
				}
			}
		}
		return s
	}
	df := map[string]int{}
	sentences := 0
	seen := map[string]bool{}
	for _, p := range profiles {
		for _, l := range p {
			l = strings.TrimSpace(l)
			if seen[l] {
				continue
			}
			seen[l] = true
			sentences++
			for st := range stemsOf([]string{l}) {
				df[st]++
			}
		}
	}
	lex := &ProfileLexicon{IDF: map[string]float64{}, Assoc: map[string]float64{}, AssocWeight: assocWeight, EchoWeight: echoWeight}
	lex.DefaultIDF = math.Log(float64(sentences+1) / 1)
	for st, n := range df {
		if n < 2 {
			continue // DefaultIDF
		}
		lex.IDF[st] = math.Round(math.Log(float64(sentences+1)/float64(n))*1e3) / 1e3
	}
	// Pointwise mutual information of a message stem and a profile stem
	// over speakers.
	pair := map[string]int{}
	mCount, pCount := map[string]int{}, map[string]int{}
	n := 0
	for i := range profiles {
		ps, ms := stemsOf(profiles[i]), stemsOf(messages[i])
		if len(ps) == 0 || len(ms) == 0 {
			continue
		}
		n++
		for p := range ps {
			pCount[p]++
		}
		for m := range ms {
			mCount[m]++
			for p := range ps {
				if m != p {
					pair[m+" "+p]++
				}
			}
		}
	}
	for k, c := range pair {
		if c < minCount {
			continue
		}
		m, p, _ := strings.Cut(k, " ")
		pmi := math.Log(float64(c) * float64(n) / float64(mCount[m]) / float64(pCount[p]))
		if pmi >= minPMI {
			lex.Assoc[k] = math.Round(pmi*1e3) / 1e3
		}
	}
	return lex
}
