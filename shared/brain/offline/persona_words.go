package offline

import (
	"slices"
	"strings"
)

// The word lists and word forms the paraphrases are built from: past
// tenses, adjectives and where they go, articles, -ing forms, jobs and
// workplaces.

// pastVerbs are irregular past tenses profiles use.
var pastVerbs = newSet(`won went grew began broke bought built came drove fell felt fought found flew got gave
had heard held kept knew left lost made met paid ran rode said saw sold sent sang sat spent stood swam
taught told thought took wore wrote`)

// fanWords end a noun phrase that says what one is fond of.
var fanWords = newSet("fan lover enthusiast addict junkie buff nut")

// adjective guesses whether w, after "a" or "an", describes the noun
// that follows rather than being part of it.
func adjective(w string) bool {
	if adjectives.has(w) {
		return true
	}
	for _, s := range []string{"al", "ive", "ous", "ful", "ic", "ed", "able", "ish", "less"} {
		if strings.HasSuffix(w, s) && len(w) > len(s)+2 {
			return true
		}
	}
	return false
}

var adjectives = newSet(`big huge small little young old new avid proud happy busy single lonely tall short
great good bad strong weak rich poor famous hard full part former ex retired real true loyal
red orange yellow green blue purple pink brown black white grey gray blonde blond curly straight long dark light
wavy thick thin`)

// adjectivesAfter puts a run of two or more adjectives after their noun:
// "I've got short brown hair" → "I've got hair that's short & brown", which
// moves the adjectives' trigram apart; "" when s has no such run.
func adjectivesAfter(s string) string {
	ws := strings.Fields(s)
	for i := 0; i+2 < len(ws); i++ {
		j := i
		for j < len(ws) && adjectives.has(strings.ToLower(ws[j])) {
			j++
		}
		if j-i >= 2 && j < len(ws) && !stopwords.has(strings.ToLower(ws[j])) {
			adj := strings.Join(ws[i:j-1], ", ") + " & " + ws[j-1]
			out := append(slices.Clone(ws[:i]), ws[j], "that's", adj)
			if i > 0 && (strings.EqualFold(ws[i-1], "a") || strings.EqualFold(ws[i-1], "an")) {
				out[i-1] = articleFor(strings.ToLower(ws[j])) // "an old green volvo" → "a volvo that's old & green"
			}
			return strings.Join(append(out, ws[j+1:]...), " ")
		}
		i = j
	}
	return ""
}

// places are nouns of workplaces: "a school teacher" works at a school.
var places = newSet(`school store shop hospital restaurant bank company office factory farm bar library museum
station center centre firm mall hotel clinic kitchen garage salon gym pool studio church`)

// articleFor is "a" or "an" for the phrase s.
func articleFor(s string) string {
	if s != "" && strings.ContainsRune("aeiou", rune(s[0])) {
		return "an"
	}
	return "a"
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
skip win knit spin drum rap grab hug nap rob set tan trek`)

// occupation reports a noun that names a job.
func occupation(w string) bool {
	if occupations.has(w) || wordnetJobs.has(w) {
		return true
	}
	for _, s := range []string{"ician", "ographer", "ologist", "eer"} {
		if strings.HasSuffix(w, s) && len(w) > len(s)+2 {
			return true
		}
	}
	return false
}

var occupations = newSet(`nurse chef cook doctor lawyer pilot vet veterinarian mechanic miner attorney planner counselor apprentice guard seamstress hostess jockey tailor
cashier clerk nanny maid surgeon dentist judge barista carpenter plumber
electrician engineer firefighter cop police officer soldier marine housewife
homemaker student secretary receptionist model actor actress artist musician
farmer rancher author poet painter coach athlete priest pastor rabbi imam monk nun intern foreman bartender
waitress waiter salesman saleswoman guide manager streamer youtuber blogger
teacher professor tutor trainer instructor writer editor reporter journalist
designer programmer developer driver baker banker butcher singer dancer
drummer guitarist pianist dj accountant consultant assistant librarian
technician builder worker cleaner janitor hairdresser stylist therapist
pharmacist scientist researcher sailor fisherman realtor agent broker
entrepreneur ceo owner photographer producer lifeguard paramedic detective
custodian caregiver analyst architect trucker`)

// homeThings are the things of a home, which "my", "our" and "the" may
// each name.
var homeThings = newSet("home house apartment flat garden yard backyard kitchen living garage shed porch attic basement farm car van minivan truck city town village street neighborhood neighbourhood")

// ourWords say a home's thing as the household's: "my garden" → "our
// garden", "around the living room" → "around our living room".
var ourWords = map[string]string{"my": "our", "our": "my", "the": "our"}

// groupThings are what one shares with a group, which "my" and "our"
// each name: "my school team" → "our school team". "The school" is no
// one's, so "the" never becomes "our" before them.
var groupThings = newSet("school team church club band choir office squad")

// townWords are the home towns among homeThings: "in the city" is no
// household's.
var townWords = newSet("city town village")

// placeAdjectives say what kind of place: "our vegetable garden".
var placeAdjectives = newSet("vegetable flower herb")
