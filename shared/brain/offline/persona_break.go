package offline

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/duetbot/duet/shared/brain"
)

// The last-resort rendering of a profile sentence the paraphrases cannot
// say without a trigram of the profile: a paraphrase (or the sentence
// itself) with its words in order, some said another way (contractions,
// "&", digits, "w/", a longer preposition) and, where a run of three of
// its words would still repeat the profile, broken the way people break a
// sentence in chat, with a softener or a filler between two of its words
// ("old school, like, hip hop", "a german shepherd, name's barnaby").
// Every word of the fact stays, so the rendering keeps it whole; newFact
// still checks keeps and the router.
//
// Of all the ways to say it, breakSay picks the one that reads best: each
// rewording and each break has a cost (how much it strays from what a
// person would type), and a search over the sentence from left to right
// finds the cheapest way with no refused trigram.

// A piece is a way to say one word or set phrase of a paraphrase, or what
// goes between two of them: its text, its words as the router reads them,
// and what it costs the reading.
type piece struct {
	text   string
	words  []string
	cost   float64
	filler bool // a chat filler: "like"
}

func newPiece(text string, cost float64) piece {
	return piece{text: text, words: brain.RouterWords(text), cost: cost}
}

// maxFillers is the most fillers a rendering may have: with more it reads
// as a stammer, and the fact is better left unsaid (the bot still plays it
// with questions and small talk).
const maxFillers = 3

// breakSay returns the cheapest rendering of say that the router would not
// refuse, and its cost; "" when there is none. The phrases held (names,
// set phrases: heldPhrases) are said as they are, nothing between their
// words.
func breakSay(grams brain.Trigrams, say string, held []string) (string, float64) {
	fields := strings.Fields(say)
	units := sayUnits(fields)
	if len(units) == 0 {
		return "", 0
	}
	spans := nameSpans(fields, held)
	said := set{}
	for _, w := range brain.RouterWords(say) {
		said.add(w)
	}
	// layers alternate: the ways to say unit 0, what goes between units 0
	// and 1, the ways to say unit 1, …
	var layers [][]piece
	at := 0 // the field unit i starts at
	for i, u := range units {
		if i > 0 {
			if insideName(spans, at-1) {
				layers = append(layers, []piece{newPiece("", 0)})
			} else {
				layers = append(layers, gapPieces(units[i-1], u))
			}
		}
		held := slices.ContainsFunc(spans[min(at, len(spans)):min(at+len(u), len(spans))], func(s int) bool { return s != 0 })
		at += len(u)
		if held {
			// a name's words as they are, a possessive as chat types it
			// ("greys anatomy")
			text := strings.Join(u, " ")
			ps := []piece{newPiece(text, 0)}
			if len(u) == 1 && strings.HasSuffix(strings.ToLower(trimPunct(text)), "'s") {
				ps = append(ps, newPiece(strings.Replace(text, "'s", "s", 1), 1))
			}

			layers = append(layers, ps)
			continue
		}
		var nb neighbours
		if i > 0 {
			nb.prev = lastWord(units[i-1])
		}
		if i > 1 {
			nb.prev2 = lastWord(units[i-2])
		}
		if i+1 < len(units) {
			nb.next = strings.ToLower(trimPunct(units[i+1][0]))
		}
		if i+2 < len(units) {
			nb.next2 = strings.ToLower(trimPunct(units[i+2][0]))
		}
		layers = append(layers, unitPieces(u, nb))
	}
	// A state is the last two router words said: what the next word's
	// trigram depends on.
	states := map[[2]string]*breakNode{{}: {}}
	for _, layer := range layers {
		next := map[[2]string]*breakNode{}
		// In a fixed order, so that of two ways that cost the same the
		// same one wins in every chat.
		keys := slices.SortedFunc(maps.Keys(states), func(a, b [2]string) int {
			return cmp.Or(strings.Compare(a[0], b[0]), strings.Compare(a[1], b[1]))
		})
		for _, st := range keys {
			n := states[st]
			for _, p := range layer {
				if strings.HasPrefix(p.text, "'") && n.text != "" {
					continue // "car's" only right after its word
				}
				if p.cost > 0 && slices.ContainsFunc(p.words, func(w string) bool { return said.has(w) && softenerWords.has(w) }) {
					continue // "my own bike" where the sentence says "own a car": repeatsSoftener refuses it
				}
				s, ok := st, true
				for _, w := range p.words {
					if s[0] != "" && grams.Has(s[0]+" "+s[1]+" "+w) {
						ok = false
						break
					}
					s = [2]string{s[1], w}
				}
				if !ok {
					continue
				}
				c := n.cost + p.cost
				if old := next[s]; old == nil || c < old.cost || c == old.cost && p.text < old.text {
					next[s] = &breakNode{cost: c, from: n, text: p.text, fillers: n.fillers}
					if p.filler {
						next[s].fillers++
					}
				}
			}
		}
		if len(next) == 0 {
			return "", 0
		}
		states = next
	}
	var best *breakNode
	for _, n := range states {
		if best == nil || n.cost < best.cost || n.cost == best.cost && joinPieces(n) < joinPieces(best) {
			best = n
		}
	}
	if best.fillers > maxFillers {
		return "", 0
	}
	// One filler said over and over reads as a tic: every other one is
	// "you know", where the router allows it.
	text := joinPieces(best)
	if alt := alternateFillers(text); !grams.Refuses(alt) {
		text = alt
	}
	return onceActually(grams, text), best.cost
}

// onceActually says every "actually" of text after the first another way,
// or leaves it out, where the router allows it: said twice in a sentence
// it reads as a tic ("I actually would like to become a dog when I
// actually grow up").
func onceActually(grams brain.Trigrams, text string) string {
	ws := strings.Fields(text)
	seen := false
	for i := 0; i < len(ws); i++ {
		if ws[i] != "actually" {
			continue
		}
		if seen {
			for _, alt := range [][]string{slices.Concat(ws[:i], ws[i+1:]), slices.Concat(ws[:i], []string{"really"}, ws[i+1:])} {
				if !grams.Refuses(strings.Join(alt, " ")) {
					ws = alt
					break
				}
			}
		}
		seen = true
	}
	return strings.Join(ws, " ")
}

// breakNode is a step of breakSay's search: the piece said last, the
// step before it and the cost so far.
type breakNode struct {
	cost    float64
	from    *breakNode
	text    string
	fillers int // the fillers said so far
}

// joinPieces writes the pieces of a search path as text: a piece that
// starts with a comma goes right after the word before it.
func joinPieces(n *breakNode) string {
	var parts []string
	for ; n != nil && n.from != nil; n = n.from {
		if n.text != "" {
			parts = append(parts, n.text)
		}
	}
	slices.Reverse(parts)
	var b strings.Builder
	for i, p := range parts {
		if i > 0 && !strings.HasPrefix(p, ",") && !strings.HasPrefix(p, "'") {
			b.WriteByte(' ')
		}
		if strings.HasPrefix(p, ",") && strings.HasSuffix(b.String(), ",") {
			p = p[1:]
		}
		b.WriteString(p)
	}
	return b.String()
}

// sayUnits splits the fields of a paraphrase into units, each a word or a
// set phrase of phraseSwaps ("i am", "a lot of") that may be said another
// way as a whole.
func sayUnits(fields []string) [][]string {
	var out [][]string
	for i := 0; i < len(fields); {
		n := 1
		prev := ""
		if i > 0 {
			prev = strings.ToLower(trimPunct(fields[i-1]))
		}
		for _, sp := range phrasesAt(fields, i) {
			if k := len(sp.words); k > n && i+k <= len(fields) && equalFoldWords(fields[i:i+k], sp.words) && !strings.ContainsAny(fields[i+k-2], ",:") &&
				(sp.i >= len(phraseSwaps) || phraseFits(strings.ToLower(phraseSwaps[sp.i][0]), prev, wordAt(fields, i+k))) {
				n = k // a phrase is a unit only where it may be said its other way: "when I actually was a baby"
			}
		}
		out = append(out, fields[i:i+n])
		i += n
	}
	return out
}

// wordAt is field i lower case, without punctuation; "" past the end.
func wordAt(fields []string, i int) string {
	if i >= len(fields) {
		return ""
	}
	return strings.ToLower(trimPunct(fields[i]))
}

// trimPunct drops the punctuation that may end a field: "school," → "school".
func trimPunct(w string) string { return strings.TrimRight(w, ",.!?:;") }

// lastWord is the last word of a unit, lower case, without punctuation.
func lastWord(u []string) string { return strings.ToLower(trimPunct(u[len(u)-1])) }

// neighbours are the words around a unit, lower case, "" past an end.
type neighbours struct{ prev2, prev, next, next2 string }

// unitPieces are the ways to say unit u, between its neighbours nb: as it
// is, and, at a cost, another way that means the same.
func unitPieces(u []string, nb neighbours) []piece {
	prev2, prev, next := nb.prev2, nb.prev, nb.next
	text := strings.Join(u, " ")
	out := []piece{newPiece(text, 0)}
	if len(u) > 1 {
		if strings.EqualFold(text, "going to") && (next == "" || determiners.has(next) || !stopwords.has(next) && next != "be") {
			return out // "going to the park" goes somewhere: never "gonna the park"
		}
		all := slices.Concat(phraseSwaps, chatPhrases)
		for _, sp := range phrasesAt(u, 0) {
			if ps := all[sp.i]; len(sp.words) == len(u) && equalFoldWords(u, sp.words) && phraseFits(strings.ToLower(ps[0]), prev, next) {
				cost := 1.0
				if strings.Contains(ps[0]+ps[1], "'") || sp.i >= len(phraseSwaps) {
					cost = 0.3 // a contraction or a chat form ("wanna") reads the same
				}
				out = append(out, newPiece(ps[1], cost))
			}
		}
		return out
	}
	w := u[0]
	lw, punct := strings.ToLower(trimPunct(w)), w[len(trimPunct(w)):]
	add := func(s string, cost float64) { out = append(out, newPiece(s+punct, cost)) }
	switch {
	case lw == "and":
		add("&", 0.3)
	case lw == "named":
		add(", name's", 0.5) // "a german shepherd, name's barnaby"
	case lw == "with" && next != "" && !ownPrepositions.has(prev):
		add("w/", 1.5)
	case lw == "that" && (next == "i" || next == "my" || next == "we" || strings.HasSuffix(next, "s") && !stopwords.has(next)) &&
		prev != "" && !stopwords.has(prev) && !verbForm(prev) && !thinkVerbs.has(prev):
		add("which", 1.5) // "a fear of snakes that i hide" → "which I hide", "a farmhouse which needs work"
	case lw == "who" && prev != "" && !stopwords.has(prev) && !verbForm(prev) && !thinkVerbs.has(prev) && next != "" && !stopwords.has(next):
		add("that", 1.5) // "a dragon who hates fire" → "a dragon that hates fire"
	case lw == "a" && prev == "as" && (occupation(next) || occupation(nb.next2)):
		add("", 2.5) // "to work as a pastry chef" → "as pastry chef"
	case lw == "because":
		add("cuz", 1)
	case (lw == "have" || lw == "has") && (subjects.has(prev) || prev == "i") && (next == "a" || next == "an"):
		add(lw+" got", 1) // "I have got a step kid"
	case lw == "since" && prev != "ever":
		add("ever since", 1) // "ever since the surgery"
	case lw == "now" && prev != "right" && prev != "" && next == "":
		add("these days", 1.5) // "but these days I'm a housekeeper"
	case lw == "is" && prev != "" && !stopwords.has(prev) && !determiners.has(prev) && !hasSuffix(prev, "s", "ing", "ed") &&
		!subjects.has(prev2) && !adverbs.has(prev2) && !strings.HasSuffix(u[0], ","):
		// never after a verb: "i live is" is a slip, not "I live's"
		add("'s", 0.5) // "my dream car's a rolls royce"
	case digits[lw] != "" && swapFits(prev, lw, next):
		add(digits[lw], 0.3) // "sixteen" → "16"
	case lw == "my" && next != "" && !stopwords.has(next) && !determiners.has(next) && kinOf([]string{next}) == 0 && kinPronouns[next] == "" && next != "family" &&
		!adjective(next) && (nb.next2 == "" || stopwords.has(nb.next2) || determiners.has(nb.next2)):
		// "my own studio", never "my own main transportation"
		add("my own", 3.5)
	case lw == "the" && seasons.has(next) && prepositionWords.has(prev):
		add("", 2.5) // "during the winter" → "during winter"
	case strings.HasSuffix(lw, "'s") && len(lw) > 4 && !stopwords.has(lw) && next != "" && !stopwords.has(next) && !determiners.has(next):
		// a possessive as chat types it, which the router reads as one
		// word: "my daughters softball team", "greys anatomy"
		add(strings.TrimSuffix(w[:len(trimPunct(w))], "'s")+"s", 1)
	case strings.HasSuffix(lw, "'s") && len(lw) > 4 && !stopwords.has(lw) && determiners.has(next):
		add(strings.TrimSuffix(w[:len(trimPunct(w))], "'s")+" is", 0.5) // "my dad's a cop" → "my dad is a cop"
	case lw == "all" && slices.Contains([]string{"my", "the", "his", "her", "our", "their", "your"}, next):
		add("all of", 0.5) // "she spends all of my money"
	case lw == "next" && (next == "door" || next == "to") && prev != "right":
		add("right next", 1) // "my best friend lives right next door"
	case lw == "a" && next != "" && !stopwords.has(next) && prev == "got":
		add("this", 2) // "I've got this german shepherd": a chat's way to bring a thing in
	case (lw == "a" || lw == "an") && next != "" && !stopwords.has(next) && !determiners.has(next) && placePrepositions.has(prev) &&
		!timeNoun(next) && !timeNoun(nb.next2) && !amounts.has(next) && !amounts.has(nb.next2):
		add("this", 2.5) // "I wait tables at this diner": a place brought in the same way; never "for this decade"
	}
	if thing := nb.next; (lw == "my" || lw == "our" || lw == "the" && prepositionWords.has(prev)) && thing != "" {
		if adjective(thing) || placeAdjectives.has(thing) {
			thing = nb.next2
		}
		if homeThings.has(thing) && (lw != "the" || !townWords.has(thing)) || groupThings.has(thing) && lw != "the" {
			// "my vegetable garden", "around the living room": a home's
			// things are the household's
			add(ourWords[lw], 2.5)
		}
	}
	switch d := swaps[lw]; {
	case d == "" || digits[lw] != "" || looseSwaps.has(lw) || !swapFits(prev, lw, next):
	case isNumber(lw):
		add(d, 0.3) // "two" → "2"
	case lw == "like" && (!subjectsOfLike.has(prev) || next == "to"):
		// "feel like", "just like": not the verb, which "enjoy" would say;
		// "like to" is not "enjoy to"
	default:
		add(d, 2)
	}
	if p, ok := prepositions[lw]; ok && !ownPrepositions.has(prev) && (placeVerbs.has(prev) || lw == "with" && !strings.HasSuffix(prev, "ed") && prev != "born") &&
		next != "" && (determiners.has(next) || !stopwords.has(next)) {
		add(p, 1.5) // "live in" → "live over in", never "over in concert"
	}
	return out
}

// gapPieces are what may go between units a and b: nothing, a softener
// ("I actually live"), or a chat filler ("old school, like, hip hop").
func gapPieces(a, b []string) []piece {
	la, lb := lastWord(a), strings.ToLower(trimPunct(b[0]))
	out := []piece{newPiece("", 0)}
	if len(b) > 1 {
		lb = strings.ToLower(strings.Join(b, " "))
	}
	switch {
	case (la == "i" || la == "i'm" || la == "i've" || la == "i'd" || la == "i'll" || la == "am") && !stopwords.has(lb) && !determiners.has(lb):
		if likeVerbs.has(lb) {
			out = append(out, newPiece("really", 1))
		} else {
			out = append(out, newPiece("actually", 1))
		}
	case la == "is" || la == "are" || la == "was" || la == "were":
		out = append(out, newPiece("actually", 1.5))
	case la == "never" && !stopwords.has(lb):
		out = append(out, newPiece("ever", 1)) // "I've never ever been…"
	case la == "every" && !stopwords.has(lb) && !timeNoun(lb) && !isNumber(lb) && lb != "single":
		out = append(out, newPiece("single", 1)) // "every single agatha christie novel", never "every single week"
	case (la == "the" || possessives.has(la)) && veryWords.has(lb):
		out = append(out, newPiece("very", 1)) // "for the very first time", "her very first baby"
	case la == "the" && localPlaces.has(lb):
		out = append(out, newPiece("local", 2)) // "at the local animal shelter"
	case (la == "a" || la == "the") && adjectives.has(lb) && !colours.has(lb) && !kindWords.has(lb):
		out = append(out, newPiece("really", 2)) // "a really big house", never "a really black lab"
	}
	// A filler goes where a person pauses: before a phrase ("in the
	// mornings, like, to see the sunset"), after a verb ("I drive, like, a
	// truck"). Never after a word that needs the next one ("in the, like,
	// army", "for a, like, watch dealer", "new kids on, like, the block")
	// and never inside a run of content words, which is a compound or a
	// name ("the insane, like, clown posse", "a red, like, pickup truck").
	cost := 4.0
	switch {
	case determiners.has(la) || la == "i" || objectPronouns.has(lb) || strings.ContainsAny(a[len(a)-1][len(a[len(a)-1])-1:], ",:?—"),
		isNumber(la) && isNumber(lb), particles.has(lb) && !objectPronouns.has(la), timeNoun(lb) && (la == "last" || la == "next" || la == "this"):
		return out // nor inside a number ("forty, like, five"), a phrasal verb ("gave, like, up") or a time ("last, like, year")
	case prepositionWords.has(la) || la == "to":
		cost = 7
	case !stopwords.has(la) && !stopwords.has(lb) && !determiners.has(lb) && !isNumber(lb) && !verbForm(la):
		if weekdays.has(strings.TrimSuffix(la, "s")) || dayParts.has(lb) {
			return out // a time: "every thursday, you know, night"
		}
		cost = 9
	case isNumber(lb):
		cost = 3 // "for, like, 15 years"
	}
	filler := newPiece(", like,", cost)
	filler.filler = true
	return append(out, filler)
}

// particles finish a phrasal verb: "give up", "work out", "tried out".
var particles = newSet("up out off down away back")

// verbForm guesses whether w is a verb a phrase may follow: a past tense,
// a verb of liking or having.
func verbForm(w string) bool {
	return pastVerbs.has(w) || likeVerbs.has(w) || dislikeVerbs.has(w) || haveVerbs.has(w) ||
		strings.HasSuffix(w, "ed") && len(w) > 4
}
