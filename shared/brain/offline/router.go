package offline

import (
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

// adjectivable words may take an adjective after them, which breaks a trigram.
var adjectivable = newSet("a an the my three two four five 2 3 4 5 some")

// unrefuse rewrites say, word by word, until the router would not refuse
// it: it swaps a word of a repeated trigram for a synonym, or puts an
// adjective after its determiner. It returns "" when it cannot.
func unrefuse(grams brain.Trigrams, say string) string {
	for range 6 {
		if !grams.Refuses(say) {
			return say
		}
		ws := strings.Fields(say)
		i := firstRefused(grams, ws)
		if i < 0 {
			return ""
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
		for j := i; j <= i+2 && !changed && j < len(ws)-1; j++ {
			if adjectivable.has(strings.ToLower(ws[j])) {
				ws = append(ws[:j+1], append([]string{"great"}, ws[j+1:]...)...)
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
