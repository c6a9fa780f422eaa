package offline

import (
	"slices"
	"strings"
	"unicode"

	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/embed"
)

// profile is the person the bot plays in a ConvAI2 chat: the sentences the
// router sends after /start ("i like to ride horses.\ni help tend the
// fields."), analysed once per chat into facts the bot can state in its own
// words.
type profile struct {
	facts    []fact
	trigrams set            // word trigrams of the profile, for pasteCount
	router   brain.Trigrams // the profile's trigrams as the ConvAI2 router reads them
	index    map[string]int // the sentence of each paraphrase: its fact
}

// fact is one sentence of a profile.
type fact struct {
	source string // the profile sentence, lower case
	// says are the ways the bot states the fact: first-person rewrites of
	// the sentence, without final punctuation, none sharing more than
	// maxPasted word trigrams with the profile. At least one.
	says      []string
	sentences []string // says as sentences, for replies
	stems     set      // stems of the sentence's content words
	cats      category // what questions the fact answers
	neg       bool     // a dislike or a negation: "i hate cats", "i don't eat meat"
	verb      string   // the verb after "i", likes as "like": "have", "like", "work"
}

// maxFacts bounds the facts of a profile; the router sends four or five.
const maxFacts = 24

// maxPasted is the most word trigrams of its profile a paraphrase may
// repeat. The ConvAI2 router flags bot messages that repeat many.
const maxPasted = 2

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
		if ws[0] == "i" || ws[0] == "my" {
			first++
		}
	}
	if 2*first < len(sentences) {
		return nil
	}
	p := &profile{trigrams: set{}, router: brain.ProfileTrigrams(s)}
	for _, ws := range sentences {
		for i := 0; i+3 <= len(ws); i++ {
			p.trigrams.add(ws[i] + " " + ws[i+1] + " " + ws[i+2])
		}
	}
	for _, ws := range sentences {
		if f, ok := p.newFact(ws); ok && len(p.facts) < maxFacts {
			p.facts = append(p.facts, f)
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
	if ws[0] != "i" && ws[0] != "my" {
		for k := 1; k+2 < len(ws); k++ {
			if ws[k] == "is" && ws[k+1] == "my" {
				return [][]string{slices.Concat([]string{"my"}, ws[k+2:], []string{"is"}, ws[:k])}
			}
		}
		for k := 1; k < min(len(ws)-2, 6); k++ {
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
		case next == "i":
			return append([][]string{ws[:k]}, reorder(ws[k+1:])...)
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
		if r == '.' || r == '!' || r == '?' {
			out = append(out, line[from:i])
			from = i + 1
		}
	}
	return append(out, line[from:])
}

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

// pasteCount counts the word trigrams of s that are also trigrams of the
// profile.
func (p *profile) pasteCount(s string) int {
	ws := tokens(s)
	n := 0
	for i := 0; i+3 <= len(ws); i++ {
		if p.trigrams.has(ws[i] + " " + ws[i+1] + " " + ws[i+2]) {
			n++
		}
	}
	return n
}

// newFact analyses one profile sentence, ws, into a fact with its
// paraphrases.
func (p *profile) newFact(ws []string) (fact, bool) {
	f := fact{source: strings.Join(ws, " "), stems: set{}}
	t := analyze(strings.Join(ws, " "))
	for _, w := range t.words {
		if w.content {
			f.stems.add(w.stem)
		}
		f.cats |= categoryOf(w.low)
	}
	var says []string
	switch {
	case ws[0] == "i" && len(ws) >= 3:
		says, f.neg = p.firstPerson(ws[1:], &f.cats)
		f.verb = mainVerb(ws[1:])
	case ws[0] == "my" && len(ws) >= 3:
		says = possessive(ws[1:])
	}
	// Keep the rewrites that repeat at most maxPasted trigrams; failing
	// those, the least pasted one, cut to its first clause.
	best, bestN := "", -1
	for _, s := range says {
		s = capitalI(synonyms.Replace(s))
		n := p.pasteCount(s)
		if n > maxPasted {
			if cut := shorten(s, func(s string) bool { return p.pasteCount(s) <= maxPasted }); cut != "" && (strings.HasPrefix(cut, "I") || strings.HasPrefix(cut, "my ")) {
				s, n = cut, p.pasteCount(cut)
			}
		}
		if n <= maxPasted {
			f.says = append(f.says, s)
		}
		if bestN < 0 || n < bestN {
			best, bestN = s, n
		}
	}
	// The router refuses a message that repeats any trigram of the
	// profile: reword each paraphrase until it does not, or drop it.
	kept := f.says[:0]
	for _, s := range f.says {
		if s = unrefuse(p.router, s); s != "" && !slices.Contains(kept, s) {
			kept = append(kept, s)
		}
	}
	f.says = kept
	if len(f.says) == 0 {
		// Nothing was kept: the least pasted rewrite, reworded for the
		// router, when it can be.
		if best = unrefuse(p.router, best); best == "" {
			return f, false // neither "i …" nor "my …", or unsayable: left unsaid
		}
		f.says = append(f.says, best)
	}
	return f, true
}

// shorten cuts s at clause boundaries ("for", "with", "while"…), last
// first, until ok holds; "" when nothing of substance is left.
func shorten(s string, ok func(string) bool) string {
	ws := strings.Fields(s)
	for n := len(ws) - 1; n >= 4; n-- { // "I was born" says too little
		if !boundaries.has(strings.ToLower(ws[n])) {
			continue
		}
		cut := ws[:n]
		if end := strings.ToLower(cut[len(cut)-1]); danglers.has(end) || strings.HasSuffix(end, "ing") {
			continue // "I'm a fan of going", "right now I'm working"
		}
		if c := strings.Join(cut, " "); ok(c) {
			return c
		}
	}
	return ""
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

// Verbs by what a sentence with them says.
var (
	likeVerbs    = newSet("like love enjoy adore")
	dislikeVerbs = newSet("hate dislike detest")
	haveVerbs    = newSet("have has had own")
	auxiliaries  = newSet("have has had can could will would am was do did")
	adverbs      = newSet(`really also just still always never usually often sometimes
currently actually recently once mostly totally definitely`)
)

// firstPerson rewrites the rest of an "i …" sentence (rest follows "i")
// into first-person paraphrases. It adds what it learns to cats.
func (p *profile) firstPerson(rest []string, cats *category) (says []string, neg bool) {
	var adv string
	for len(rest) > 2 && adverbs.has(rest[0]) {
		adv, rest = rest[0], rest[1:]
	}
	if len(rest) > 2 && rest[0] == "do" && likeVerbs.has(rest[1]) {
		rest = rest[1:] // "i do like…"
	}
	v, obj := rest[0], rest[1:]
	objS := strings.Join(obj, " ")
	switch {
	case v == "do" && len(obj) >= 2 && obj[0] == "not" && likeVerbs.has(obj[1]):
		neg, obj = true, obj[2:]
		if len(obj) > 0 && obj[0] == "to" && len(obj) > 1 {
			obj = append([]string{gerund(obj[1])}, obj[2:]...)
		}
		o := strings.Join(obj, " ")
		return []string{"I can't stand " + o, "I'm not a fan of " + o, "honestly, " + o + " is not my thing"}, true
	case (v == "did" || v == "have") && len(obj) >= 2 && obj[0] == "not":
		neg = true // "i did not graduate", "i have not spoken"
		return []string{strings.TrimSpace("I never " + strings.Join(obj[1:], " "))}, true
	case v == "do" && len(obj) >= 2 && obj[0] == "not":
		neg = true
		o := strings.Join(obj[2:], " ")
		return []string{strings.TrimSpace("I don't really " + obj[1] + " " + o)}, true
	case dislikeVerbs.has(v):
		*cats |= catHobby
		return []string{"I can't stand " + objS, "I'm not a fan of " + objS, "honestly, " + objS + " is not my thing"}, true
	case likeVerbs.has(v):
		*cats |= catHobby
		if len(obj) >= 2 && obj[0] == "to" {
			act := gerund(obj[1]) + " " + strings.Join(obj[2:], " ")
			act = strings.TrimSpace(act)
			return []string{"I'm really into " + act, act + " is one of my favourite things to do", "I spend a lot of my free time " + act}, false
		}
		be := "is"
		if plural(obj[len(obj)-1]) {
			be = "are"
		}
		return []string{"I'm a big fan of " + objS, "I'm really into " + objS, objS + " " + be + " one of my favourite things"}, false
	case v == "am" || v == "was":
		return amSays(v, obj, adv, cats), false
	case v == "work" || v == "works":
		*cats |= catJob
		if len(obj) >= 3 && obj[0] == "as" {
			job := strings.Join(obj[1:], " ")
			return []string{"I'm " + job + " by trade", "my job? I'm " + job, "for a living, I'm " + job}, false
		}
		if len(obj) >= 2 {
			where := strings.Join(obj, " ")
			return []string{"my job is " + where, "for a living, I work " + where, "I've got a job " + where}, false
		}
	case v == "live" || v == "lived":
		*cats |= catPlace
		if len(obj) >= 2 && obj[0] == "in" {
			where := strings.Join(obj[1:], " ")
			if v == "live" {
				return []string{"home for me is " + where, "I'm based in " + where, "I live out in " + where}, false
			}
			return []string{"I used to live in " + where, "I spent some years in " + where}, false
		}
	case haveVerbs.has(v):
		if len(obj) >= 1 && (obj[0] == "been" || obj[0] == "not" || obj[0] == "never" || strings.HasSuffix(obj[0], "ed") || obj[0] == "to") {
			break
		}
		if v == "had" {
			return []string{"I once had " + objS, "at one point I had " + objS}, false
		}
		return []string{"I've got " + objS}, false
	}
	if n := len(rest); n >= 4 && rest[n-3] == "for" && rest[n-2] == "a" && rest[n-1] == "living" {
		*cats |= catJob // "i walk dogs for a living"
		act := strings.TrimSpace(gerund(v) + " " + strings.Join(rest[1:n-3], " "))
		return []string{act + " is my job", "I make my living " + act}, false
	}
	// Any other verb: keep the sentence, with an adverb that breaks the
	// trigram "i <verb> <object>": after an auxiliary ("i can actually
	// move…"), else before the verb.
	if adv == "" || adv == "also" {
		adv = "actually"
	}
	if auxiliaries.has(v) && len(rest) > 2 && rest[1] != "to" {
		return []string{"I " + v + " " + adv + " " + strings.Join(rest[1:], " ")}, false
	}
	return []string{"I " + adv + " " + strings.Join(rest, " ")}, false
}

// mainVerb is the verb of the rest of an "i …" sentence, the verbs of
// liking as "like".
func mainVerb(rest []string) string {
	for len(rest) > 1 && (adverbs.has(rest[0]) || rest[0] == "do") {
		rest = rest[1:]
	}
	return verbClass(rest[0])
}

// verbClass groups verbs that answer the same questions: "do you like…?"
// is answered by "i love…" too.
func verbClass(v string) string {
	switch {
	case likeVerbs.has(v):
		return "like"
	case haveVerbs.has(v) || v == "got":
		return "have"
	}
	return v
}

// amSays rewrites "i am …" (v "am") and "i was …" sentences.
func amSays(v string, obj []string, adv string, cats *category) []string {
	o := strings.Join(obj, " ")
	if v == "was" {
		if len(obj) >= 3 && obj[0] == "born" && obj[1] == "in" {
			where := strings.Join(obj[2:], " ")
			if strings.ContainsAny(where, "0123456789") || obj[2] == "the" {
				return []string{"I'm a child of " + where}
			}
			*cats |= catPlace
			return []string{"I'm originally from " + where, "I come from " + where + " originally"}
		}
		return []string{"I was " + o + " back then", "back in the day I was " + o}
	}
	if len(obj) >= 2 && (obj[0] == "a" || obj[0] == "an") {
		if occupation(obj[len(obj)-1]) {
			*cats |= catJob
			return []string{"I work as " + o, "for a living, I'm " + o, "I'm " + o + " by trade"}
		}
		return []string{"I'd call myself " + o, "I'm actually " + o, "you could say I'm " + o}
	}
	if len(obj) >= 1 && (obj[0] == "from" || obj[0] == "in") {
		*cats |= catPlace
	}
	if len(obj) >= 1 && obj[0][0] >= '0' && obj[0][0] <= '9' {
		*cats |= catAge // "i am 19", "i'm 40 years old"
	}
	if len(obj) >= 1 && strings.HasSuffix(obj[0], "ing") {
		return []string{"right now I'm " + o, "these days I'm " + o}
	}
	if adv != "" {
		return []string{"I'm " + adv + " " + o, "you could say I'm " + adv + " " + o}
	}
	return []string{"I'm actually " + o, "I'd say I'm " + o, "you could say I'm " + o}
}

// possessive rewrites the rest of a "my …" sentence ("favorite color is
// blue", "mom is a nurse").
func possessive(rest []string) []string {
	verb := -1
	for i, w := range rest {
		if w == "is" || w == "are" || w == "was" || w == "were" {
			verb = i
			break
		}
	}
	if verb < 1 || verb == len(rest)-1 {
		return []string{"my " + strings.Join(rest, " ")}
	}
	what, value := rest[:verb], strings.Join(rest[verb+1:], " ")
	if what[0] == "favorite" || what[0] == "favourite" {
		thing := strings.Join(what[1:], " ")
		if thing == "" {
			thing = "thing"
		}
		if rest[verb] != "is" {
			return []string{value + " " + rest[verb] + " my top " + thing}
		}
		return []string{value + " is my top " + thing, "if I had to pick a top " + thing + ", it'd be " + value, "my number one " + thing + " is " + value}
	}
	w := strings.Join(what, " ")
	switch rest[verb] {
	case "was", "were":
		return []string{"my " + w + " used to be " + value, "back then my " + w + " " + rest[verb] + " " + value}
	}
	return []string{"my " + w + " " + rest[verb] + " actually " + value, "as it happens, my " + w + " " + rest[verb] + " " + value}
}

// gerund turns a verb into its -ing form: ride → riding, swim → swimming.
func gerund(v string) string {
	switch {
	case v == "be":
		return "being"
	case strings.HasSuffix(v, "ie"):
		return v[:len(v)-2] + "ying"
	case strings.HasSuffix(v, "ee") || strings.HasSuffix(v, "ye") || strings.HasSuffix(v, "oe"):
		return v + "ing"
	case strings.HasSuffix(v, "e") && len(v) > 2:
		return v[:len(v)-1] + "ing"
	case doubling.has(v):
		return v + v[len(v)-1:] + "ing"
	}
	return v + "ing"
}

// doubling are the verbs that double their last consonant before -ing.
var doubling = newSet(`run swim sit shop jog get put plan stop chat hit cut begin dig
skip win knit spin drum rap grab hug nap rob set tan trek travel`)

// occupation reports a noun that names a job.
func occupation(w string) bool {
	if occupations.has(w) {
		return true
	}
	for _, s := range []string{"ician", "ographer", "ologist", "eer"} {
		if strings.HasSuffix(w, s) && len(w) > len(s)+2 {
			return true
		}
	}
	return false
}

var occupations = newSet(`nurse chef cook doctor lawyer pilot vet veterinarian mechanic
cashier clerk nanny maid surgeon dentist judge barista carpenter plumber
electrician engineer firefighter cop police officer soldier marine housewife
homemaker student secretary receptionist model actor actress artist musician
farmer rancher author poet painter coach athlete priest pastor bartender
waitress waiter salesman saleswoman guide manager streamer youtuber blogger
teacher professor tutor trainer instructor writer editor reporter journalist
designer programmer developer driver baker banker butcher singer dancer
drummer guitarist pianist dj accountant consultant assistant librarian
technician builder worker cleaner janitor hairdresser stylist therapist
pharmacist scientist researcher sailor fisherman realtor agent broker
entrepreneur ceo owner photographer producer lifeguard paramedic detective
custodian caregiver analyst architect`)

// category says what a fact is about, to match questions ("do you have
// pets?") and to ask the partner about the same.
type category uint16

const (
	catPet category = 1 << iota
	catJob
	catFamily
	catHobby
	catFood
	catMusic
	catSport
	catPlace
	catCar
	catStudy
	catBooks
	catFilms
	catAge
	catLooks
)

// categoryWords maps words to what they are about.
var categoryWords = func() map[string]category {
	m := map[string]category{}
	for c, words := range map[category]string{
		catPet: `pet pets dog dogs cat cats horse horses puppy puppies kitten kittens fish
hamster hamsters parrot parrots bird birds rabbit rabbits snake snakes animal
animals pony ponies`,
		catJob: `job jobs work works working living career boss office company retired
employed unemployed profession occupation business shift`,
		catFamily: `family mom mother dad father parents sister sisters brother brothers
kids kid children child son sons daughter daughters wife husband married
grandma grandmother grandpa grandfather siblings sibling twins baby babies`,
		catHobby: `hobby hobbies fun free weekend weekends spare`,
		catFood: `food foods eat eating pizza cook cooking meat vegan vegetarian dish
dinner lunch breakfast bake baking coffee tea chocolate drink`,
		catMusic: `music song songs band bands sing singing guitar piano concert concerts
rock country jazz rap musician musicians instrument instruments drums hip hop
pop metal classical blues punk opera singer rapper album albums violin`,
		catSport: `sport sports football soccer basketball baseball tennis hockey golf
team gym run running swim swimming exercise`,
		catPlace: `live from city town country state grew born move moved where`,
		catCar:   `car cars drive driving truck`,
		catStudy: `school college university study studying student class degree`,
		catBooks: `book books read reading novel novels poetry poems writing write`,
		catFilms: `movie movies film films tv show shows watch watching`,
		catAge:   `age old young years`,
		catLooks: `hair eyes tall short height skin look looks beard tattoo tattoos male female
man woman boy girl guy lady`,
	} {
		for w := range strings.FieldsSeq(words) {
			m[w] |= c
		}
	}
	return m
}()

func categoryOf(w string) category { return categoryWords[w] }

// categoryNames name a whole category, as opposed to one thing in it:
// "pets", not "fish".
var categoryNames = newSet(`pet pets animal animals job jobs work working living career
profession occupation family kids children siblings hobby hobbies fun free spare
weekend weekends food foods eat cook cooking music band bands instruments sport
sports exercise live from city town country grew born car cars drive school
college university study studying student book books read reading movie movies
film films tv show shows watch watching age old hair eyes look looks tall`)

// questionCategories are phrases that ask about a category without naming
// it: "what do you do" is about work.
var questionCategories = []struct {
	phrase string
	cat    category
}{
	{"what do you do", catJob},
	{"for a living", catJob},
	{"where are you from", catPlace},
	{"where do you live", catPlace},
	{"for fun", catHobby},
	{"free time", catHobby},
	{"what do you like", catHobby},
	{"what are you into", catHobby},
	{"what do you drive", catCar},
	{"how old", catAge},
	{"your age", catAge},
	{"look like", catLooks},
	{"male or female", catLooks},
	{"man or woman", catLooks},
	{"boy or girl", catLooks},
	{"guy or girl", catLooks},
	{"guy or a girl", catLooks},
	{"girl or a guy", catLooks},
	{"girl or guy", catLooks},
	{"boy or a girl", catLooks},
	{"man or a woman", catLooks},
}

// firstLetterUpper is s with its first letter in upper case.
func firstLetterUpper(s string) string {
	for i, r := range s {
		if unicode.IsLetter(r) {
			return s[:i] + string(unicode.ToUpper(r)) + s[i+len(string(r)):]
		}
	}
	return s
}

// synonyms vary the wording of a profile's adjectives and adverbs, so that
// a paraphrase repeats fewer of its trigrams.
var synonyms = strings.NewReplacer(" huge ", " big ", " big ", " huge ", " very ", " really ",
	" little ", " small ", " small ", " little ", " great ", " good ", " good ", " great ")
