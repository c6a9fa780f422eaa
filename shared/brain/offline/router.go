package offline

import (
	"slices"
	"strconv"
	"strings"

	"github.com/duetbot/duet/shared/brain"
)

// The router rule (brain.Trigrams.Refuses) drops a reply that repeats a
// word trigram of the bot's profile; unrefuse rewords the bot's
// paraphrases until it does not.

// swaps are words the bot may say in place of a profile's to avoid
// repeating its trigrams: the same meaning in another word, another
// spelling or digits. None changes what a fact says.
var swaps = map[string]string{
	"father": "dad", "mother": "mom", "dad": "father", "mom": "mother", "parents": "folks",
	"grandmother": "grandma", "grandma": "grandmother", "grandfather": "grandpa", "grandpa": "grandfather",
	"favorite": "favourite", "favourite": "favorite", "color": "colour", "colour": "color", "colors": "colours",
	"colours": "colors", "gray": "grey", "grey": "gray", "children": "kids", "kids": "children",
	"love": "adore", "like": "enjoy", "enjoy": "like", "movies": "films", "films": "movies", "movie": "film",
	"film": "movie", "music": "tunes", "house": "home", "home": "house", "job": "work",
	"big": "huge", "huge": "big", "large": "big", "small": "little", "little": "small", "tiny": "little",
	"dogs": "pups", "dog": "pup", "cats": "kitties", "cat": "kitty", "fields": "farmland", "friends": "pals",
	"friend": "pal", "husband": "hubby", "brother": "bro", "sister": "sis", "years": "yrs", "tv": "television",
	"television": "tv", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
	"seven": "7", "eight": "8", "nine": "9", "ten": "10", "twenty": "20", "very": "really", "really": "truly",
	"lot": "ton", "lots": "tons", "want": "wanna", "going": "heading", "tend": "look after", "usa": "us",
	"america": "the us", "st": "saint", "mt": "mount", "okay": "ok", "ok": "okay", "mum": "mom", "pizza": "pizza pie", "together": "with each other",
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
	{"once a week", "every week"}, {"every week", "once a week"}, {"every day", "daily"}, {"a lot", "loads"},
	{"all the time", "constantly"}, {"on the weekends", "at the weekend"},
	{"in my spare time", "when I have spare time"}, {"in my free time", "when I'm free"},
	{"for a living", "as a job"}, {"a few", "several"}, {"a couple of", "two"}, {"as a hobby", "for a hobby"},
	{"a bit", "slightly"}, {"each month", "every month"}, {"twice a", "two times a"}, {"so much", "a ton"},
	{"plan to", "intend to"}, {"hope to", "hope I can"}, {"to go to", "to visit"}, {"go to the gym", "hit the gym"},
	{"go to", "head to"}, {"to be a", "to become a"}, {"studying to be", "training to be"}, {"trying to", "attempting to"},
	{"spare time", "free time"}, {"free time", "spare time"}, {"most days", "on most days"}, {"every year", "each year"},
	{"each year", "every year"}, {"a year", "per year"}, {"a week", "per week"}, {"a day", "per day"},
	{"too much", "way too much"}, {"a little", "a bit"}, {"grew up", "was raised"}, {"was raised", "grew up"},
	{"on sundays", "every sunday"}, {"on saturdays", "every saturday"}, {"on mondays", "every monday"},
	{"on fridays", "every friday"}, {"on weekends", "every weekend"}, {"every thursday night", "on thursday nights"},
	{"every friday night", "on friday nights"}, {"every saturday night", "on saturday nights"}, {"every sunday night", "on sunday nights"},
	{"every monday night", "on monday nights"}, {"every tuesday", "on tuesdays"}, {"every wednesday", "on wednesdays"},
	{"every thursday", "on thursdays"}, {"every friday", "on fridays"}, {"every saturday", "on saturdays"}, {"every sunday", "on sundays"},
	{"every monday", "on mondays"}, {"broke up", "split up"}, {"looking for", "searching for"}, {"passed away", "died"}, {"at home", "home"},
	{"a taxi", "a cab"}, {"the streets of", "the roads of"}, {"die hard", "diehard"}, {"once a month", "every month"}, {"every month", "each month"},
	{"when i was a kid", "as a kid"}, {"when i was little", "as a little kid"}, {"when i was young", "in my youth"}, {"when i was", "at age"},
	{"to become a", "to be a"}, {"to become an", "to be an"}, {"by myself", "on my own"}, {"at all times", "all the time"}, {"stand up comedian", "standup comedian"},
	{"stand up comedy", "standup comedy"}, {"a hundred", "100"}, {"one hundred", "100"}, {"a thousand", "1000"},
}

// phraseEntry is a phrase of phraseSwaps or chatPhrases in lower-case
// words, with its index in the two lists one after the other.
type phraseEntry struct {
	words []string
	i     int
}

// swapPhrasesByFirst are phraseSwaps and chatPhrases by their first
// word, each word's in the lists' order. Rendering a profile looks a
// phrase up at every word of every paraphrase; by the first word, a
// chat's start (BenchmarkChatStart, billed on every chat's first message)
// takes 0.8 ms, not 1.9 ms as scanning every phrase did.
var swapPhrasesByFirst = map[string][]phraseEntry{}

func init() {
	// A number of two words is said in digits, never a word at a time
	// ("20 five"): "twenty five years" → "25 years".
	tens := []string{"twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"}
	units := []string{"one", "two", "three", "four", "five", "six", "seven", "eight", "nine"}
	for t, ten := range tens {
		for u, unit := range units {
			phraseSwaps = append(phraseSwaps, [2]string{ten + " " + unit, strconv.Itoa(10*(t+2) + u + 1)})
		}
	}
	// "three hundred ewes" → "300 ewes"
	for u, unit := range units[1:] {
		phraseSwaps = append(phraseSwaps, [2]string{unit + " hundred", strconv.Itoa(100 * (u + 2))})
	}
	for i, ps := range slices.Concat(phraseSwaps, chatPhrases) {
		ws := strings.Fields(strings.ToLower(ps[0]))
		swapPhrasesByFirst[ws[0]] = append(swapPhrasesByFirst[ws[0]], phraseEntry{ws, i})
	}
}

// phrasesAt returns the set phrases whose first word is ws[k].
func phrasesAt(ws []string, k int) []phraseEntry { return swapPhrasesByFirst[strings.ToLower(ws[k])] }

// softeners may stand before a verb or an adjective without changing what
// a sentence says: "I live in" → "I actually live in".
var softeners = map[string]string{
	"i": "actually", "am": "actually", "is": "actually", "are": "actually", "was": "actually", "were": "actually",
	"will": "actually", "can": "actually", "do": "really", "my": "own", "a": "really", "an": "really", "the": "very",
}

// prepositions said at more length, which puts a word between a
// preposition and the word before it: "live in" → "live over in".
var prepositions = map[string]string{
	"in": "over in", "at": "over at", "on": "over on", "with": "along with", "from": "all the way from",
	"near": "close to", "by": "right by",
}

// ownPrepositions are words that take their own preposition, never a
// longer one: "interested in", "pregnant with", "afraid of".
var ownPrepositions = newSet(`interested pregnant involved good bad great fluent married engaged afraid scared terrified
proud fond tired sick believe rely depend succeed specialize participate major majoring degree moved went go
goes going come comes came fell fall get got along together friends up out`)

// unrefuse rewrites say until the router would not refuse it: it says a
// contraction or set phrase of a repeated trigram the other way, swaps a
// word of it for one of the same meaning, puts a softener ("actually")
// or a longer preposition inside it, or writes its "and" as "&". It never
// drops a word of the fact, and returns "" when it cannot.
func unrefuse(grams brain.Trigrams, say string) string {
	return unrefuseHolding(grams, say, nil)
}

// unrefuseHolding is unrefuse that leaves the phrases held (names, set
// phrases: heldPhrases) as they are: nothing inside them or between
// their words.
func unrefuseHolding(grams brain.Trigrams, say string, held []string) string {
	for range 16 {
		if !grams.Refuses(say) {
			return say
		}
		ws := strings.Fields(say)
		i := firstRefused(grams, ws)
		if i < 0 {
			return ""
		}
		spans := nameSpans(ws, held)
		if s, ok := swapPhrase(ws, i, spans); ok && s != say {
			say = s
			continue
		}
		if s, ok := reword(ws, i, spans); ok {
			say = s
			continue
		}
		return ""
	}
	if grams.Refuses(say) {
		return ""
	}
	return say
}

// reword changes one word of the refused trigram starting at ws[i], the
// way that least changes the sentence.
func reword(ws []string, i int, spans []int) (string, bool) {
	low := func(j int) string { return strings.ToLower(strings.Trim(ws[j], ",.!?")) }
	end := min(i+2, len(ws)-1)
	// A softener or a longer preposition between two words of the trigram.
	for j := i + 1; j <= end; j++ {
		if p, ok := prepositions[low(j)]; ok && !inName(spans, j) && !insideName(spans, j-1) && !ownPrepositions.has(low(j-1)) && (low(j) != "from" || low(j-1) == "am" || low(j-1) == "is") &&
			j+1 < len(ws) && (determiners.has(low(j+1)) || !stopwords.has(low(j+1))) && !saysWhen(ws[j+1:]) {
			ws[j] = p
			return strings.Join(ws, " "), true
		}
	}
	for j := i; j < end; j++ {
		next := low(j + 1)
		if soft, ok := softeners[low(j)]; ok && !insideName(spans, j) && next != soft && !determiners.has(next) && prepositions[next] == "" && (!stopwords.has(next) || low(j) == "i") {
			if determiners.has(low(j)) && low(j) != "my" && (!adjective(next) || kindWords.has(next) || colours.has(next) || intentOf(next) != 0) {
				continue // "a really big house", never "a really house", "a really single dad" or "a really music teacher"
			}
			if low(j) == "the" && !veryWords.has(next) {
				continue // "the very best", never "the very animal shelter"
			}
			if low(j) == "i" && j+2 < len(ws) && afterAuxiliary(next, low(j+2)) && !insideName(spans, j+1) {
				j++ // "I was actually born", never "I actually was born"
			}
			if low(j) == "an" {
				ws[j] = ws[j][:1] // "an old" → "a really old"
			}
			return strings.Join(slices.Insert(ws, j+1, soft), " "), true
		}
	}
	fits := func(j int) bool { // the words beside j, within its phrase
		prev, next := "", ""
		if j > 0 && !strings.ContainsAny(ws[j-1], ",:?") {
			prev = low(j - 1)
		}
		if j+1 < len(ws) && !strings.ContainsAny(ws[j], ",:?") {
			next = low(j + 1)
		}
		return !inName(spans, j) && swapFits(prev, low(j), next)
	}
	for j := i; j <= end; j++ {
		if s, ok := swaps[low(j)]; ok && fits(j) {
			ws[j] = strings.Replace(ws[j], strings.Trim(ws[j], ",.!?"), s, 1)
			return strings.Join(ws, " "), true
		}
		if d := digits[low(j)]; d != "" && low(j) != "hundred" && !inName(spans, j) {
			ws[j] = strings.Replace(ws[j], low(j), d, 1) // "lose fifty pounds" → "lose 50 pounds"
			return strings.Join(ws, " "), true
		}
		// A possessive keeps its mark: "children's" → "kids'".
		if w, ok := strings.CutSuffix(low(j), "'s"); ok && swaps[w] != "" && !modifierNouns.has(w) && !inName(spans, j) {
			s := swaps[w] + "'s"
			if strings.HasSuffix(swaps[w], "s") {
				s = swaps[w] + "'"
			}
			ws[j] = s
			return strings.Join(ws, " "), true
		}
	}
	for j := i + 1; j <= end && j < len(ws)-1; j++ {
		if ws[j] == "and" {
			ws[j] = "&" // not a word to the router; in a name too: "pride & prejudice"
			return strings.Join(ws, " "), true
		}
	}
	// "the train station" → "the local train station": a place one goes to
	// is the local one.
	for j := i; j < end; j++ {
		if (low(j) == "the" || low(j) == "a") && !inName(spans, j+1) && (places.has(low(j+1)) || j+2 < len(ws) && places.has(low(j+2)) && !stopwords.has(low(j+1))) {
			return strings.Join(slices.Insert(ws, j+1, "local"), " "), true
		}
	}
	// A title's article, when nothing else breaks the trigram: "the lion
	// king is my top movie" as chat types it, "lion king is…". A compound
	// keeps it: never "join air force".
	for j := i; j <= end && j+1 < len(ws); j++ {
		if low(j) == "the" && inName(spans, j+1) && !compoundAt(ws, spans, j+1) {
			return strings.Join(slices.Delete(ws, j, j+1), " "), true
		}
	}
	return "", false
}

// compoundAt reports whether the name said from field j on is a
// compound noun ("air force"), not a title.
func compoundAt(ws []string, spans []int, j int) bool {
	var name []string
	for k := j; k < len(ws) && spans[k] == spans[j]; k++ {
		name = append(name, strings.ToLower(trimPunct(ws[k])))
	}
	return len(compounds.in(" "+strings.Join(name, " ")+" ")) > 0
}

// swapPhrase says the first phrase of phraseSwaps that overlaps the words
// ws[i:i+3] the other way, and returns the rewritten text.
func swapPhrase(ws []string, i int, spans []int) (string, bool) {
	best, at := len(phraseSwaps), 0 // the first phrase in the list's order, at its first place
	for k := max(0, i-3); k <= i+2 && k < len(ws); k++ {
		for _, sp := range phrasesAt(ws, k) {
			n := len(sp.words)
			if sp.i >= best || sp.i >= len(phraseSwaps) || k < i-n+1 || k+n > len(ws) {
				continue
			}
			if equalFoldWords(ws[k:k+n], sp.words) && phraseFits(phraseSwaps[sp.i][0], lowerAt(ws, k-1), lowerAt(ws, k+n)) &&
				!slices.ContainsFunc(spans[min(k, len(spans)):min(k+n, len(spans))], func(s int) bool { return s != 0 }) {
				best, at = sp.i, k
			}
		}
	}
	if best == len(phraseSwaps) {
		return "", false
	}
	ps, n := phraseSwaps[best], len(strings.Fields(phraseSwaps[best][0]))
	return strings.Join(slices.Concat(ws[:at:at], []string{ps[1]}, ws[at+n:]), " "), true
}

// equalFoldWords reports whether a and b are the same words, ignoring case.
func equalFoldWords(a, b []string) bool {
	for i := range b {
		if !strings.EqualFold(a[i], b[i]) {
			return false
		}
	}
	return true
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

// lowerAt is ws[i] in lower case without its punctuation, "" past an end.
func lowerAt(ws []string, i int) string {
	if i < 0 || i >= len(ws) {
		return ""
	}
	return strings.ToLower(trimPunct(ws[i]))
}

// saysWhen reports whether ws, after a preposition, say when or how soon
// ("in 3 months", "on the weekends"), which a longer preposition would
// make a place: never "over in 3 months".
func saysWhen(ws []string) bool {
	w := lowerAt(ws, 0)
	if determiners.has(w) {
		w = lowerAt(ws, 1)
	}
	return isNumber(w) || timeNoun(w) || seasons.has(w) || habitual(w) && w != "the" && w != "my" || w == "about" || w == "a"
}

// afterAuxiliary reports whether a softener after "I" goes after the
// verb aux instead, which next follows: "I was actually born", "I've
// actually been", "I can actually swim"; but "I actually have red hair".
func afterAuxiliary(aux, next string) bool {
	switch aux {
	case "am", "was", "will", "can", "could", "would":
		return !stopwords.has(next) || next == "been" || next == "be"
	case "have", "had":
		return participle(next) && next != "to" && next != "not"
	}
	return false
}
