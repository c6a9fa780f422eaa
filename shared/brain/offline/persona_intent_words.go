package offline

import "strings"

// intentWords are the words that make a question or a fact about an
// intent. A question's words are read as they are; "living" asks about
// work only in "for a living", which intentPhrases handle first. In a
// fact, factIntents reads the words that depend on what surrounds them
// ("i live in", "i am from").
var intentWords = func() map[string]category {
	m := map[string]category{}
	for c, words := range map[category]string{
		catJob: `job jobs work works working worked workplace profession occupation career employed
employer boss office company business shift retired unemployed salary coworkers army navy
military teach teaches teaching taught trade branch earn earns earning`,
		catPlace: `live lives lived living from city town country hometown state grew born area neighborhood
neighbourhood apartment house moved move farm village countryside ethnicity heritage nationality raised
background condo loft`,
		catFamily: `family kids kid children child son sons daughter daughters married marry marriage wife
husband siblings sibling brother brothers sister sisters parents parent mom mother dad father
boyfriend girlfriend partner single grandchildren grandkids grandma grandpa grandmother
grandfather grandparents nana abuela abuelo nonna nonno oma opa relationship dating twin twins baby babies pregnant aunt uncle cousin divorced divorce
widowed widow widower engaged fiance fiancee spouse wedding gf bf grandson grandsons granddaughter granddaughters
newlywed newlyweds`,
		catPet: `pet pets animal animals dog dogs cat cats puppy puppies kitten kittens kitties fish bird
birds horse horses hamster breed parrot rabbit bunny snake lizard turtle pony goldfish ferret
guinea chihuahua poodle labrador retriever shepherd terrier beagle bulldog husky collie pug
dachshund corgi rottweiler pitbull goat goats cow cows pig pigs sheep donkey donkeys llama llamas
alpaca alpacas hedgehog tarantula iguana gecko chinchilla cockatiel parakeet chickens hens cattle tortoise
pigeon duck buffalo geese goose shiba kelpie dalmatian greyhound spaniel schnauzer doberman pomeranian mastiff
akita samoyed whippet sheepdog labradoodle goldendoodle cockapoo yorkie malamute weimaraner vizsla cockatoo macaw
budgie budgies canary axolotl gerbil gerbils mule mules`,
		catHobby: `hobby hobbies fun free spare weekend weekends interests activities pastime leisure unwind
game games gaming chess videogames puzzle puzzles crossword crosswords bingo trivia dominoes mahjong backgammon
checkers cards`,
		catTravel: `travel travels traveling travelling traveled travelled trip trips abroad vacation
vacations countries continent continents aeroplane airplane plane planes flights backpacking`,
		catMusic: `music song songs band bands singer singers sing singing instrument instruments guitar rapper rappers reggaeton edm hiphop
piano drums violin cello flute trumpet saxophone clarinet harp ukulele banjo trombone harmonica
orchestra choir genre concert concerts rap rock jazz musician album metal punk blues reggae opera vinyl
musicals musical karaoke tunes tune soundtrack violinist violinists pianist pianists guitarist guitarists drummer drummers
cellist cellists bassist saxophonist trumpeter fiddler fiddle harpist flutist flautist organist percussionist`,
		catFood: `food foods eat eating eater cook cooking cooked dish dishes meal meals snack snacks vegan vegetarian
meat pizza restaurant bake baking dessert candy chocolate diet cuisine steak burger burgers fried catfish sardines
adobo jollof jambalaya pasteles
pasta spaghetti sushi tacos fries chicken bacon cheese seafood salad sandwiches soup noodles grill
grilling barbecue bbq crawfish meatballs pierogi pho burritos curry ramen wings lobster crab shrimp
oysters bagels donuts pancakes waffles cake cakes pie pies cookies bread cupcakes muffins dumplings rice
tamales poutine enchiladas lasagna gumbo paella kimchi falafel hummus nachos biryani samosas pierogies
empanadas gyros kebab kebabs bratwurst schnitzel risotto gnocchi ravioli fajitas quesadillas brisket ribs
meatloaf casserole stew chili oatmeal popcorn pretzels yogurt eaten ate eats
cilantro coriander olives mushrooms onions garlic broccoli tomatoes pickles mayonnaise mayo ketchup eggplant
celery spinach kale beets liver anchovies avocado avocados coconut licorice tofu fruit vegetables veggies sweets`,
		catDrink: `drink drinks drinking alcohol beer wine coffee coffees tea soda juice whiskey vodka
cocktail cocktails whisky`,
		catSport: `sport sports football soccer basketball baseball hockey tennis golf gym exercise workout active
running run runs jog jogging swim swimming team athletic athlete marathon marathons gymnastics
wrestling yoga racing weights weightlifting softball rugby cricket volleyball lacrosse bowling boxing
surf surfing skiing snowboarding skateboarding cycling karate judo rowing badminton pickleball
triathlon triathlons horseback cheerleading cheer wrestle frisbee nascar zumba pilates crossfit golfer boxer wrestler hurling
bouldering climbing climb climbs curling fencing cheerleader cheerleaders skateboard swam swims swimmer
sporty sporting supporter supporters match matches ultramarathon ultramarathons rodeo skater skaters`,
		catStudy: `study studying studies student students school college university major degree class
classes graduate graduated graduating subject subjects grade semester majoring majored freshman
sophomore studied grader graders phd doctorate masters homeschooled homeschool`,
		catPlans: `plans plan planning dream dreams goal goals future someday ambition hope hoping wish`,
		catFear: `afraid fear fears scared scare scares phobia phobias allergic allergy allergies terrified
frightened`,
		catCar: `car cars drive drives driving vehicle vehicles truck trucks motorcycle motorcycles motorbike
motorbikes bike bikes van vans bicycle bicycles scooter scooters vespa moped skateboard skateboards commute commuting`,
		catLanguage: `language languages speak speaks spanish french english german chinese russian japanese
italian fluent arabic portuguese korean bilingual`,
		catBooks: `book books read reading novel novels author authors writer poetry poems story stories audiobooks`,
		catFilms: `movie movies film films tv show shows watch watching series netflix documentaries
character characters cartoon cartoons anime sitcom sitcoms documentary telenovelas musicals`,
		catAge: `age`,
		catLooks: `hair eyes tall height look looks beard tattoo tattoos tattooed skin tooth teeth freckles male female
boy girl glasses bald blonde brunette redhead`,
		catRhythm: `riser wake wakes waking woke sleep sleeps sleeping asleep awake owl bedtime insomnia`,
		catHealth: `health healthy sick illness disease diabetes diabetic asthma cancer injury injured surgery
surgeries injuries wheelchair blind colorblind deaf eyesight disability medication arthritis chronic
cough pacemaker knee knees emphysema oxygen walker cane degeneration replacement hearing dementia alzheimer's
alzheimers parkinson's parkinsons stroke dialysis cholesterol lupus epilepsy epileptic sclerosis crohn's crohns tinnitus
migraine migraines insomnia`,
	} {
		for w := range strings.FieldsSeq(words) {
			m[w] |= c
		}
	}
	return m
}()

// intentOf is what word w is about, read without the digits a word may
// be glued to ("5cats").
func intentOf(w string) category {
	if c, ok := intentWords[w]; ok {
		return c
	}
	if c, ok := knownWords[w]; ok {
		return c
	}
	if base, ok := strings.CutSuffix(w, "s"); ok && intentWords[base]&catPet != 0 {
		return catPet // "ferrets", "turtles"
	}
	if base, ok := strings.CutSuffix(w, "ies"); ok && intentWords[base+"y"]&catPet != 0 {
		return catPet // "huskies"
	}
	if w != "" && w[0] >= '0' && w[0] <= '9' {
		return intentWords[strings.TrimLeft(w, "0123456789")] // "80s"
	}
	return 0
}

// intentPhrase asks about an intent without its words.
type intentPhrase struct {
	phrase string // padded with spaces, as the normalised text is looked up
	cat    category
}

// intentPhrasesByWord are intentPhrases by their first word: a question is
// looked up word by word, as looking for each phrase in turn took a
// twentieth of a reply's time (BenchmarkReplyDev).
var intentPhrasesByWord = func() map[string][]intentPhrase {
	m := map[string][]intentPhrase{}
	for _, p := range intentPhrases {
		first, _, _ := strings.Cut(strings.TrimPrefix(p.phrase, " "), " ")
		m[first] = append(m[first], p)
	}
	return m
}()

// intentPhrases ask about an intent without its words; they are looked for
// in the normalised text, padded with spaces.
var intentPhrases = []intentPhrase{
	{" what do you do ", catJob},
	{" what do u do ", catJob},
	{" for a living ", catJob},
	{" for living ", catJob},
	{" for life ", catJob},
	{" where are you ", catPlace},
	{" where r u ", catPlace},
	{" where do you ", catPlace},
	{" where you ", catPlace},
	{" want to be ", catPlans},
	{" want to become ", catPlans},
	{" when you grow up ", catPlans},
	{" when u grow up ", catPlans},
	{" going to be ", catPlans},
	{" like to do ", catHobby},
	{" enjoy doing ", catHobby},
	{" do for fun ", catHobby},
	{" good at ", catHobby},
	{" root for ", catSport},
	{" your background ", catPlace},
	{" family background ", catPlace},
	{" your heritage ", catPlace},
	{" your roots ", catPlace},
	{" relax ", catHobby},
	{" unwind ", catHobby},
	{" what else do you like ", catHobby},
	{" into ", catHobby},
	{" how old ", catAge},
	{" years old ", catAge},
	{" year old ", catAge},
	{" listen to ", catMusic},
	{" want to do ", catPlans},
	{" want to go ", catPlans},
	{" you want to ", catPlans},
	{" pass the time ", catHobby},
	{" get to work ", catCar},
	{" morning person ", catRhythm},
	{" night person ", catRhythm},
	{" early bird ", catRhythm},
	{" get up ", catRhythm},
	{" up at ", catRhythm},
	{" every morning at ", catRhythm},
	{" out of bed ", catRhythm},
	{" to bed ", catRhythm},
	{" until late ", catRhythm},
	{" stay up ", catRhythm},
	{" hate mornings ", catRhythm},
	{" love mornings ", catRhythm},
	{" mornings are ", catRhythm},
	{" sweet tooth ", catFood},
	{" where abouts ", catPlace},
	{" relax ", catHobby},
	{" what year are you ", catStudy},
	{" professionally ", catJob},
	{" would you like to ", catPlans},
	{" days off ", catHobby},
	{" day off ", catHobby},
	{" in the evenings ", catHobby},
	{" after work ", catHobby},
	{" get around ", catCar},
	{" based in ", catPlace},
	{" based ", catPlace},
	{" whereabouts ", catPlace},
	{" call home ", catPlace},
	{" make a living ", catJob},
	{" make money ", catJob},
	{" earn money ", catJob},
	{" earn a living ", catJob},
	{" pay the bills ", catJob},
	{" my living ", catJob},
	{" seeing anyone ", catFamily},
	{" start my own ", catPlans | catJob},
	{" hip hop ", catMusic},
	{" significant other ", catFamily},
	{" special someone ", catFamily},
	{" love life ", catFamily},
	{" you do before ", catJob},
	{" stay in shape ", catSport},
	{" work out ", catSport},
	{" working out ", catSport},
	{" fitness ", catSport},
	{" active ", catSport},
	{" keep in shape ", catSport},
	{" stay fit ", catSport},
	{" keep fit ", catSport},
	{" drivers license ", catCar},
	{" driver's license ", catCar},
	{" bench press ", catSport},
	{" keeps you busy ", catJob | catHobby},
	{" can't eat ", catFear},
	{" cannot eat ", catFear},
	{" taste of ", catFood},
	{" keep you busy ", catJob | catHobby},
	{" typical day ", catJob},
	{" at home with you ", catFamily},
	{" live with ", catFamily},
	{" been together ", catFamily},
	{" bucket list ", catPlans},
	{" would you love to ", catPlans},
}

// afterLive are the words after "live" that say where: "i live in…",
// "i live alone".
var afterLive = newSet("in on at near by outside inside abroad here there close next downtown off")

// beforeFrom are the words before "from" that say where one comes from.
var beforeFrom = newSet("am is are was come comes came originally moved family hail hails")

// takeWords take classes: "i take accounting classes at night" tells
// one's studies, "dog agility classes" do not.
var takeWords = newSet("take takes taking took")

// schooling are occupations that are no job: "i'm a college student"
// does not answer "do you have a job?".
var schooling = newSet("student students pupil")

// manJob reports a trade named by "-man" after an article: "i was a
// mailman", "i am a fisherman".
func manJob(prev, w string) bool {
	return (prev == "a" || prev == "an" || prev == "were") && len(w) > 5 && (strings.HasSuffix(w, "man") || strings.HasSuffix(w, "men")) &&
		!strings.HasSuffix(w, "woman") && !strings.HasSuffix(w, "women") && !notMen.has(w)
}

// notMen end in "man" but name no one's trade: "a german shepherd".
var notMen = newSet("human freshman german germans roman norman ottoman doberman dobermans caiman")

// businessVerbs say one has a business when a thing follows: "i run a
// bakery".
var businessVerbs = newSet("run runs ran own owns owned manage manages managed")

// heightWords give a height after a number.
var heightWords = newSet("foot feet inches")

// hobbyVerbs are things people do for fun, said with "i" or after a verb
// of liking: "i collect comic books", "i love to knit".
var hobbyVerbs = newSet(`collect knit crochet sew paint draw sketch hike camp garden surf ski snowboard skate
skateboard fish hunt bowl dance volunteer quilt scrapbook craft kayak climb whittle carve brew restore strum binge`)

// sportVerbs are the hobbyVerbs that are a sport too.
var sportVerbs = newSet("surf ski snowboard skate skateboard bowl kayak climb")

// gameWords name games, a pastime but not the word for one.
var gameWords = newSet("game games chess videogames")

// playOther are what one plays that is not a sport: "play with my dog",
// "play video games".
var playOther = newSet("with a an the my video board card cards outside in on at games")

// rideWords are what one rides for the exercise: "i ride my bike along
// the river" is a sport as well as a vehicle.
var rideWords = newSet("bike bikes bicycle bicycles")

// visitVerbs go to a place as a traveller: "saving money to visit japan".
var visitVerbs = newSet("visit visiting see explore backpack backpacking tour touring")

// habitWords say that something is done again and again.
var habitWords = newSet("often every weekly lessons classes sometimes regularly usually mondays tuesdays wednesdays thursdays fridays saturdays sundays weekends evenings mornings")

// numberWords are numbers written out, up to the ages profiles give.
var numberWords = newSet(`one two three four five six seven eight nine ten eleven twelve thirteen fourteen
fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred`)

// isNumber reports a number, in digits or words.
func isNumber(w string) bool {
	return numberWords.has(w) || w != "" && w[0] >= '0' && w[0] <= '9'
}

// possessives own what follows: "a girl from my village".
var possessives = newSet("my our his her their your")

// otherPeople are others a fact may tell of: "engaged to a girl from my
// village" tells where she is from, not where one lives.
var otherPeople = newSet("girl boy guy man woman lady someone somebody friend friends people person")

// distanceVerbs go a distance: "i walk about fifteen miles a day" is a
// sport.
var distanceVerbs = newSet("walk walks swim swims bike bikes cycle cycles")

// householdWords tell who one lives with: "i live alone", "i share a
// flat with two roommates".
var householdWords = newSet("alone roommate roommates flatmate flatmates housemate housemates")

// runDistances are what a runner runs: "i run marathons".
var runDistances = newSet("miles marathons laps races trails sprints hills kilometers kilometres cross")
