package offline

import (
	"cmp"
	"slices"
	"strings"
	"unicode/utf8"
)

// term is a topic of a text: a content word or a short noun phrase.
type term struct {
	key     string // stem(s): the identity used to compare terms
	text    string // as shown: "wasp", "TV", "birthday party"
	article string // "the", "your"…, or "" for proper nouns
	nounish bool   // seen after a determiner, plural, acronym or proper noun
	generic bool   // too common to make a good topic ("the best", "your life")
	score   float64
	first   int // index of the first word, for stable ordering
	count   int
	shown   string // phrase, when withPhrases made it ahead
}

// phrase is the term as it reads in a sentence: "the wasp", "your wrist".
func (t term) phrase() string {
	if t.shown != "" {
		return t.shown
	}
	if t.article == "" {
		return t.text
	}
	return t.article + " " + t.text
}

// Perspective decides how a determiner is echoed back: the context speaks to
// the partner ("your wrist" stays "your wrist"); the partner speaks of
// themselves ("my dog" becomes "your dog") and of the bot ("your job" becomes
// "my job").
type perspective int

const (
	fromContext perspective = iota
	fromPartner
)

// withPhrases stores each term's phrase in it, for a pool that is used for
// many replies (a context's), so that filling templates does not join the
// same article and text again.
func withPhrases(ts []term) []term {
	for i := range ts {
		ts[i].shown = ts[i].phrase()
	}
	return ts
}

func article(det string, p perspective) string {
	switch det {
	case "your":
		if p == fromPartner {
			return "my"
		}
		return "your"
	case "my", "our":
		return "your"
	case "his", "her", "their":
		return det
	}
	return "the"
}

func hasSuffix(w string, suffixes ...string) bool {
	for _, s := range suffixes {
		if len(w) > len(s)+2 && strings.HasSuffix(w, s) {
			return true
		}
	}
	return false
}

// verbish reports endings that mark adverbs, participles and adjectives.
func verbish(w string) bool {
	return hasSuffix(w, "ly", "ed", "ing", "ful", "ous", "ive", "able", "ible")
}

func plural(w string) bool {
	return len(w) > 3 && strings.HasSuffix(w, "s") && !hasSuffix(w, "ss", "us", "is", "ous")
}

// beOf is the verb "be" that agrees with the noun w: "mushrooms are",
// "cilantro is".
func beOf(w string) string {
	if plural(w) {
		return "are"
	}
	return "is"
}

// wordScore ranks the i-th word of t as a topic: noun-like, specific words
// near the start rank first; longer words a little higher.
func wordScore(t *text, i int) (score float64, nounish bool, det string) {
	w := t.words[i]
	n := utf8.RuneCountInString(w.low)
	score = 5 + 0.15*float64(min(n, 10))
	if i > 0 && w.joined && determiners.has(t.words[i-1].low) {
		det = t.words[i-1].low
		score += 1.5
		nounish = true
	}
	switch {
	case hasSuffix(w.low, "ly"):
		score -= 4
		nounish = false
	case hasSuffix(w.low, "ing"):
		if det == "" {
			score -= 3
		}
	case hasSuffix(w.low, "ed") && !strings.HasSuffix(w.low, "eed"):
		score -= 2
		nounish = false
	case hasSuffix(w.low, "ful", "ous", "ive", "able", "ible"):
		score -= 1.5
		nounish = false
	}
	if w.generic {
		score -= 3
	}
	if w.acronym || w.proper {
		score++
		nounish = true
	}
	// A plural-looking word right after another content word is more
	// likely a verb: "your friend invites".
	if plural(w.low) && !verbish(w.low) && (i == 0 || !w.joined || !t.words[i-1].content) {
		nounish = true
	}
	if i+1 < len(t.words) {
		if next := t.words[i+1]; next.joined && next.content && hasSuffix(next.low, "ing") {
			score += 0.5 // the agent of an action: "a wasp crawling"
		}
	}
	score += 1 - float64(i)/float64(len(t.words))
	return score, nounish, det
}

func display(w word) string {
	if w.acronym || w.proper {
		return w.orig
	}
	return w.low
}

// rankTerms returns the topics of t, best first.
func rankTerms(t *text, p perspective) []term {
	var out []term
	index := map[string]int{} // the terms in out by key
	find := func(key string) int {
		if j, ok := index[key]; ok {
			return j
		}
		return -1
	}
	add := func(tm term) {
		if j := find(tm.key); j >= 0 {
			o := &out[j]
			o.count++
			o.nounish = o.nounish || tm.nounish
			if tm.score > o.score {
				o.score = tm.score
			}
			if o.article == "the" && tm.article != "the" && tm.article != "" {
				o.article = tm.article
			}
			return
		}
		tm.count = 1
		out = append(out, tm)
		index[tm.key] = len(out) - 1
	}
	for i, w := range t.words {
		if !w.content {
			continue
		}
		score, nounish, det := wordScore(t, i)
		art := article(det, p)
		if w.proper {
			art = ""
		}
		// A determiner-led pair of plain words is a noun phrase:
		// "a birthday party", "your best friend".
		if det != "" && !verbish(w.low) && !w.proper && i+1 < len(t.words) {
			next := t.words[i+1]
			// A plural second word is more likely a verb: "your neighbour plays".
			if next.joined && next.content && !next.generic && !verbish(next.low) && !next.proper && !plural(next.low) {
				nextScore, _, _ := wordScore(t, i+1)
				add(term{
					key:     w.stem + " " + next.stem,
					text:    display(w) + " " + display(next),
					article: art,
					nounish: true,
					score:   max(score, nextScore) + 1,
					first:   i,
				})
				score -= 2 // as a word on its own it is only a modifier
				nounish = false
			}
		}
		add(term{key: w.stem, text: display(w), article: art, nounish: nounish, generic: w.generic, score: score, first: i})
	}
	for i := range out {
		out[i].score += 0.5 * float64(min(out[i].count-1, 4))
	}
	byRank := func(a, b term) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return cmp.Compare(a.first, b.first)
	}
	slices.SortStableFunc(out, byRank)
	return out
}

// slotPool returns up to k terms fit to fill a template slot: specific
// noun-like ones first, then common noun-like ones; if there are none, plain
// words without verb or adverb endings. A term that shares a word with one
// already taken ("weekend" after "rainy weekend") is skipped.
func slotPool(ts []term, k int) []term {
	pool := make([]term, 0, k)
	take := func(ok func(term) bool) {
		for _, t := range ts {
			if len(pool) < k && ok(t) && !sharesWord(pool, t) {
				pool = append(pool, t)
			}
		}
	}
	take(func(t term) bool { return t.nounish && !t.generic })
	take(func(t term) bool { return t.nounish && t.generic })
	if len(pool) == 0 {
		take(func(t term) bool {
			return !t.generic && !verbish(t.text) && !strings.Contains(t.text, " ")
		})
	}
	return pool
}

// partnerTopics returns the noun-like topics of t, a partner's text, that
// would fill a template slot, best first.
func partnerTopics(t *text) []term {
	pool := slotPool(rankTerms(t, fromPartner), poolSize)
	return slices.DeleteFunc(pool, func(tm term) bool { return !tm.nounish })
}

// sharesWord reports whether t has a stem in common with a term of pool.
func sharesWord(pool []term, t term) bool {
	for _, p := range pool {
		for a := range strings.FieldsSeq(p.key) {
			for b := range strings.FieldsSeq(t.key) {
				if a == b {
					return true
				}
			}
		}
	}
	return false
}
