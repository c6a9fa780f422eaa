package offline

import (
	"hash/fnv"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// word is one token of a message with what the engine knows about it.
type word struct {
	orig    string // as written, possessive 's dropped
	low     string // lower case, apostrophes normalised, possessive 's dropped
	stem    string
	start   bool // first word of a sentence
	joined  bool // no punctuation between this word and the previous one
	stop    bool // function word, filler or light verb: never content
	real    bool // looks like a word (not a keyboard mash)
	content bool // real, not a stopword, long enough to carry meaning
	generic bool // content, but too common to be a topic
	acronym bool // TV, NASA
	upper   bool // written in capitals only
	proper  bool // capitalised in mid-sentence
	you     bool // addresses the other side: pronounYou
}

// text is an analysed message.
type text struct {
	words     []word
	wordCount int // tokens with a letter or digit
	realCount int
	content   int      // content words, with repeats
	stems     set      // stems of content words
	topics    set      // stems of non-generic content words
	tokens    set      // every lower-case word, for messages without content
	norm      string   // lower-case words joined by one space
	qmark     bool     // contains a question mark
	question  bool     // asks something
	addresses bool     // speaks to the other side ("you")
	sentences []string // the raw sentences, terminators kept
	hash      uint64   // FNV-1a of the text, for reply seeds
}

// apostrophes writes every apostrophe form as '.
var apostrophes = strings.NewReplacer("\u2019", "'", "\u2018", "'", "\u02bc", "'")

// curlyApostrophes are the forms apostrophes replaces.
const curlyApostrophes = "\u2019\u2018\u02bc"

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

func isApostrophe(r rune) bool { return r == '\'' || r == '\u2019' || r == '\u2018' || r == '\u02bc' }

// analyze tokenises s and classifies its words.
func analyze(s string) *text {
	t := &text{words: make([]word, 0, len(s)/5+1)}
	sentenceStart, joined := true, false
	sentenceFrom := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !isWordRune(r) {
			switch {
			case r == '?' || r == '.' || r == '!' || r == '\n':
				if r == '?' {
					t.qmark = true
				}
				if !sentenceStart {
					t.addSentence(s[sentenceFrom : i+size])
				}
				sentenceFrom = i + size
				sentenceStart, joined = true, false
			case unicode.IsSpace(r), r == '-':
			default:
				joined = false
			}
			i += size
			continue
		}
		if sentenceStart {
			sentenceFrom = i
		}
		j := i + size
		for j < len(s) {
			r2, sz := utf8.DecodeRuneInString(s[j:])
			if isWordRune(r2) {
				j += sz
				continue
			}
			if isApostrophe(r2) && j+sz < len(s) {
				if r3, _ := utf8.DecodeRuneInString(s[j+sz:]); unicode.IsLetter(r3) {
					j += sz
					continue
				}
			}
			break
		}
		t.words = append(t.words, newWord(s[i:j], sentenceStart, joined))
		sentenceStart, joined = false, true
		i = j
	}
	if !sentenceStart {
		t.addSentence(s[sentenceFrom:])
	}
	t.finish()
	h := fnv.New64a()
	io.WriteString(h, s)
	t.hash = h.Sum64()
	return t
}

func (t *text) addSentence(s string) {
	if s = strings.TrimSpace(s); s != "" {
		t.sentences = append(t.sentences, s)
	}
}

// misspellings are slips of typing read as the word meant: "do yuo have
// kidz?".
var misspellings = map[string]string{"yuo": "you", "kidz": "kids", "grandkidz": "grandkids", "maried": "married",
	"actve": "active", "excercise": "exercise", "studyin": "studying", "werk": "work", "teh": "the", "waht": "what"}

func newWord(orig string, start, joined bool) word {
	low := strings.ToLower(orig)
	if strings.ContainsAny(low, curlyApostrophes) { // Replace copies s even when it changes nothing
		low = apostrophes.Replace(low)
	}
	if m, ok := misspellings[low]; ok {
		low = m
	}
	w := word{orig: orig, low: low, start: start, joined: joined}
	// One lookup gives every word list low is in.
	class := lexicon[low]
	w.stop = class&inStopwords != 0
	if !w.stop && strings.HasSuffix(low, "'s") {
		w.low = low[:len(low)-2]
		w.orig = orig[:len(orig)-len("'s")]
		if strings.HasSuffix(orig, "\u2019s") {
			w.orig = orig[:len(orig)-len("\u2019s")]
		}
		class = lexicon[w.low]
		w.stop = class&inStopwords != 0
	}
	w.you = class&inPronounYou != 0
	letters, upper, n := 0, 0, 0
	for _, r := range w.orig {
		n++
		if unicode.IsLetter(r) {
			letters++
			if unicode.IsUpper(r) {
				upper++
			}
		}
	}
	w.upper = letters > 0 && upper == letters
	if letters == 0 {
		w.real = true // a number
		return w
	}
	w.real = w.stop || n == 1 || letters < n || !gibberishWord(w.low, class&inGibberishAllowed != 0)
	w.acronym = n >= 2 && n <= 5 && upper == n && w.low != "i" && !w.stop
	first, _ := utf8.DecodeRuneInString(w.orig)
	w.proper = !start && !w.acronym && !w.stop && unicode.IsUpper(first)
	w.content = w.real && !w.stop && (n >= 3 || w.acronym) && n <= 24
	w.generic = w.content && class&inGeneric != 0
	w.stem = stem(w.low)
	return w
}

// finish computes the message-level facts once the words are known.
func (t *text) finish() {
	shouting, long, capitalised, inner := 0, 0, 0, 0
	for _, w := range t.words {
		if len(w.low) < 2 {
			continue
		}
		long++
		if w.upper {
			shouting++
		}
		if !w.start {
			inner++
			if r, _ := utf8.DecodeRuneInString(w.orig); unicode.IsUpper(r) {
				capitalised++
			}
		}
	}
	// In a shouted or Title Case message capitals say nothing about nouns.
	if (long >= 2 && 2*shouting > long) || (inner >= 3 && 5*capitalised > 4*inner) {
		for i := range t.words {
			t.words[i].acronym, t.words[i].proper = false, false
			if len(t.words[i].low) < 3 {
				t.words[i].content, t.words[i].generic = false, false
			}
		}
	}
	var norm strings.Builder
	norm.Grow(8 * len(t.words))
	t.stems, t.topics, t.tokens = set{}, set{}, set{}
	for i, w := range t.words {
		t.wordCount++
		if w.real {
			t.realCount++
		}
		if w.content {
			t.content++
			t.stems.add(w.stem)
			if !w.generic {
				t.topics.add(w.stem)
			}
		}
		t.tokens.add(w.low)
		if w.you {
			t.addresses = true
		}
		if (i == 0 || w.start) && !t.question {
			next := ""
			if i+1 < len(t.words) && t.words[i+1].joined {
				next = t.words[i+1].low
			}
			t.question = questionStart(w.low, next)
		}
		if norm.Len() > 0 {
			norm.WriteByte(' ')
		}
		norm.WriteString(w.low)
	}
	t.question = t.question || t.qmark
	t.norm = norm.String()
}

// realRatio is the share of words that look like words; 0 for no words.
func (t *text) realRatio() float64 {
	if t.wordCount == 0 {
		return 0
	}
	return float64(t.realCount) / float64(t.wordCount)
}

// questionStart reports whether a sentence beginning with first, next asks
// something.
func questionStart(first, next string) bool {
	switch {
	case first == "when" || first == "where":
		return next == "" || auxWords.has(next) || next == "at" || next == "exactly" || next == "abouts"
	case first == "what" || first == "how":
		return !whStatement.has(next)
	case whWords.has(first):
		return true
	case auxWords.has(first):
		return subjects.has(next) && (next != "it" || (first != "do" && first != "don't"))
	}
	return false
}

// stem strips the commonest English inflections so that "wasps" meets
// "wasp" and "stinging" meets "stings": plural -s/-es/-ies, -ing, -ed and a
// final -e. It is deliberately light: both sides of a comparison go through
// it, so consistency matters more than linguistic truth.
func stem(w string) string {
	n := len(w)
	switch {
	case n <= 3:
		return w
	case n > 4 && strings.HasSuffix(w, "ies"):
		w = w[:n-3] + "y"
	case n > 5 && strings.HasSuffix(w, "ing"):
		w = undouble(w[:n-3])
	case n > 4 && strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed"):
		w = undouble(w[:n-2])
	case n > 4 && (strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes") ||
		strings.HasSuffix(w, "sses") || strings.HasSuffix(w, "xes")):
		w = w[:n-2]
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") &&
		!strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		w = w[:n-1]
	}
	if len(w) > 3 && strings.HasSuffix(w, "e") {
		w = w[:len(w)-1]
	}
	return w
}

// undouble turns "sitt" (from "sitting") into "sit", but keeps "fall" and
// "kiss".
func undouble(w string) string {
	n := len(w)
	if n >= 3 && w[n-1] == w[n-2] && !strings.ContainsRune("lsz", rune(w[n-1])) && isConsonant(w[n-1]) {
		return w[:n-1]
	}
	return w
}

func isConsonant(c byte) bool {
	return c >= 'a' && c <= 'z' && !strings.ContainsRune("aeiouy", rune(c))
}

// gibberish reports whether a lower-case word looks like a keyboard mash
// rather than a word: no vowel, a run of five consonants, a letter three
// times in a row, very few distinct letters, a letter pair English does not
// use, or four neighbouring keys of one keyboard row.
func gibberish(w string) bool { return gibberishWord(w, gibberishAllowed.has(w)) }

// gibberishWord is gibberish for a word whose membership of
// gibberishAllowed is known.
func gibberishWord(w string, allowed bool) bool {
	if len(w) < 3 || allowed {
		return false
	}
	if len(w) > 24 {
		return true
	}
	vowels, run, same := 0, 0, 1
	var seen [26]bool
	distinct := 0
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c < 'a' || c > 'z' {
			return false // accents, digits: not ours to judge
		}
		if !seen[c-'a'] {
			seen[c-'a'] = true
			distinct++
		}
		if isConsonant(c) {
			run++
			if run >= 5 {
				return true
			}
		} else {
			vowels++
			run = 0
		}
		if i > 0 {
			if c == w[i-1] {
				same++
				if same >= 3 {
					return true
				}
			} else {
				same = 1
			}
			if impossibleBigrams[w[i-1]-'a'][c-'a'] {
				return true
			}
		}
		// Every keyboard run lies in one row: a cheap test first spares
		// most of the set lookups.
		if i >= 3 && sameKeyboardRow(w[i-3:i+1]) && keyboardRuns.has(w[i-3:i+1]) {
			return true
		}
	}
	return vowels == 0 || (len(w) >= 5 && distinct <= 2)
}

// keyboardRow numbers the keyboard row of each letter a-z, from 1.
var keyboardRow = func() (rows [26]uint8) {
	for n, row := range keyboardRows {
		for i := 0; i < len(row); i++ {
			rows[row[i]-'a'] = uint8(n + 1)
		}
	}
	return rows
}()

// sameKeyboardRow reports whether the letters a-z of s are all in one
// keyboard row.
func sameKeyboardRow(s string) bool {
	r := keyboardRow[s[0]-'a']
	for i := 1; i < len(s); i++ {
		if keyboardRow[s[i]-'a'] != r {
			return false
		}
	}
	return true
}
