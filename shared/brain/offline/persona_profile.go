package offline

import (
	"slices"
	"strings"

	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/embed"
)

// profile is the person the bot plays in a ConvAI2 chat: the sentences the
// router sends after /start ("i like to ride horses.\ni help tend the
// fields."), analysed once per chat into facts the bot can state in its own
// words.
type profile struct {
	facts []fact
	// unsaid are the facts the bot cannot say without repeating the
	// profile or losing part of them: a question one of them answers best
	// gets no other fact in its place (answers).
	unsaid []fact
	router brain.Trigrams // the profile's trigrams as the ConvAI2 router reads them
	index  map[string]int // the sentence of each paraphrase: its fact
	// cutting is set while partSays reads the parts of a sentence.
	cutting bool
}

// fact is one sentence of a profile.
type fact struct {
	source string   // the profile sentence, lower case
	words  []string // its words, as strings.Fields splits it
	// says are the ways the bot states the fact: first-person rewrites of
	// the sentence, without final punctuation, none sharing a word trigram
	// with the profile as the router reads it, each keeping the whole fact
	// (keeps). At least one.
	says      []string
	sentences []string // says as sentences, for replies
	stems     set      // stems of the sentence's content words
	cats      category // what questions the fact answers
	neg       bool     // a dislike or a negation: "i hate cats", "i don't eat meat"
	wish      bool     // an aspiration, not a fact yet: "i want to be a lawyer"
	past      []string // an activity told in the past tense, for "what did you do last weekend?"
	kin       int      // the kinds of family it names (kinOf)
	known     set      // the kinds its known things are of (knownAs): "baseball" for the yankees
	verb      string   // the verb after "i", likes as "like": "have", "like", "work"
	part      bool     // said in part, as no rendering keeps the whole (partSays)
}

// firstPerson are the words of a sentence about oneself: a profile's
// sentences speak of "i", "my" or "we" somewhere, a paragraph's seldom.
var firstPerson = newSet("i my me mine myself i'm i've we our us")

// ownWords make a sentence the bot's own, said as it is when reworded.
var ownWords = newSet("i my me our we")

// maxFacts bounds the facts of a profile; the router sends four or five.
const maxFacts = 24

// parseProfile returns the profile s describes, or nil when s is not a
// profile but a text to discuss (the 2017 server's paragraph). A profile is
// at least two short sentences, most of them in the first person, whether
// or not the bot can say its facts without repeating it.
func parseProfile(s string) *profile {
	sentences := profileSentences(s)
	if len(sentences) < 2 || len(sentences) > 12 {
		return nil
	}
	first := 0
	for _, ws := range sentences {
		if len(ws) > 25 {
			return nil
		}
		if slicesHasAny(ws, firstPerson) {
			first++ // "i am a nurse", "shellfish makes my throat swell up"
		}
	}
	if 2*first < len(sentences) {
		return nil
	}
	p := &profile{router: brain.ProfileTrigrams(s)}
	for _, ws := range sentences {
		f, ok := p.newFact(ws)
		switch {
		case ok && len(p.facts) < maxFacts:
			p.facts = append(p.facts, f)
		case !ok:
			p.unsaid = append(p.unsaid, f)
		}
	}
	// A profile whose facts the bot cannot say without repeating it is
	// still a profile: the bot plays it with questions and the persona's
	// small talk, never with the paragraph replies, which quote the
	// context and would be refused by the router.
	p.index = map[string]int{}
	for i := range p.facts {
		f := &p.facts[i]
		for _, s := range f.says {
			f.sentences = append(f.sentences, sentence(s))
			p.index[sentence(s)] = i
		}
		for _, s := range f.past {
			p.index[sentence(s)] = i
		}
	}
	return p
}

// profileSentences splits a profile into sentences of lower-case words,
// contractions expanded ("i'm" is "i am").
func profileSentences(s string) [][]string {
	var out [][]string
	for line := range strings.SplitSeq(s, "\n") {
		for _, part := range splitSentences(line) {
			if ws := tokens(part); len(ws) > 0 {
				out = append(out, reorder(ws)...)
			}
		}
	}
	return out
}

// reorder puts a profile sentence in the shape the paraphrases start from,
// "i …" or "my …", where it can: it drops a greeting ("hello i just
// moved"), turns "knitting is my passion" into "my passion is knitting",
// moves a leading phrase to the end ("in my free time i like…") and splits
// "i am a vegan and i love hummus" in two.
func reorder(ws []string) [][]string {
	for len(ws) > 2 && greetings.has(ws[0]) {
		ws = ws[1:]
	}
	// A slip of the keyboard for "i": "l also love comics", "a already
	// have kids" ("a" never stands before an adverb or a verb of being or
	// having).
	if len(ws) > 2 && (ws[0] == "l" || ws[0] == "a" && (adverbs.has(ws[1]) || ws[1] == "already" || ws[1] == "am" || ws[1] == "have")) {
		ws = slices.Concat([]string{"i"}, ws[1:])
	}
	if ws[0] != "i" && ws[0] != "my" {
		for k := 1; k+2 < len(ws); k++ {
			if (ws[k] == "is" || ws[k] == "are") && ws[k+1] == "my" {
				return [][]string{slices.Concat([]string{"my"}, ws[k+2:], []string{ws[k]}, ws[:k])}
			}
		}
		for k := 2; k < min(len(ws)-2, 6); k++ {
			// "when i grow up i want…": the phrase is "when i grow up", never "when"
			if ws[k] == "i" && boundaries.has(ws[0]) {
				return [][]string{slices.Concat(ws[k:], ws[:k])}
			}
		}
		return [][]string{ws}
	}
	for k := 2; k+2 < len(ws); k++ {
		if ws[k] != "and" && ws[k] != "but" {
			continue
		}
		switch next := ws[k+1]; {
		case next == "i" && k+2 < len(ws) && (ws[k+2] == "are" || ws[k+2] == "were" || pairSubject(ws[:k])):
			// "my family and i are from india", "my wife and i have five
			// children": one subject, one sentence
		case next == "i":
			return append([][]string{ws[:k]}, reorder(ws[k+1:])...)
		case adverbs.has(next) && k+3 < len(ws) && ws[k+2] == "i":
			// "… but now i am a housekeeper" → "i now am a housekeeper",
			// which the paraphrases say "I'm now a housekeeper"
			return append([][]string{ws[:k]}, reorder(slices.Concat([]string{"i", next}, ws[k+3:]))...)
		case ws[0] == "i" && (likeVerbs.has(next) || haveVerbs.has(next) || next == "am"):
			return append([][]string{ws[:k]}, reorder(slices.Concat([]string{"i"}, ws[k+1:]))...)
		}
	}
	return [][]string{ws}
}

// greetings open a sentence without saying anything.
var greetings = newSet("hello hi hey well so yes oh now also and but")

// splitSentences splits a line at sentence ends.
func splitSentences(line string) []string {
	var out []string
	from := 0
	for i, r := range line {
		if (r == '.' || r == '!' || r == '?') && endsSentence(line, i) {
			out = append(out, line[from:i])
			from = i + 1
		}
	}
	return append(out, line[from:])
}

// abbreviations end in a period that ends no sentence: "st. mary's".
var abbreviations = newSet("st dr mr mrs ms jr sr mt ft")

// endsSentence reports whether the mark at s[i] ends a sentence: not the
// period of "st. mary's" nor of "2.5".
func endsSentence(s string, i int) bool {
	if s[i] != '.' {
		return true
	}
	if i > 0 && i+1 < len(s) && isDigit(s[i-1]) && isDigit(s[i+1]) {
		return false
	}
	j := i
	for j > 0 && ('a' <= s[j-1] && s[j-1] <= 'z' || 'A' <= s[j-1] && s[j-1] <= 'Z') {
		j--
	}
	return !abbreviations.has(strings.ToLower(s[j:i]))
}

func isDigit(b byte) bool { return '0' <= b && b <= '9' }

// contractions are expanded before trigrams are compared, so that "I'm a
// nurse" and "i am a nurse" count as the same words.
var contractions = map[string][]string{
	"i'm": {"i", "am"}, "im": {"i", "am"}, "i've": {"i", "have"}, "ive": {"i", "have"},
	"i'd": {"i", "would"}, "i'll": {"i", "will"}, "don't": {"do", "not"}, "dont": {"do", "not"},
	"doesn't": {"does", "not"}, "didn't": {"did", "not"}, "can't": {"can", "not"},
	"cannot": {"can", "not"}, "cant": {"can", "not"}, "won't": {"will", "not"},
	"isn't": {"is", "not"}, "aren't": {"are", "not"}, "wasn't": {"was", "not"},
	"it's": {"it", "is"}, "that's": {"that", "is"}, "we're": {"we", "are"},
	"they're": {"they", "are"}, "you're": {"you", "are"}, "haven't": {"have", "not"},
	"you've": {"you", "have"}, "we've": {"we", "have"},
}

// tokens returns the lower-case words of s as embed.Words splits them
// (apostrophes kept inside words, every apostrophe form read as '), with
// contractions expanded.
func tokens(s string) []string {
	var out []string
	for _, w := range embed.Words(apostrophes.Replace(s)) {
		if e, ok := contractions[w]; ok {
			out = append(out, e...)
			continue
		}
		out = append(out, w)
	}
	return out
}

// newFact analyses one profile sentence, ws, into a fact with its
// paraphrases.
func (p *profile) newFact(ws []string) (fact, bool) {
	f := fact{source: strings.Join(ws, " "), words: slices.Clone(ws), stems: set{}}
	t := analyze(strings.Join(ws, " "))
	for _, w := range t.words {
		if w.content {
			f.stems.add(w.stem)
		}
	}
	f.cats, f.wish = factIntents(ws)
	f.kin = kinOf(ws)
	f.known = knownAs(f.source, f.cats)
	// plain are the paraphrases that say the sentence in its own order,
	// which the last resort may break (brokenSays); the others move its
	// parts and read badly broken.
	var says, plain []string
	switch {
	case ws[0] == "i" && len(ws) >= 3:
		says, f.neg = p.firstPerson(ws[1:], &f.cats)
		plain = slices.Clone(says)
		f.verb = mainVerb(ws[1:])
		says = append(says, tailFirst(ws)...)
		rest := ws[1:]
		for len(rest) > 2 && adverbs.has(rest[0]) {
			rest = rest[1:]
		}
		if !f.neg {
			says = append(says, clefts(rest[0], rest[1:])...)
			says = append(says, objectFirst(ws[1:])...)
			says = append(says, placeFirst(ws)...)
			if rest[0] == "am" {
				says = append(says, compoundNoun(rest[1:])...)
			}
		}
		says = append(says, reshapes(rest)...)
		if y := yearsAs(ws); y != "" {
			says = append(says, y)
		}
	case weSentence(ws):
		subject, rest, _ := weSubject(ws)
		says = weSays(subject, rest)
		plain = says
		f.verb = mainVerb(rest)
		f.neg = slices.Contains(rest, "not") || slices.Contains(rest, "never")
	case ws[0] == "my" && len(ws) >= 3:
		kin := kinFirst(ws[1:])
		plain = append(possessive(ws[1:]), kin[:min(len(kin), 1)]...)
		says = append(slices.Clone(plain), kin[min(len(kin), 1):]...)
	default:
		says = livesWithMe(ws)
		if !slicesHasAny(ws, firstPerson) {
			// "metallica is the greatest band ever": the bot's own view
			says = append(says, "for me, "+strings.Join(ws, " "))
		}
		plain = says
	}
	// Every paraphrase is reworded until the router would not refuse it
	// (no trigram of the profile) and kept only when it keeps the whole
	// fact; the sentence itself, reworded, comes last.
	if slicesHasAny(ws, ownWords) {
		says = append(says, strings.Join(ws, " "))
	}
	for _, s := range says {
		if a := adjectivesAfter(s); a != "" {
			says = append(says, a)
		}
		if a := adjectiveOne(s); a != "" {
			says = append(says, a)
		}
		for _, a := range []string{fromPlace(s), nameFirst(s), ofTheWhole(s), placeOwnsPart(s), whichOne(s), staysAtHome(s), allIEver(s), nameIs(s)} {
			if a != "" {
				says = append(says, a)
			}
		}
	}
	ns := keptPhrases(ws)
	held := heldPhrases(ws, ns)
	for _, s := range says {
		s = unrefuseHolding(p.router, capitalI(synonymsIn(s, held)), held)
		if s != "" && keeps(ws, s) && !tokensEqual(s, f.source) && !slices.Contains(f.says, s) && !repeatsSoftener(ws, s) && keepsNames(ns, s) {
			f.says = append(f.says, s)
		}
	}
	if len(f.says) == 0 {
		f.says = brokenSays(p.router, ws, f.source, plain, says)
	}
	if len(f.says) == 0 {
		f.says = p.partSays(ws)
		f.part = len(f.says) > 0
	}
	byNaturalness(ws, f.says)
	f.past = pastActivity(p.router, ws)
	if len(f.says) == 0 {
		return f, false // unsayable without repeating the profile or losing part of it
	}
	return f, true
}

// tokensEqual reports whether a and b are the same words, contractions
// expanded: a paraphrase that is its sentence pasted.
func tokensEqual(a, b string) bool {
	return strings.Join(tokens(a), " ") == strings.Join(tokens(b), " ")
}

// boundaries start a clause or a prepositional phrase: a sentence cut
// before one still reads whole.
var boundaries = newSet(`in with and while at on because since when so but from by
as every after before during about like than`)

// danglers are words a shortened sentence must not end with.
var danglers = newSet(`a an the my your his her their our its to of for in on at
with and or but as from by is am are was were be been i that this who which
very so some any every no not i'm i've i'd`)

// capitalI writes the pronoun "i" as "I".
func capitalI(s string) string {
	ws := strings.Fields(s)
	for i, w := range ws {
		switch w {
		case "i":
			ws[i] = "I"
		case "i'm", "i've", "i'd", "i'll":
			ws[i] = "I" + w[1:]
		}
	}
	return strings.Join(ws, " ")
}
