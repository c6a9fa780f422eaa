package offline

import (
	"strings"
	"testing"
)

func TestQuestionIntents(t *testing.T) {
	tests := []struct {
		question string
		want     category // every one of these
		not      category // none of these
	}{
		{"What do you do for a living?", catJob, catPlace},
		{"where do you work?", catJob, catPlace},
		{"Where do you live?", catPlace, catJob},
		{"Do you live in a city?", catPlace, 0},
		{"Do you have any pets?", catPet, 0},
		{"what do you like to do on weekends?", catHobby, 0},
		{"do you speak spanish?", catLanguage, 0},
		{"What are you afraid of?", catFear, 0},
		{"any allergies?", catFear, 0},
		{"What do you want to be when you grow up?", catPlans, 0},
		{"how old are you?", catAge, 0},
		{"how old is your dog?", catPet, catAge},
		{"What kind of car do you drive?", catCar, 0},
		{"Do you have kids?", catFamily, 0},
		{"what's your major?", catStudy, 0},
		{"What music do you listen to?", catMusic, 0},
	}
	for _, tt := range tests {
		t.Run(tt.question, func(t *testing.T) {
			got := questionIntents(analyze(tt.question))
			if got&tt.want != tt.want || got&tt.not != 0 {
				t.Errorf("questionIntents(%q) = %b, want %b and not %b", tt.question, got, tt.want, tt.not)
			}
		})
	}
}

func TestFactIntents(t *testing.T) {
	tests := []struct {
		fact string
		want category
		wish bool
	}{
		{"i am a nurse at a children's hospital", catJob, false},
		{"i want to be a lawyer", catPlans | catJob, true},
		{"when i grow up i want to be a physical therapist", catPlans, true},
		{"i have two cats named salt and pepper", catPet, false},
		{"i live in a small apartment in tokyo", catPlace, false},
		{"i am terrified of scorpions", catFear, false},
		{"i am 19", catAge, false},
		{"i love baking bread on sundays", catHobby | catFood, false},
		{"i speak chinese", catLanguage, false},
	}
	for _, tt := range tests {
		t.Run(tt.fact, func(t *testing.T) {
			got, wish := factIntents(strings.Fields(tt.fact))
			if got&tt.want != tt.want || wish != tt.wish {
				t.Errorf("factIntents(%q) = %b, %v; want %b, %v", tt.fact, got, wish, tt.want, tt.wish)
			}
		})
	}
}

// TestAnswersByIntent: a question is answered by the fact about what it
// asks, not by one that only shares a word with it.
func TestAnswersByIntent(t *testing.T) {
	pr := parseProfile(nurse)
	for _, tt := range []struct{ question, fact string }{
		{"What do you do for a living?", "i am a nurse at a children's hospital"},
		{"Where are you from?", "i live in a small apartment in tokyo"},
		{"any pets?", "i have two cats named salt and pepper"},
		{"what's your favourite food?", "i love baking bread on sundays"},
	} {
		got := pr.answers(analyze(tt.question))
		if len(got) == 0 || pr.facts[got[0]].source != tt.fact {
			t.Errorf("answers(%q) = %v, want %q first", tt.question, got, tt.fact)
		}
	}
	if got := pr.answers(analyze("do you have kids?")); len(got) != 0 {
		t.Errorf("answers(%q) = %v, want none: the profile has no children", "do you have kids?", got)
	}
}

func TestKeeps(t *testing.T) {
	for _, tt := range []struct {
		fact, say string
		want      bool
	}{
		{"i have two cats named salt and pepper", "I've got 2 kitties named salt & pepper", true},
		{"i have two cats named salt and pepper", "I've got 2 kitties named salt", false},
		{"i want to be an astronaut", "I'm an astronaut", false},
		{"i want to be an astronaut", "I'd love to be an astronaut someday, I want that", true},
		{"i do not eat meat", "I eat meat", false},
		{"i do not eat meat", "I don't eat meat", true},
		{"i am a nurse at a children's hospital", "I work as a nurse over at a kids' hospital", true},
		{"i grew up on a farm", "I was raised on a farm", true},
	} {
		if got := keeps(strings.Fields(tt.fact), tt.say); got != tt.want {
			t.Errorf("keeps(%q, %q) = %v, want %v", tt.fact, tt.say, got, tt.want)
		}
	}
}

// TestAnswersByWhatIsAsked: made-up profiles, none from the data, with
// the question each fact answers and the questions none does. A liked
// thing is no pastime, a relative's job is not the bot's, a yes/no
// question is answered only by a fact that speaks of what it names (or
// of a thing of the same kind), a name or an age only by a fact that
// gives one.
func TestAnswersByWhatIsAsked(t *testing.T) {
	profiles := []struct {
		profile string
		asked   map[string]string // question: the fact that answers it first, "" for none
	}{
		{"i love pizza.\ni play cello in a small orchestra.\nmy brother is a firefighter.\ni work from home.\ni am living the dream.", map[string]string{
			"what do you do for fun?":       "i play cello in a small orchestra",
			"what do you do for a living?":  "i work from home",
			"where do you live?":            "",
			"where are you from?":           "",
			"do you play the piano?":        "i play cello in a small orchestra",
			"what's your favourite food?":   "i love pizza",
			"what does your brother do?":    "my brother is a firefighter",
			"what about your sister?":       "",
			"do you like french fries?":     "",
			"do you speak german?":          "",
			"any hobbies besides your job?": "i play cello in a small orchestra",
			"what's your favourite colour?": "",
			"do you have a girlfriend?":     "",
			"so you work at home?":          "i work from home",
			"how old are you?":              "",
		}},
		{"my favorite band is the beatles.\ni have two cats named tom and jerry.\ni am studying to be a vet.\ni grew up in ohio.\ni eat a german breakfast every day.", map[string]string{
			"do you play guitar?":             "",
			"are you a musician?":             "",
			"what kind of music do you like?": "my favorite band is the beatles",
			"what are your cats names?":       "i have two cats named tom and jerry",
			"how old is your cat?":            "",
			"do you have a dog?":              "i have two cats named tom and jerry",
			"where are you from?":             "i grew up in ohio",
			"which sports are you into?":      "",
			"do you speak german?":            "",
			"what's your major?":              "i am studying to be a vet",
			"do you like the rolling stones?": "",
		}},
		{"i fight wildfires for the state of california.\ni was an opera singer before the war.\ni live with my grandparents and their parrot.\ni grow leeks and onions for the village show.\ni am 14 and live on a cattle ranch in montana.", map[string]string{
			"what's a normal day like for you?": "i fight wildfires for the state of california",
			"what does a workday look like?":    "i fight wildfires for the state of california",
			"what did you do before?":           "i was an opera singer before the war",
			"where do you call home?":           "i am 14 and live on a cattle ranch in montana",
			"where do you live?":                "i am 14 and live on a cattle ranch in montana",
			"do you live alone?":                "i live with my grandparents and their parrot",
			"do you have any pets?":             "i live with my grandparents and their parrot",
			"what's your favourite tv show?":    "",
			"do you have any hobbies?":          "i grow leeks and onions for the village show",
			"what do you do on your days off?":  "i grow leeks and onions for the village show",
		}},
		{"i have three kids.\nmy wife teaches yoga.\ni grew up in texas.\ni am allergic to peanuts.", map[string]string{
			"do you have children?":       "i have three kids",
			"are you married?":            "my wife teaches yoga",
			"what does your wife do?":     "my wife teaches yoga",
			"where did you grow up?":      "i grew up in texas",
			"any allergies?":              "i am allergic to peanuts",
			"do you do yoga?":             "",
			"what do you do on weekends?": "",
			"what do you do?":             "",
			"do you have pets?":           "",
		}},
		{"i speak three languages.\ni like to go fishing on weekends.\nmy favorite movie is jaws.\ni am 45 years old.", map[string]string{
			"do you speak french?":              "i speak three languages",
			"what do you do in your free time?": "i like to go fishing on weekends",
			"do you like to fish?":              "i like to go fishing on weekends",
			"what's your favorite film?":        "my favorite movie is jaws",
			"how old are you?":                  "i am 45 years old",
			"what's your favorite book?":        "",
			"what music do you like?":           "",
		}},
		{"i study biology.\ni hate spiders.\ni have a younger sister.\nmy parents are divorced.", map[string]string{
			"what do you study?":       "i study biology",
			"do you have siblings?":    "i have a younger sister",
			"what do your parents do?": "",
			"what are you scared of?":  "",
			"do you like animals?":     "",
		}},
		{"i love italian food.\ni drink a lot of coffee.\ni run marathons.\ni play guitar in a band.", map[string]string{
			"what do you like to drink?":   "i drink a lot of coffee",
			"what's your favorite food?":   "i love italian food",
			"do you play sports?":          "i run marathons",
			"do you play any instruments?": "i play guitar in a band",
			"what do you do for fun?":      "i play guitar in a band",
			"are you a vegetarian?":        "",
			"do you speak italian?":        "",
		}},
		{"i am a beekeeper.\ni read mystery novels before bed.\ni knit sweaters for my dogs.\ni have two dachshunds.\ni drive a snowplow for the city in winter.\nmy own truck is a rusty 1998 ford ranger.", map[string]string{
			"what do you do?":                         "i am a beekeeper",
			"what do you do when you're not working?": "i knit sweaters for my dogs",
			"what do you do before bed?":              "i read mystery novels before bed",
			"any pets?":                               "i have two dachshunds",
			"what car do you drive?":                  "my own truck is a rusty 1998 ford ranger",
			"do you have a car?":                      "my own truck is a rusty 1998 ford ranger",
		}},
		{"i play poker professionally.\ni knit scarves.\ni ride a motorcycle to work.\ni hate cilantro.\nmy parents still live in ohio where i grew up.", map[string]string{
			"how do you spend your free time?": "i knit scarves",
			"how do you get to work?":          "i ride a motorcycle to work",
			"any foods you can't stand?":       "i hate cilantro",
			"how long have you been knitting?": "",
			"where did you grow up?":           "my parents still live in ohio where i grew up",
		}},
		{"i wake up at five every morning.\ni play video games until late at night.\ni am scared of spiders.\ni can not stand the smell of fish.", map[string]string{
			"are you an early bird?": "i wake up at five every morning",
			"are you a night owl?":   "i play video games until late at night",
			"do you like bugs?":      "i am scared of spiders",
			"do you like seafood?":   "i can not stand the smell of fish",
		}},
		{"my favorite city is lisbon.\ni love cats.\ni am a nurse.", map[string]string{
			"what's your favorite city?":              "my favorite city is lisbon",
			"what's your favorite place you've been?": "my favorite city is lisbon",
			"what's your favorite food?":              "",
		}},
		{"my job is stressful so i unwind with jigsaw puzzles.\ni am an air traffic controller.\ni love pizza.\ni hate olives.\ni drive a long haul truck.\ni listen to audiobooks on the road.", map[string]string{
			"what's your job?":                  "i am an air traffic controller",
			"is there any food you don't like?": "i hate olives",
		}},
		{"i am a librarian.\ni have a long distance boyfriend in chile.\ni have a son, rhys, who is 11 and loves karting.\ni was born in odessa and moved here at nineteen.\ni am a huge hockey fan.", map[string]string{
			"where does he live?":              "i have a long distance boyfriend in chile",
			"what does he like to do?":         "i have a son rhys who is 11 and loves karting",
			"how old were you when you moved?": "i was born in odessa and moved here at nineteen",
			"do you watch sports?":             "i am a huge hockey fan",
			"are you an early bird?":           "",
			"how old are you?":                 "",
		}},
		// A pastime of exercise, a trip planned, children adopted, a twin
		// and a family of nine kids (siblings, not children).
		{"i run cross country and the 800 meters.\non sundays i ride my bike along the river.\ni'm saving money to visit japan next spring.\nmy wife and i adopted twin girls from colombia.\ni grew up in a family of nine kids.", map[string]string{
			"do you play any sports?":   "i run cross country and the 800 meters",
			"do you like to travel?":    "i am saving money to visit japan next spring",
			"do you have kids?":         "my wife and i adopted twin girls from colombia",
			"do you have any siblings?": "i grew up in a family of nine kids",
			"where do you live?":        "",
		}},
		{"i have a twin.\ni run every morning.\ni am a mail carrier.", map[string]string{
			"do you have siblings?":     "i have a twin",
			"how do you stay in shape?": "i run every morning",
			"what do you do for work?":  "i am a mail carrier",
		}},
		{"my wife and i have been married for twelve years.\ni moved to portland two years ago to work as a pastry chef.\ni adopted two cats from a shelter.\nolives make me gag.", map[string]string{
			"how old is he?":                   "", // a time, not an age
			"how old are you?":                 "",
			"do you have any pets":             "i adopted two cats from a shelter",
			"is there any food you don't like": "olives make me gag",
		}},
		{"i grew up in a trailer park outside of mobile.\nmy grandma raised me.\ni stay home with our kids while my wife works.\nmy wife flies planes for a cargo airline.\nmornings are the worst.", map[string]string{
			"who raised you?":          "my grandma raised me",
			"where did you grow up?":   "i grew up in a trailer park outside of mobile",
			"what does your wife do?":  "my wife flies planes for a cargo airline",
			"are you a morning person": "mornings are the worst",
		}},
		{"i play point guard on my school's basketball team.\ni work at a pizza place on weekends.\ni never learned how to swim.\ni teach yoga classes.", map[string]string{
			"do you have a job?":           "i work at a pizza place on weekends",
			"do you go to the beach much?": "i never learned how to swim",
			"are you into fitness?":        "i teach yoga classes",
		}},
		{"my lazy cat mochi sleeps all day.\nmy wife june makes the best apple pie in the county.\ni work as a lifeguard every summer.\ni eat pizza at least three times a week.\ni go to the gym five times a week.\ni am terrified of heights.", map[string]string{
			"what's your cat's name?":      "my lazy cat mochi sleeps all day",
			"what's your wife's name?":     "my wife june makes the best apple pie in the county",
			"do you like to swim?":         "i work as a lifeguard every summer",
			"do you exercise?":             "i go to the gym five times a week",
			"what's your favorite food?":   "i eat pizza at least three times a week",
			"would you ever go skydiving?": "i am terrified of heights",
			"do you like roller coasters?": "i am terrified of heights",
		}},
		// The bot cannot say the first sentence without repeating the
		// profile: what it answers gets no other fact in its place.
		{"i am a forty year old die hard cubs fan.\ni have a goldfish called bubbles who is 9 years old.\ni do open mic nights in dublin once a month.", map[string]string{
			"how old are you?":  "",
			"do you like bugs?": "",
			"any pets?":         "i have a goldfish called bubbles who is 9 years old",
			"how old is he?":    "i have a goldfish called bubbles who is 9 years old",
			"what's your name?": "",
		}},
	}
	for _, p := range profiles {
		pr := parseProfile(p.profile)
		for q, want := range p.asked {
			got := pr.answers(analyze(q))
			switch {
			case want == "" && len(got) > 0:
				t.Errorf("answers(%q) = %q first, want none", q, pr.facts[got[0]].source)
			case want != "" && (len(got) == 0 || pr.facts[got[0]].source != want):
				first := ""
				if len(got) > 0 {
					first = pr.facts[got[0]].source
				}
				t.Errorf("answers(%q) = %q first, want %q", q, first, want)
			}
		}
	}
}
