package annex

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/duetbot/duet/shared/embed"
)

// Manner is how a person writes, measured from their messages.
type Manner struct {
	// Words is the median length of their messages, in words.
	Words int `json:"words"`
	// Openers are phrases they often start with ("Honestly,"), most used first.
	Openers []string `json:"openers,omitempty"`
	// Closers are endings they often use (an emoji, "ship it."), most used first.
	Closers []string `json:"closers,omitempty"`
	// CloserRate is the share of their messages that end with a closer.
	CloserRate float64 `json:"closer_rate"`
	// Vocabulary is the content words they use most, most used first.
	Vocabulary []string `json:"vocabulary,omitempty"`
	// Lowercase says they usually start messages in lower case.
	Lowercase bool `json:"lowercase"`
}

// minRepeat is how often a phrase must recur to count as a habit.
const minRepeat = 2

// MannerOf measures the manner of samples.
func MannerOf(samples []string) Manner {
	stats := make([]sampleStats, len(samples))
	for i, s := range samples {
		stats[i] = statsOf(s, true)
	}
	return mannerFrom(len(stats), func(i int) *sampleStats { return &stats[i] }, true)
}

// sampleStats is what MannerOf reads of one sample: worked out once per
// sample, a persona's manner is then a sum over its samples' stats.
type sampleStats struct {
	words          int
	lower          bool
	opener, closer string
	vocab          []string // content words, when asked for
}

func statsOf(s string, vocab bool) sampleStats {
	s = strings.TrimSpace(s)
	words := embed.Words(s)
	r, _ := utf8.DecodeRuneInString(s)
	st := sampleStats{words: len(words), lower: unicode.IsLower(r), opener: opener(s), closer: closer(s)}
	if vocab {
		for _, w := range words {
			if !embed.IsStopword(w) && len(w) > 2 {
				st.vocab = append(st.vocab, w)
			}
		}
	}
	return st
}

// mannerFrom sums the stats of n samples, stat(i) being sample i's, into
// their manner; without vocab, Vocabulary is left empty (compose does not
// use it).
func mannerFrom(n int, stat func(i int) *sampleStats, vocab bool) Manner {
	var m Manner
	if n == 0 {
		return m
	}
	lengths := make([]int, 0, n)
	openers, closers := map[string]int{}, map[string]int{}
	var vocabs map[string]int
	if vocab {
		vocabs = map[string]int{}
	}
	lower := 0
	for i := range n {
		st := stat(i)
		lengths = append(lengths, st.words)
		if st.lower {
			lower++
		}
		if st.opener != "" {
			openers[st.opener]++
		}
		if st.closer != "" {
			closers[st.closer]++
		}
		if vocab {
			for _, w := range st.vocab {
				vocabs[w]++
			}
		}
	}
	sort.Ints(lengths)
	m.Words = lengths[len(lengths)/2]
	m.Lowercase = lower*2 > n
	m.Openers = habits(openers, minRepeat, 5)
	m.Closers = habits(closers, minRepeat, 3)
	used := 0
	for _, c := range m.Closers {
		used += closers[c]
	}
	m.CloserRate = float64(used) / float64(n)
	if vocab {
		m.Vocabulary = habits(vocabs, minRepeat, 20)
	}
	return m
}

// habits returns the keys counted at least least times, most counted
// first (ties alphabetically, so the result is deterministic), at most n.
func habits(counts map[string]int, least, n int) []string {
	var keys []string
	for k, c := range counts {
		if c >= least {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if counts[keys[i]] != counts[keys[j]] {
			return counts[keys[i]] > counts[keys[j]]
		}
		return keys[i] < keys[j]
	})
	if len(keys) > n {
		keys = keys[:n]
	}
	return keys
}

// opener returns the short lead-in of s ending in a comma, colon or dash
// ("Honestly,", "Short answer:"), or "".
func opener(s string) string {
	i := strings.IndexAny(s, ",:—")
	if i <= 0 {
		return ""
	}
	_, size := utf8.DecodeRuneInString(s[i:])
	lead := s[:i+size]
	if n := len(strings.Fields(lead)); n == 0 || n > 3 {
		return ""
	}
	return lead
}

// closer returns the ending of s when it is an emoji or a short last
// sentence (at most three words), or "".
func closer(s string) string {
	fields := strings.Fields(s)
	if len(fields) < 2 {
		return ""
	}
	last := fields[len(fields)-1]
	if r, _ := utf8.DecodeRuneInString(last); !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsPunct(r) {
		return last // an emoji or symbol
	}
	sents := sentences(s)
	if len(sents) < 2 {
		return ""
	}
	lastSent := sents[len(sents)-1]
	if n := len(strings.Fields(lastSent)); n >= 1 && n <= 3 {
		return lastSent
	}
	return ""
}

// sentences splits s after ., ! and ? followed by a space.
func sentences(s string) []string {
	var out []string
	start := 0
	for i, r := range s {
		if (r == '.' || r == '!' || r == '?') && i+1 < len(s) && s[i+1] == ' ' {
			if t := strings.TrimSpace(s[start : i+1]); t != "" {
				out = append(out, t)
			}
			start = i + 1
		}
	}
	if t := strings.TrimSpace(s[start:]); t != "" {
		out = append(out, t)
	}
	return out
}
