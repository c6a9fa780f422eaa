package offline

import (
	"slices"
	"strings"
)

// The family a question asks about and a fact speaks of, by kind:
// children, siblings, a partner, parents.

// kin are the kinds of family a question may ask about: "any kids?" is not
// answered by a sister.
var kin = func() map[string]int {
	m := map[string]int{}
	for k, words := range []string{
		`kids kid children child son sons daughter daughters baby babies grandchildren grandkids pregnant twins
grandson grandsons granddaughter granddaughters grandchild toddler toddlers infant newborn teenagers
stepchildren stepkids stepson stepsons stepdaughter stepdaughters`,
		`brother brothers sister sisters siblings sibling`,
		`married marry marriage wife husband boyfriend girlfriend partner single relationship dating divorce
divorced widowed widow widower engaged fiance fiancee spouse wedding gf bf wives husbands newlywed newlyweds
anniversary`,
		`mom mother dad father parents parent grandma grandpa grandmother grandfather folks
grandparents nana abuela abuelo nonna nonno oma opa`,
	} {
		for w := range strings.FieldsSeq(words) {
			m[w] = k + 1
		}
	}
	return m
}()

// kinOf returns the kinds of family words ws name, as a bit set. One who
// says "i am a dad" has children too; "an only child" speaks of siblings.
func kinOf(ws []string) int {
	k := 0
	for i, w := range ws {
		if i > 0 && possessives.has(ws[i-1]) {
			w = strings.TrimSuffix(w, "'s") // "i coach my son's little league team", not "a children's hospital"
		}
		if (w == "girls" || w == "boys") && i > 0 && (slicesHasAny(ws[:i], kidsVerbs) || slicesHasAny(ws[max(0, i-3):i], possessives)) ||
			(w == "girl" || w == "boy") && i > 1 && ws[i-1] != "best" && !(ws[i-1] == "a" && (ws[i-2] == "was" || ws[i-2] == "were" || ws[i-2] == "as")) && slicesHasAny(ws[:i], kidsVerbs) {
			k |= 1 << kinChildren // "i have three little girls", "my husband and i are raising twin boys", "my twin boys are eight", "we have a little girl"
			continue
		}
		if w == "twin" && i+1 == len(ws) && i > 1 && ws[i-1] == "a" && haveVerbs.has(ws[i-2]) {
			k |= 1 << kinSiblings // "i have a twin"
			continue
		}
		if w == "family" && i > 2 && possessives.has(ws[i-1]) && ws[i-2] == "in" && birthOrder.has(ws[i-3]) {
			k |= 1 << kinSiblings // "i am the youngest in my family"
			continue
		}
		if w == "child" && i > 0 && ws[i-1] == "only" || kin[w] == kinChildren && (amongKids(ws[:i]) || familyOf(ws[:i])) {
			k |= 1 << kinSiblings // "an only child", "the youngest of six kids"
			continue
		}
		if kin[w] == kinChildren && i > 1 && (kidsPrepositions.has(ws[i-1]) || ws[i-1] == "a" && (ws[i-2] == "as" || ws[i-2] == "was")) {
			continue // "i give guitar lessons to kids", "i work with kids", "as a kid": not one's own
		}
		if n := kin[w]; n > 0 && (i+1 == len(ws) || !occupation(ws[i+1]) && (w != "wedding" || !weddingGoods.has(ws[i+1]))) { // not "a wedding photographer", "wedding dresses"
			k |= 1 << n
			if n == kinParents && (len(ws) > 2 && ws[0] == "i" && ws[1] == "am" || i > 1 && ws[i-2] == "be") {
				k |= 1 << kinChildren // "i am a dad", "to be a stay at home dad"
			}
		}
	}
	return k
}

// hasKin reports a relative of the kinds k (kinOf's bits) that ws says
// one has, by a verb of having a few words before: "we have three boys",
// not "my kids call my van the bathtub".
func hasKin(ws []string, k int) bool {
	for i, w := range ws {
		if n := kin[w]; n > 0 && k&(1<<n) != 0 && slicesHasAny(ws[max(0, i-4):i], kidsVerbs) {
			return true
		}
	}
	return false
}

// saysParent reports a sentence in which one says one is a parent, who
// has children ("i am a mom of three"), or with grand a grandparent, who
// has grandchildren ("i am a grandfather of four").
func saysParent(ws []string, grand bool) bool {
	return len(ws) > 2 && ws[0] == "i" && ws[1] == "am" && slices.ContainsFunc(ws, func(w string) bool {
		return kin[w] == kinParents && (!grand || strings.HasPrefix(w, "grand"))
	})
}

// kidsVerbs have children: "my wife and i have two little girls".
var kidsVerbs = newSet("have has raise raising adopted adopt")

// kidsPrepositions before a word for children make them others' children.
var kidsPrepositions = newSet("to with for")

// amongKids reports words before a word for children that make one of
// them: "the youngest of six", "the middle child", "one of five".
func amongKids(before []string) bool {
	for i := len(before) - 1; i >= max(len(before)-4, 0); i-- {
		if birthOrder.has(before[i]) || before[i] == "born" { // "the last born of nine"
			return true
		}
	}
	return false
}

var birthOrder = newSet("youngest oldest eldest middle")

// familyOf reports "a family of nine" before a word for children: one of
// them, a sibling ("i grew up in a family of nine kids").
func familyOf(before []string) bool {
	n := len(before)
	return n >= 3 && isNumber(before[n-1]) && before[n-2] == "of" && before[n-3] == "family"
}

// The kinds of family of kin.
const (
	kinChildren = 1
	kinSiblings = 2
	kinMarried  = 3
	kinParents  = 4
)

// anyKin is every kind of family.
const anyKin = 1<<kinChildren | 1<<kinSiblings | 1<<kinMarried | 1<<kinParents

// asksOfThird reports a question about someone else named by a pronoun
// and not about the one asked: "what does he do?", "how old are they?",
// but not "do they pay you well?".
func asksOfThird(q *text) bool {
	third := false
	for _, w := range q.words {
		w := chatSpelling(w.low)
		if youWords.has(w) {
			return false
		}
		third = third || thirdPronouns.has(w)
	}
	return third
}

var thirdPronouns = newSet("he she they his her their him them")

// asksParent reports a question whether one is a parent: "are you a
// mom?", "r u a dad?".
func asksParent(q *text) bool {
	for i := 0; i+2 < len(q.words); i++ {
		if chatSpelling(q.words[i].low) == "you" && (q.words[i+1].low == "a" || q.words[i+1].low == "an") && kin[q.words[i+2].low] == kinParents {
			return true
		}
	}
	return false
}

// others are the people a profile sentence may be about instead of the
// bot: "my dad was a chef" does not say what the bot does.
var others = newSet("friend friends neighbor neighbors neighbour neighbours roommate roommates")

// aboutOther reports a fact about someone else than the bot ("my sister
// is a dancer", "my family does not support my choices"), not about the
// bot and them ("my husband and i own a bakery") nor about its pet ("my
// best friend is my dog").
func aboutOther(source string) bool {
	// "i have a boyfriend who is a fireman", "i have a brother who lives in
	// australia": what is told is theirs.
	if before, _, ok := strings.Cut(source, " who "); ok && strings.HasPrefix(source, "i have ") {
		return kin[before[strings.LastIndexByte(before, ' ')+1:]] > 0
	}
	rest, ok := strings.CutPrefix(source, "my ")
	if !ok || strings.Contains(source, " and i ") {
		return false
	}
	if _, pet, ok := strings.Cut(rest, " is my "); ok && intentOf(strings.Fields(pet)[0])&catPet != 0 {
		return false
	}
	for w := range strings.FieldsSeq(rest) {
		switch {
		case kin[w] > 0 || others.has(w) || w == "family":
			return true
		case w == "older" || w == "younger" || w == "little" || w == "big" || w == "best" || w == "oldest" ||
			w == "youngest" || w == "twin" || w == "step" || w == "two" || w == "three":
		default:
			return false
		}
	}
	return false
}

// yourKin returns the stems of the relatives question q asks about by
// "your": "what does your dad do?", "how old is your little brother?".
func yourKin(q *text) []string {
	var out []string
	for i, w := range q.words {
		if w.low != "your" && w.low != "ur" {
			continue
		}
		for j := i + 1; j < min(i+3, len(q.words)); j++ {
			if w := chatSpelling(q.words[j].low); kin[w] > 0 {
				out = append(out, stem(w)) // "your bf": "boyfriend"
				break
			}
		}
	}
	return out
}

// tellsOf reports whether fact f speaks of one of the relatives kin
// (yourKin) by name, or is about a relative of the same kind: "what
// about your mom?" is not answered by "i am a stay at home dad".
func (f *fact) tellsOf(kinStems []string) bool {
	if len(kinStems) == 0 {
		return true
	}
	for _, st := range kinStems {
		if f.stems.has(st) || f.stems.has(kinSynonyms[st]) || kinWhole.has(st) && (aboutOther(f.source) || f.verb == "have") && f.kin&(1<<kin[st]) != 0 {
			return true
		}
		if kinByStem[st] == kinMarried && f.kin&(1<<kinMarried) != 0 && (!spouseStems.has(st) || withNamed(f.words)) {
			return true // "what does your partner do?": "i am married to a chef"; "your wife?": "maureen and i have been married…"
		}
	}
	return false
}

// kinByStem is kin by the stems of its words: "wif" for "wife".
var kinByStem = func() map[string]int {
	m := map[string]int{}
	for w, k := range kin {
		m[stem(w)] = k
	}
	return m
}()

// spouseStems are the stems of spouseWords.
var spouseStems = func() set {
	s := set{}
	for w := range spouseWords {
		s.add(stem(w))
	}
	return s
}()

// kinSynonyms pair the words for the same relative.
var kinSynonyms = map[string]string{"mom": "mother", "mother": "mom", "dad": "father", "father": "dad",
	"grandma": "grandmother", "grandmother": "grandma", "grandpa": "grandfather", "grandfather": "grandpa",
	"kid": "child", "child": "kid"}

// kinWhole name every relative of a kind: "your parents" are spoken of
// by "my dad…".
var kinWhole = newSet(stemAll("parents parent siblings sibling kids children"))

// stemAll returns the stems of the words of s, space-separated.
func stemAll(s string) string {
	var out []string
	for w := range strings.FieldsSeq(s) {
		out = append(out, stem(w))
	}
	return strings.Join(out, " ")
}
