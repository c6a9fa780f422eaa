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

// aspirations mark a sentence about what one wants to be or do, not what
// one is: "i want to be a lawyer" stays a wish.
var aspirations = []string{" want to be ", " want to become ", " to become ", " aspiring ", " trying to ", " going to join ", " dream ", " dream of ", " hope to ", " someday ",
	" grow up ", " plan to ", " planning to ", " going to be ", " goal ", " wish ", " would like to be ", " one day "}

// positions are a player's place in a team, no job: "i play point guard".
var positions = newSet("point_guard shooting_guard power_forward small_forward")

// growsPlants reports a sentence about growing food or flowers: "i grow
// leeks and onions", "i am growing tomatoes on my balcony".
func growsPlants(ws []string) bool {
	for i, w := range ws {
		if w != "grow" && w != "grows" && w != "growing" {
			continue
		}
		for _, x := range ws[i+1 : min(i+4, len(ws))] {
			if plants.has(x) || intentOf(x)&catFood != 0 {
				return true
			}
		}
	}
	return false
}

var plants = newSet("roses flowers herbs orchids tulips sunflowers vegetables veggies tomatoes succulents bonsai plants pumpkins")

// fairShows name shows one enters, not ones one watches.
var fairShows = newSet("village county state dog horse cat car flower garden trade art craft talent boat air fashion cattle")

// weddingGoods are what one makes for others' weddings.
var weddingGoods = newSet("dresses dress gowns gown cakes cake photos videos invitations flowers rings bands music")

// factIntents returns what profile sentence ws tells about, and whether it
// is a wish rather than a fact. Words whose intent depends on what
// surrounds them are read in place: "i live in…" tells where one lives,
// "living the good life" does not; "i am from…" does, "i work from home"
// does not.
func factIntents(ws []string) (c category, wish bool) {
	padded := " " + strings.Join(ws, " ") + " "
	for _, a := range aspirations {
		if strings.Contains(padded, a) {
			wish = true
			c |= catPlans
		}
	}
	// "i am moving to denver next month", "i am saving up to open a
	// restaurant", "i am going back to school": what is to come.
	if slices.ContainsFunc(ws, futureWords.has) || strings.Contains(padded, " going back to ") || strings.Contains(padded, " in the fall ") && ws[1] == "am" {
		c |= catPlans
	}
	// "i want to study medicine": a wish, unless denied.
	if (strings.Contains(padded, " want to ") || strings.Contains(padded, " would like to ")) && !strings.Contains(padded, " not ") {
		wish = true
		c |= catPlans
	}
	// "i am studying to be a pharmacist": what one is now and will be.
	if strings.Contains(padded, " studying to be ") || strings.Contains(padded, " training to be ") {
		c |= catPlans
	}
	// "i grow leeks and onions for the village show": a garden.
	if growsPlants(ws) {
		c |= catHobby
	}
	// "i am a stay at home dad" tells what one does all day.
	if strings.Contains(padded, " stay at home ") || strings.Contains(padded, " stay home ") {
		c |= catJob
	}
	named := set{} // the words of the known names of several words: "stephen curry" is no dish, but "play guitar" is music
	for _, n := range knownNames.in(padded) {
		if strings.Contains(n, " ") && knownIntent(n) {
			for w := range strings.FieldsSeq(n) {
				named.add(w)
			}
		}
	}
	music, fav := false, false
	for _, w := range ws {
		music = music || w != "country" && intentOf(w)&catMusic != 0
	}
	for i, w := range ws {
		prev, next := "", ""
		if i > 0 {
			prev = ws[i-1]
		}
		if i+1 < len(ws) {
			next = ws[i+1]
		}
		wc := intentOf(w)
		if named.has(w) || prev == "named" || prev == "called" {
			wc = 0 // "a pug named waffles" is no dish
		}
		switch {
		case atWorkplace(next) && wc&^catJob != 0:
			wc &= catJob // "i work at a pet store" says nothing of pets
		case wc&catPlace != 0 && strings.HasPrefix(w, "liv") && !afterLive.has(next):
			wc &^= catPlace // "living the good life", "for a living"
		case w == "from" && !beforeFrom.has(prev) && len(placesIn(" "+strings.Join(ws[i+1:], " ")+" ")) == 0:
			wc &^= catPlace // "i work from home", but "an exchange student from sweden"
		case w == "city" && fanOfTeam(padded), w == "town" && (prev == "in" || prev == "around") && i+1 == len(ws):
			wc &^= catPlace // "the kansas city chiefs", "the best pho in town"
		case wc&catPet != 0 && noPetAt(ws, i):
			wc &^= catPet
		case wc&^catJob != 0 && !studentAgents.has(next) && !possessives.has(prev) && (occupation(next) || agentNoun(next) || i > 1 && (ws[i-2] == "a" || prev == "a") && jobHead(ws, i)):
			wc &= catJob | catSport | catMusic // "a wedding photographer", "a dog walker", "a truck driver"; a "basketball player" plays it, a "football coach" or a "piano teacher" knows it; "my dog ranger" is a dog
		case w == "country" && prev == "the" && i > 1 && ws[i-2] == "across", placeKinds.has(w) && next != "" && !boundaries.has(next) && next != "i",
			w == "raised" && (!boundaries.has(next) || next == "with"), w == "farm" && prev == "i":
			wc &^= catPlace // "across the country", "the state police", "raised speaking french", "i farm"
		case w == "from" && slices.Contains(ws[i:], "family"), w == "grew" && i+2 < len(ws) && ws[i+1] == "up" && (ws[i+2] == "with" || slices.Contains(ws[i+2:min(i+6, len(ws))], "family") && len(placesIn(padded)) == 0),
			w == "born" && (prev == "last" || prev == "first" || next == "deaf" || next == "blind" || next == "without" || next == "with"),
			w == "raised" && next == "by":
			wc &^= catPlace // "i come from a big family", "i grew up with two older brothers", "i grew up in a family of nine kids", "the last born of nine", "born deaf", "raised by my grandparents"
		case (w == "show" || w == "shows") && fairShows.has(prev):
			wc &^= catFilms // "for the village show", "the county fair's dog show": a contest, not television
		case (w == "house" || w == "houses") && prev != "" && prev != "own" && !determiners.has(prev) && !possessives.has(prev) && !adjective(prev) && !isNumber(prev) && !boundaries.has(prev):
			wc &^= catPlace // "the tea house", "an opera house": a place of its own, not one's home
		case wc&catPlace != 0 && i > 2 && ws[i-2] == "from" && possessives.has(prev) && otherPeople.has(ws[i-3]):
			wc &^= catPlace // "engaged to a girl from my village" tells where she is from
		case wc&catStudy != 0 && (timeBefore.has(prev) || i > 1 && (timeBefore.has(ws[i-2]) || ws[i-2] == "pay" && prev == "for")),
			wc&catStudy != 0 && prev == "from" && i > 1 && (otherPeople.has(ws[i-2]) || strings.HasPrefix(ws[i-2], "roommate")):
			wc &^= catStudy // "vegan since high school", "my roommate from college"
		case w == "wedding" && (weddingGoods.has(next) || next == "and" && i+2 < len(ws) && weddingGoods.has(ws[i+2])):
			wc &^= catFamily // "i sew wedding dresses": a trade, no marriage of one's own
		case w == "watching" && prev == "bird":
			wc = catHobby // "bird watching gets me out of the house"
		case positions.has(prev + "_" + w):
			wc = catSport // "i play point guard"
		case w == "rock" && (strings.HasPrefix(next, "climb") || next == "collection" || next == "collecting" || next == "wall"):
			wc &^= catMusic // "i go rock climbing on weekends"
		case w == "country" && prev == "cross":
			wc = catSport // "i run cross country"
		case w == "country" && music:
			wc &^= catPlace // country music
		case (w == "class" || w == "classes") && !slicesHasAny(ws, takeWords):
			wc &^= catStudy // "dog agility classes": a school is named when it is one, or classes taken
		case langAdjective(w, next):
			wc &^= catLanguage // "french fries", "a german shepherd"
		case (w == "run" || w == "runs") && (determiners.has(next) && next != "every" && next != "each" || next == "social" || next == "into" || strings.HasSuffix(next, "s") && !runDistances.has(next)):
			wc &^= catSport // "i run a bakery", "i run errands", "i run social media campaigns"
		case w == "retired" && (intentOf(next)&catPet != 0 || i+2 < len(ws) && intentOf(ws[i+2])&catPet != 0):
			wc &^= catJob // "a retired greyhound"
		case wc&catJob != 0 && next == "out":
			wc = catSport // "i work out every day"
		case wc&catJob != 0 && (likeVerbs.has(prev) || prev == "to" && i > 1 && likeVerbs.has(ws[i-2])):
			wc &^= catJob // "i like to work on cars" is a pastime
		}
		c |= wc
		// "i run a bakery", "i own a small farm": a business of one's own.
		if (w == "ride" || w == "rides" || w == "cycle") && slices.ContainsFunc(ws[i:min(i+3, len(ws))], rideWords.has) {
			c |= catSport // "i ride my bike along the river"
		}
		if visitVerbs.has(w) && len(placesIn(" "+strings.Join(ws[i+1:], " ")+" ")) > 0 {
			c |= catTravel // "i am saving money to visit japan"
		}
		if (i == 1 || i == 2 && ws[0] == "my") && businessVerbs.has(w) && determiners.has(next) && next != "every" && next != "each" && (!strings.HasPrefix(w, "own") || workplaceNamed(ws[i:])) {
			c |= catJob // "my dad owned a garage"
		}
		if distanceVerbs.has(w) && (prev == "i" || i > 1 && adverbs.has(prev) && ws[i-2] == "i") && slices.ContainsFunc(ws[i:], runDistances.has) {
			c |= catSport // "i walk about fifteen miles a day"
		}
		if w == "sneeze" || w == "eat" && (prev == "not" && i > 1 && ws[i-2] == "can" || prev == "cannot" || prev == "can't") {
			c |= catFear // "i can not eat gluten", "cats make me sneeze" answer "any allergies?"
		}
		if householdWords.has(strings.TrimSuffix(w, "'s")) {
			c |= catFamily // who one lives with: "i live alone with my three cats"
		}
		if isNumber(prev) && heightWords.has(w) {
			c |= catLooks // "i am six foot eight"
		}
		if genderWords.has(w) && (i == 3 || i == 4 && !genderWords.has(prev)) && strings.HasPrefix(padded, " i am a ") {
			c |= catLooks // "i am a woman", "i am a little girl"
		}
		// "i collect coins", "i like to knit": a pastime.
		if hobbyVerbs.has(w) && (i == 1 || prev == "i" || prev == "to" && i > 1 && (likeVerbs.has(ws[i-2]) || ws[i-2] == "time")) {
			c |= catHobby // "these days i paint watercolors of birds"
			if sportVerbs.has(w) {
				c |= catSport // "i bowl every thursday night"
			}
		}
		// "i am a nurse" tells the job; "my favorite singer is…" does not.
		fav = fav || strings.HasPrefix(w, "fav")
		if ((occupation(w) || occupation(strings.TrimSuffix(w, "s")) || (prev == "a" || prev == "an") && i > 1 && beVerbs.has(ws[i-2]) && agentNoun(w) && (next == "" || boundaries.has(next))) && !schooling.has(w) && !fields.has(next) && prev != "i" && prev != "to" && !namesThings(w, next) && !positions.has(prev+"_"+w) && !named.has(w) || manJob(prev, w)) && i > 0 && !fav {
			c |= catJob
		}
		// "i am 19", "i'm four", "i turned 18 years old yesterday"
		if i > 0 && (prev == "am" || prev == "turned" || prev == "be" && ws[0] == "i") && isNumber(w) {
			c |= catAge
		}
		// Playing a thing the engine does not know is most likely a
		// sport or a game: "i love to play pobox".
		if (w == "play" || w == "plays") && next != "" && intentOf(next) == 0 && !playOther.has(next) && !music &&
			(i+2 == len(ws) || boundaries.has(ws[i+2])) {
			c |= catSport // not "i play bass in a punk band"
		}
		if w == "play" || w == "plays" {
			c |= catHobby // what one plays is a pastime
			if next == "the" && i+2 < len(ws) && intentOf(ws[i+2]) == 0 {
				c |= catMusic // "i play the charango": an instrument
			}
		}
	}
	for _, p := range intentPhrases {
		if p.cat != catHobby && strings.Contains(padded, p.phrase) {
			c |= p.cat
		}
	}
	c |= knownIntents(withoutGivenNames(padded))
	if len(ws) > 2 && ws[0] == "my" && intentOf(ws[1])&catPet != 0 {
		c &^= catJob // "my collie does most of the work": the dog's, not a job
	}
	if othersFrom(ws) {
		c &^= catPlace | catLanguage // "we adopted twin girls from colombia" tells where they are from
	}
	// "i am a dairy farmer in vermont" tells where one lives; "i grew
	// up in france" the language one speaks.
	job := jobIntents(ws)
	if namesHome(ws, job != 0 || c&catJob != 0) || len(ws) > 2 && ws[1] == "am" && peoples.has(ws[2]) {
		c |= catPlace // "i am korean american"
	}
	if c&catPlace != 0 && c&catJob == 0 { // not "i write code for a startup in berlin"
		for _, p := range placesIn(padded) {
			if _, ok := countries[p]; ok && p != "america" && p != "usa" && p != "united_states" {
				c |= catLanguage
			}
		}
	}
	// "i like…", "i also like…".
	if v := 1 + adverbsAt(ws, 1); len(ws) > v+1 && ws[0] == "i" && (likeVerbs.has(ws[v]) || ws[v] == "enjoy") {
		c |= catHobby
		if !pastime(ws[v+1:]) {
			c |= catNotPastime // "i love donuts" is a taste, not a pastime
		}
	}
	// Something done again and again, not for work, is a pastime: "i take
	// dance lessons once a week", "i often shop for shoes".
	if len(ws) > 2 && ws[0] == "i" && c&catJob == 0 && !wish && !slices.Contains(ws, "not") {
		for i, w := range ws[1:] {
			if habitWords.has(w) && (w != "every" || ws[i] != "of") || (w == "twice" || w == "once") && i+2 < len(ws) && ws[i+2] == "a" {
				c |= catHobby // "i visit europe twice a year", not "i have been divorced twice" nor "out of every month"
			}
		}
	}
	for i, w := range ws {
		if intentWords[w]&catHobby != 0 && !gameWords.has(w) && (w != "spare" && w != "free" || i+1 < len(ws) && ws[i+1] == "time") ||
			w == "off" && i > 0 && (ws[i-1] == "days" || ws[i-1] == "day") {
			c |= catHobby | catSpareTime // "in my spare time", "my days off", "my favorite hobbies are…"; not "my spare bedroom"
		}
	}
	c |= job
	if v := 1 + adverbsAt(ws, 1); ws[0] == "i" && v+1 < len(ws) && likeVerbs.has(ws[v]) && strings.HasSuffix(ws[v+1], "ing") &&
		!slicesHasAny(ws, workWords) && !slices.ContainsFunc(ws, occupation) {
		c &^= catJob // "i like watching war documentaries" is no service in the army
	}
	if kinOf(ws)&(1<<kinChildren) != 0 {
		c |= catFamily // "i have two boys in little league"
	}
	// "i have a boxer named duke": a pet, when not a relative; "i keep two
	// ferrets named pickle and mustard".
	if len(ws) > 4 && ws[0] == "i" {
		if i := slices.Index(ws, "named"); i > 2 && kin[ws[i-1]] == 0 && !slices.Contains(ws[:i], "who") && (ws[1] == "have" || intentOf(ws[i-1])&catPet != 0) {
			c |= catPet
		}
	}
	if v := 1 + adverbsAt(ws, 1); ws[0] == "i" && v+1 < len(ws) && teamVerbs.has(ws[v]) && !possessives.has(ws[v+1]) &&
		c&(catPet|catFamily|catJob|catFood) == 0 {
		c |= catSport // "i barrack for the collingwood magpies", "i support alianza lima": a team
	}
	if strings.Contains(padded, " hives of ") {
		c &^= catFear // "i keep forty hives of honey bees"
	}
	if i := slices.IndexFunc(ws, func(w string) bool { return w == "live" || w == "lives" }); i > 0 && intentOf(ws[i-1])&catPet != 0 {
		c &^= catPlace // "four cats live in my house" tells no home
	}
	if fanOfTeam(padded) && !slicesHasAny(ws, placeVerbs) {
		c &^= catPlace // "i cheer for the dallas cowboys" tells no home
	}
	if c&catFear != 0 && !slicesHasAny(ws, workWords) {
		c &^= catJob // "i cannot eat peanuts or i end up in hospital"
	}
	// "i'm a college student" is at school, not at work.
	if c&catJob == 0 && slices.ContainsFunc(ws, schooling.has) {
		c |= catNotJob
	}
	// "i am in the army", "i am in the third grade": in a job or a
	// school, not a place.
	if len(ws) > 3 && ws[0] == "i" && ws[1] == "am" && ws[2] == "in" && c&(catJob|catStudy|catMusic|catSport) != 0 {
		c |= catNotPlace
	}
	return c, wish
}

// namesThings reports an occupation's name before a plural noun, naming
// the things, not the job: "i build model ships".
func namesThings(w, next string) bool {
	return len(next) > 3 && strings.HasSuffix(next, "s") && !boundaries.has(next) && !occupation(strings.TrimSuffix(next, "s"))
}

// fields follow an occupation's name naming a subject: "marine biology".
var fields = newSet("biology life science sciences")

// placeKinds name a kind of place, a place only when no noun follows:
// "a small town", not "a city bus".
var placeKinds = newSet("city town state country village")

// timeBefore are the words before a school that make it a time or an aim.
var timeBefore = newSet("since after before during")

// teamVerbs follow a team.
var teamVerbs = newSet("support supports root roots cheer cheers barrack barracks")

// workWords tell of work, whatever else a sentence tells.
var workWords = newSet("work works worked working job nurse doctor")

// adverbsAt counts the adverbs of ws from i on: "also" in "i also like".
func adverbsAt(ws []string, i int) int {
	n := 0
	for i+n < len(ws) && adverbs.has(ws[i+n]) {
		n++
	}
	return n
}

// langAdjective reports a language's name used of a thing, not of the
// language: "french fries", "a german shepherd", not "i speak french" or
// "my spanish class".
func langAdjective(w, next string) bool {
	if intentOf(w)&catLanguage == 0 || languageWords.has(w) || next == "" {
		return false
	}
	return !boundaries.has(next) && !langNouns.has(next) && intentOf(next)&catStudy == 0
}

// languageWords speak of languages without naming one.
var languageWords = newSet("language languages speak speaks fluent")

// langNouns are the words after a language's name that keep it a
// language: "spanish words", "french lessons".
var langNouns = newSet("language languages word words lesson lessons teacher tutor speaker speakers fluently well too or for so but since online")

// pastime reports whether what follows a verb of liking is something one
// does ("to dance", "reading", "football") rather than a thing one likes
// ("donuts", "my cats").
func pastime(obj []string) bool {
	if len(obj) == 0 {
		return false
	}
	if obj[0] == "to" || strings.HasSuffix(obj[0], "ing") {
		return true
	}
	// "scuba diving", "deep sea fishing": a doing named last, after a
	// word that is not a determiner ("the morning" is not one).
	if n := len(obj); n > 1 && strings.HasSuffix(obj[n-1], "ing") && len(obj[n-1]) > 5 && !determiners.has(obj[n-2]) {
		return true
	}
	var c category
	for _, w := range obj {
		c |= intentOf(w)
	}
	return c&(catMusic|catSport|catBooks|catFilms|catHobby|catCar) != 0
}

// othersFrom reports a sentence that says where others come from and
// nothing of one's own place: "my wife and i adopted twin girls from
// colombia".
func othersFrom(ws []string) bool {
	k := slices.Index(ws, "from")
	if k < 1 || slices.ContainsFunc(ws, placeVerbWords.has) {
		return false
	}
	if len(ws) > 2 && ws[0] == "i" && ws[1] == "am" && !slices.ContainsFunc(ws[2:k], func(w string) bool { return w == "of" || w == "with" || w == "to" || w == "for" }) {
		return false // "i am a grandmother from puerto rico" is from there herself
	}
	prev := strings.TrimSuffix(ws[k-1], "s")
	return otherPeople.has(prev) || kin[ws[k-1]] != 0 || intentOf(ws[k-1])&catPet != 0
}

// placeVerbWords tell one's own place: "i live", "i grew up", "i moved".
var placeVerbWords = newSet("live lives living lived grew born raised moved move moving")
