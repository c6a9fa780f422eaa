package offline

import (
	"slices"
	"strings"
)

// What a fact speaks of: the things of a question it names by their
// word, by a member of the class the word names, by an agent or a
// compound of the word, or as a known thing (persona_knowledge.go).

// speaksOf reports whether fact f speaks of the thing of stem st: by the
// same word, spelt either way, glued to a number ("5cats"), by the verb
// of an agent ("teacher": "i teach english"), or by a member of the class
// st names ("instrument": "i play the violin").
func (f *fact) speaksOf(st string) bool {
	if f.stems.has(st) || f.stems.has(spellings[st]) || f.hasDigitStem(st) || f.known.has(st) {
		return true
	}
	if a, ok := strings.CutSuffix(st, "er"); ok && len(a) > 3 && (f.stems.has(a) || f.stems.has(stem(a+"e")) || a[len(a)-1] == a[len(a)-2] && f.stems.has(a[:len(a)-1])) {
		return true // "a singer": "i sing"; "a runner": "i run marathons"
	}
	// "do you sing?": "i am an opera singer"; "do you like boats?": "i
	// live on a sailboat".
	for s := range f.stems {
		if rest, ok := strings.CutPrefix(s, st); ok && (rest == "er" || rest == "r" || rest == "or" || rest == "ress") || len(st) >= 4 && len(s) > len(st)+2 && strings.HasSuffix(s, st) && !compoundHeads.has(st) ||
			len(st) >= 5 && len(s) > len(st)+2 && strings.HasPrefix(s, st) { // "collect": "a collection"
			return true
		}
	}
	if members := classes[st]; members != nil {
		for s := range f.stems {
			if members.has(s) {
				return true
			}
		}
	}
	return false
}

// speaksOfOther reports that fact f speaks of the thing the i-th word of
// question q offers as another choice: "do you hunt or fish?" is answered
// by "i hunt deer every fall", "do you rent or own?" by a house bought.
func (f *fact) speaksOfOther(q *text, i int) bool {
	for _, dir := range []int{-1, 1} {
		j := i + dir
		if dir < 0 && j >= 0 && determiners.has(q.words[j].low) {
			j-- // "a boy or a girl"
		}
		if j < 0 || j >= len(q.words) || q.words[j].low != "or" {
			continue
		}
		j += dir
		if j >= 0 && j < len(q.words) && determiners.has(q.words[j].low) {
			j += dir
		}
		if j >= 0 && j < len(q.words) && f.speaksOf(q.words[j].stem) {
			return true
		}
	}
	return f.answersOtherChoice(q, i)
}

// answersOtherChoice reports that fact f answers the choice of question
// q that the i-th word is not in, named by a category: "do you work or go
// to school?" is answered by a job, "are you working or in school?" by a
// school.
func (f *fact) answersOtherChoice(q *text, i int) bool {
	k := slices.IndexFunc(q.words, func(w word) bool { return w.low == "or" })
	if k < 0 || i == k {
		return false
	}
	from, to := k+1, len(q.words) // the other choice
	if i > k {
		from, to = 0, k
	}
	for j := from; j < to; j++ {
		if w := q.words[j]; w.content && categoryNames.has(w.low) && wordIntent(q, j)&f.intents()&^(catPlace|catFamily) != 0 {
			return true
		}
	}
	return false
}

// compoundHeads end compounds that are not of their kind: "homework" is
// no work, "facebook" no book.
var compoundHeads = newSet("work time thing body where book line one")

// classes map the stem of a word naming a class of things to the stems of
// its members: a question about an instrument is answered by the guitar.
var classes = func() map[string]set {
	m := map[string]set{}
	for names, members := range map[string]string{
		"instrument instruments": `guitar piano drums drum violin cello flute trumpet saxophone sax clarinet harp
ukulele banjo trombone harmonica bass keyboard tuba oboe accordion bagpipes fiddle mandolin`,
		"military army": `army navy marines military soldier soldiers veteran airforce war fought`,
		"cook cooking":  `cook cooks cooking chef chefs`,
		"travel travels traveling travelling traveled travelled trip trips abroad": `travel travels traveling
travelling traveled travelled trip trips abroad countries continent continents vacation vacations world`,
	} {
		ms := newSet(stemAll(members))
		for n := range strings.FieldsSeq(names) {
			m[stem(n)] = ms
		}
	}
	return m
}()
