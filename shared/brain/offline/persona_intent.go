package offline

import (
	"slices"
	"strings"
)

// A personal question is matched to the fact that answers it by what it
// asks about — its intents: work, home, family, pets, hobbies, music, food
// and drink, sports, studies, plans and dreams, fears, vehicles,
// languages, books, films, age, looks — and only then by shared words.
// The same intents are read off each profile sentence once per chat.

// intentWords are the words that make a question or a fact about an
// intent. A question's words are read as they are; "living" asks about
// work only in "for a living", which intentPhrases handle first.
var intentWords = func() map[string]category {
	m := map[string]category{}
	for c, words := range map[category]string{
		catJob: `job jobs work works working worked workplace profession occupation career employed
employer boss office company business shift retired unemployed salary coworkers`,
		catPlace: `live lives lived living from city town country hometown state grew born area neighborhood
neighbourhood apartment house moved move farm village countryside`,
		catFamily: `family kids kid children child son sons daughter daughters married marry marriage wife
husband siblings sibling brother brothers sister sisters parents parent mom mother dad father
boyfriend girlfriend partner single grandchildren grandkids grandma grandpa grandmother
grandfather relationship dating twins baby babies pregnant aunt uncle cousin`,
		catPet: `pet pets animal animals dog dogs cat cats puppy puppies kitten kittens kitties fish bird
birds horse horses hamster breed parrot rabbit bunny snake lizard turtle pony`,
		catHobby: `hobby hobbies fun free spare weekend weekends interests activities pastime leisure`,
		catMusic: `music song songs band bands singer singers sing singing instrument instruments guitar
piano drums violin genre concert concerts rap rock jazz musician album`,
		catFood: `food foods eat eating eater cook cooking cooked dish dishes meal meals drink drinks drinking
alcohol beer wine coffee tea vegan vegetarian meat pizza restaurant bake baking dessert candy
chocolate diet cuisine`,
		catSport: `sport sports football soccer basketball baseball hockey tennis golf gym exercise workout
running swim swimming team athletic athlete marathon marathons gymnastics wrestling yoga`,
		catStudy: `study studying studies student students school college university major degree class
classes graduate graduated graduating subject subjects grade semester`,
		catPlans: `plans plan planning dream dreams goal goals future someday ambition hope hoping wish`,
		catFear:  `afraid fear fears scared phobia allergic allergy allergies terrified frightened`,
		catCar:   `car cars drive drives driving vehicle truck motorcycle motorbike bike van`,
		catLanguage: `language languages speak speaks spanish french english german chinese russian japanese
italian fluent arabic portuguese korean`,
		catBooks: `book books read reading novel novels author authors writer poetry poems`,
		catFilms: `movie movies film films tv show shows watch watching series netflix documentaries`,
		catAge:   `age`,
		catLooks: `hair eyes tall height look looks beard tattoo tattoos skin`,
	} {
		for w := range strings.FieldsSeq(words) {
			m[w] |= c
		}
	}
	return m
}()

// intentPhrases ask about an intent without its words; they are looked for
// in the normalised text, padded with spaces.
var intentPhrases = []struct {
	phrase string
	cat    category
}{
	{" what do you do ", catJob},
	{" what do u do ", catJob},
	{" for a living ", catJob},
	{" for living ", catJob},
	{" for life ", catJob},
	{" where are you ", catPlace},
	{" where r u ", catPlace},
	{" where do you ", catPlace},
	{" want to be ", catPlans},
	{" want to become ", catPlans},
	{" grow up ", catPlans},
	{" going to be ", catPlans},
	{" like to do ", catHobby},
	{" enjoy doing ", catHobby},
	{" do for fun ", catHobby},
	{" what else do you like ", catHobby},
	{" into ", catHobby},
	{" how old ", catAge},
	{" years old ", catAge},
	{" year old ", catAge},
	{" listen to ", catMusic},
}

// questionIntents returns what question q asks about.
func questionIntents(q *text) category {
	var c category
	padded := " " + q.norm + " "
	for _, p := range intentPhrases {
		if strings.Contains(padded, p.phrase) {
			c |= p.cat
		}
	}
	for _, w := range q.words {
		c |= intentWords[w.low]
	}
	// "for a living" is about work, not about where one lives; "where do
	// you work" is about work, not a place.
	if c&catJob != 0 && !strings.Contains(padded, " live ") && !strings.Contains(padded, " from ") {
		c &^= catPlace
	}
	if c&catAge != 0 && (strings.Contains(padded, " your dog") || strings.Contains(padded, " your kids") || strings.Contains(padded, " your son") || strings.Contains(padded, " your daughter")) {
		c &^= catAge // "how old is your dog?" is about the dog
	}
	return c
}

// kin are the kinds of family a question may ask about: "any kids?" is not
// answered by a sister.
var kin = func() map[string]int {
	m := map[string]int{}
	for k, words := range []string{
		`kids kid children child son sons daughter daughters baby babies grandchildren grandkids pregnant twins`,
		`brother brothers sister sisters siblings sibling`,
		`married marry marriage wife husband boyfriend girlfriend partner single relationship dating divorce`,
		`mom mother dad father parents parent grandma grandpa grandmother grandfather folks`,
	} {
		for w := range strings.FieldsSeq(words) {
			m[w] = k + 1
		}
	}
	return m
}()

// kinOf returns the kinds of family words ws name, as a bit set.
func kinOf(ws []string) int {
	k := 0
	for _, w := range ws {
		if n := kin[w]; n > 0 {
			k |= 1 << n
		}
	}
	return k
}

// aspirations mark a sentence about what one wants to be or do, not what
// one is: "i want to be a lawyer" stays a wish.
var aspirations = []string{" want to be ", " want to become ", " dream ", " dream of ", " hope to ", " someday ",
	" grow up ", " plan to ", " planning to ", " going to be ", " goal ", " wish ", " would like to be ", " one day "}

// factIntents returns what profile sentence ws tells about, and whether it
// is a wish rather than a fact.
func factIntents(ws []string) (c category, wish bool) {
	padded := " " + strings.Join(ws, " ") + " "
	for _, a := range aspirations {
		if strings.Contains(padded, a) {
			wish = true
			c |= catPlans
		}
	}
	for i, w := range ws {
		c |= intentWords[w]
		if occupation(w) && i > 0 {
			c |= catJob
		}
		// "i am 19", "i'm four", "i turned 18 years old yesterday"
		if i > 0 && (ws[i-1] == "am" || ws[i-1] == "turned") && (isNumber(w)) {
			c |= catAge
		}
	}
	for _, p := range intentPhrases {
		if p.cat != catHobby && strings.Contains(padded, p.phrase) {
			c |= p.cat
		}
	}
	if len(ws) > 2 && ws[0] == "i" && (likeVerbs.has(ws[1]) || ws[1] == "enjoy") {
		c |= catHobby
	}
	// Something done again and again, not for work, is a pastime: "i take
	// dance lessons once a week", "i often shop for shoes".
	if len(ws) > 2 && ws[0] == "i" && c&catJob == 0 && !wish && !slices.Contains(ws, "not") {
		for _, w := range ws[1:] {
			if habitWords.has(w) {
				c |= catHobby
			}
		}
	}
	return c, wish
}

// habitWords say that something is done again and again.
var habitWords = newSet("often every weekly twice lessons classes sometimes regularly usually")

// numberWords are numbers written out, up to the ages profiles give.
var numberWords = newSet(`one two three four five six seven eight nine ten eleven twelve thirteen fourteen
fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred`)

// isNumber reports a number, in digits or words.
func isNumber(w string) bool {
	return numberWords.has(w) || w != "" && w[0] >= '0' && w[0] <= '9'
}
