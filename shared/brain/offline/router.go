package offline

import (
	"slices"
	"strings"

	"github.com/duetbot/duet/shared/brain"
)

// The router rule (brain.Trigrams.Refuses) drops a reply that repeats a
// word trigram of the bot's profile; unrefuse rewords the bot's
// paraphrases until it does not.

// swaps are words the bot may say in place of a profile's to avoid
// repeating its trigrams: same meaning, different word.
var swaps = map[string]string{
	"father": "dad", "mother": "mom", "dad": "father", "mom": "mother", "parents": "folks",
	"favorite": "favourite", "favourite": "favorite", "children": "kids", "kids": "children",
	"love": "adore", "like": "enjoy", "enjoy": "like", "movies": "films", "films": "movies",
	"music": "tunes", "car": "ride", "house": "home", "home": "house", "job": "work",
	"big": "huge", "huge": "big", "small": "little", "little": "small", "dogs": "pups",
	"dog": "pup", "cats": "kitties", "cat": "kitty", "fields": "farmland", "friends": "pals",
	"husband": "hubby", "wife": "missus", "brother": "bro", "sister": "sis", "years": "yrs",
	"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
	"eight": "8", "nine": "9", "ten": "10", "twenty": "20",
	"food": "grub", "play": "enjoy playing", "read": "enjoy reading", "watch": "enjoy watching",
	"work": "am working", "live": "am living", "going": "heading", "go": "head",
	"tend": "look after", "very": "really", "really": "truly", "lot": "ton", "new": "brand-new", "old": "aged",
	"am": "am actually", "is": "is actually", "are": "are actually", "have": "have got", "has": "has got",
}

// phraseSwaps say two or three words another way, which changes how the
// router splits them: contractions both ways ("I'm" is "i m" to the
// router) and a few set phrases. Each is tried where a refused trigram
// starts or ends inside it.
var phraseSwaps = [][2]string{
	{"i am", "I'm"}, {"i'm", "I am"}, {"i have", "I've"}, {"i've", "I have"},
	{"i will", "I'll"}, {"i would", "I'd"}, {"do not", "don't"}, {"don't", "do not"},
	{"did not", "didn't"}, {"didn't", "did not"}, {"does not", "doesn't"}, {"doesn't", "does not"},
	{"is not", "isn't"}, {"isn't", "is not"}, {"was not", "wasn't"}, {"wasn't", "was not"},
	{"can not", "can't"}, {"cannot", "can't"}, {"can't", "cannot"}, {"it is", "it's"}, {"it's", "it is"},
	{"they are", "they're"}, {"we are", "we're"}, {"a lot of", "lots of"}, {"lots of", "a lot of"},
	{"want to", "would like to"}, {"going to", "about to"}, {"used to", "once used to"},
}

// adjectivable words may take an adjective after them, which breaks a
// trigram they start; the adjective each takes. "local" reads well after
// "the" for places ("the local animal shelter"), less so elsewhere ("the
// local treadmill"), which is still better than leaving the fact unsaid.
var adjectivable = map[string]string{
	"a": "great", "an": "great", "the": "local", "my": "own", "some": "good", "two": "great",
	"three": "great", "four": "great", "five": "great", "2": "great", "3": "great", "4": "great", "5": "great",
}

// unrefuse rewrites say, word by word, until the router would not refuse
// it: it says a contraction or set phrase of a repeated trigram the other
// way, swaps one of its words for a synonym, puts an adjective after its
// determiner, or writes its "and" as "&". It returns "" when it cannot.
func unrefuse(grams brain.Trigrams, say string) string {
	for range 12 {
		if !grams.Refuses(say) {
			return say
		}
		ws := strings.Fields(say)
		i := firstRefused(grams, ws)
		if i < 0 {
			return ""
		}
		if s, ok := swapPhrase(ws, i); ok {
			say = s
			continue
		}
		changed := false
		for j := i; j <= i+2 && j < len(ws) && !changed; j++ {
			low := strings.ToLower(strings.Trim(ws[j], ",.!?"))
			// "is" → "is actually" keeps "is" in place: it breaks a
			// trigram only when a word of the trigram follows it.
			if s, ok := swaps[low]; ok && (j < i+2 || !strings.HasPrefix(s, low+" ")) {
				ws[j] = strings.Replace(ws[j], strings.Trim(ws[j], ",.!?"), s, 1)
				changed = true
			}
		}
		// An adjective after a determiner breaks the trigram only when
		// the determiner is its first or second word.
		for j := i; j <= i+1 && !changed && j < len(ws)-1; j++ {
			low := strings.ToLower(ws[j])
			if adj, ok := adjectivable[low]; ok && !strings.EqualFold(ws[j+1], adj) {
				if low == "an" {
					ws[j] = ws[j][:1] // "an elementary" → "a great elementary"
				}
				ws = slices.Insert(ws, j+1, adj)
				changed = true
			}
		}
		for j := i + 1; j <= i+1 && !changed && j < len(ws)-1; j++ {
			if ws[j] == "and" {
				ws[j] = "&" // not a word to the router
				changed = true
			}
		}
		if !changed {
			return ""
		}
		say = strings.Join(ws, " ")
	}
	if grams.Refuses(say) {
		return ""
	}
	return say
}

// swapPhrase says the first phrase of phraseSwaps that overlaps the words
// ws[i:i+3] the other way, and returns the rewritten text.
func swapPhrase(ws []string, i int) (string, bool) {
	for _, ps := range phraseSwaps {
		n := strings.Count(ps[0], " ") + 1
		for k := max(0, i-n+1); k <= i+2 && k+n <= len(ws); k++ {
			if strings.EqualFold(strings.Join(ws[k:k+n], " "), ps[0]) {
				out := slices.Concat(ws[:k:k], []string{ps[1]}, ws[k+n:])
				return strings.Join(out, " "), true
			}
		}
	}
	return "", false
}

// firstRefused returns the index in ws of the first of the words of the
// first trigram the router would refuse, or -1.
func firstRefused(grams brain.Trigrams, ws []string) int {
	type pos struct {
		w   string
		idx int
	}
	var flat []pos
	for i, w := range ws {
		for _, r := range brain.RouterWords(w) {
			flat = append(flat, pos{r, i})
		}
	}
	for k := 0; k+3 <= len(flat); k++ {
		if grams.Has(flat[k].w + " " + flat[k+1].w + " " + flat[k+2].w) {
			return flat[k].idx
		}
	}
	return -1
}
