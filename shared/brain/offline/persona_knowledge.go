package offline

import (
	"slices"
	"strings"
)

// What everyone knows about the things profiles name, so that a fact is
// matched to a question about what its thing is: the Yankees are a
// baseball team ("fav team?"), church is religion ("are you religious?"),
// a chef cooks ("do you cook?"), France is where French is spoken ("do you
// speak french?"), a Mustang is a car. Names that are also everyday words
// ("the bears", "queen", "friends") are left out: a fact about them keeps
// the intent its other words give it.

// knownKind names the things of a kind everyone knows, by the words a
// question asks about them with (the class) and the intent they answer.
// A name of several words is joined by "_" and looked for as a phrase.
type knownKind struct {
	class   string // words naming the kind: "baseball"
	intent  category
	members string
}

// knownKinds are the kinds known by hand, then WordNet's (wordnetKinds).
var knownKinds = append(handKinds, wordnetKinds(handKinds)...)

// handKinds are the kinds known by hand.
var handKinds = []knownKind{
	{"baseball", catSport, `little_league yankees sox dodgers mets cubs astros braves phillies mariners orioles padres brewers
rockies royals jays nationals`},
	{"football nfl", catSport, `cowboys packers steelers patriots broncos seahawks 49ers niners raiders
texans redskins commanders buccaneers bucs ravens bengals jaguars chargers`},
	{"basketball nba", catSport, `lakers celtics knicks cavaliers cavs mavericks mavs spurs clippers pistons
76ers sixers timberwolves`},
	{"hockey nhl", catSport, `bruins blackhawks canadiens leafs canucks oilers`},
	{"soccer football premier league mls", catSport, `arsenal chelsea liverpool barcelona juventus manchester_united real_madrid
tottenham bayern napoli roma psg dortmund ajax west_ham everton aston_villa newcastle_united leeds_united
celta gremio chivas flamengo corinthians boca_juniors river_plate galatasaray fenerbahce besiktas benfica ac_milan inter_milan
atletico_madrid national_team`},
	{"rock band bands", catMusic, `metallica beatles nirvana coldplay zeppelin aerosmith radiohead springsteen nickelback jovi
hendrix pink_floyd rolling_stones green_day foo_fighters imagine_dragons queen_band ac_dc`},
	{"metal heavy band bands", catMusic, `metallica rammstein slipknot megadeth iron_maiden black_sabbath`},
	{"pop band bands", catMusic, `beyonce madonna adele rihanna bieber gaga sheeran abba bts blackpink shakira
timberlake taylor_swift katy_perry bruno_mars ariana_grande one_direction backstreet_boys miley_cyrus
britney_spears michael_jackson k-pop kpop`},
	{"country", catMusic, `parton chesney johnny_cash garth_brooks willie_nelson luke_bryan blake_shelton
carrie_underwood dolly_parton country_station george_strait reba shania_twain tim_mcgraw keith_urban
alan_jackson randy_travis hank_williams patsy_cline kenny_chesney`},
	{"rap hip hop", catMusic, `eminem kanye drake_rapper jay-z tupac snoop_dogg`},
	{"reggae", catMusic, `bob_marley`},
	{"folk", catMusic, `bob_dylan`},
	{"swing jazz", catMusic, `sinatra elvis`},
	{"listen", 0, `podcast podcasts radio audiobooks`},
	{"classical composer composers", catMusic, `mozart beethoven bach chopin vivaldi tchaikovsky orchestra symphony philharmonic`},
	{"author authors writer writers", catBooks, `tolkien rowling hemingway shakespeare austen dickens orwell
tolstoy stephen_king dr_seuss agatha_christie mark_twain`},
	{"show shows series tv", catFilms, `simpsons seinfeld sopranos breaking_bad walking_dead stranger_things
game_of_thrones doctor_who star_trek the_office greys_anatomy`},
	{"book books", catBooks, `harry_potter lord_of_the_rings hunger_games twilight`},
	{"movie movies film films", catFilms, `star_wars harry_potter marvel pixar avengers batman superman
spiderman jurassic_park toy_story lion_king godfather titanic lord_of_the_rings`},
	{"religious religion faith god", catReligion, `church churches god jesus christ bible pray prays
praying prayer prayers christian christians catholic baptist methodist lutheran mormon muslim islam
mosque jewish synagogue hindu buddhist buddhism atheist religious religion faith spiritual pastor priest temple temples
rabbi imam worship buddha synagogue jehovah jehovahs go_to_mass`},
	{"jewish judaism", catReligion, `synagogue rabbi torah kosher hanukkah`},
	{"christmas easter", catReligion, `church churches christian catholic baptist methodist lutheran pastor priest go_to_mass
rabbi jewish synagogue hanukkah muslim mosque ramadan hindu diwali atheist`},
	{"christian christianity", catReligion, `church churches jesus christ bible catholic baptist methodist lutheran`},
	{"catholic", catReligion, `go_to_mass catholic`},
	{"muslim islam", catReligion, `mosque quran ramadan`},
	{"buddhist buddhism", catReligion, `buddha`},
	{"cook cooks cooking chef", catFood, `chef chefs cook cooks cooking baker bakers bake bakes baking
grill grilling barbecue bbq culinary recipe recipes`},
	{"car cars vehicle vehicles", catCar, `ford chevy chevrolet toyota honda jeep tesla bmw mercedes subaru prius
mustang camaro corvette harley volkswagen porsche ferrari lamborghini nissan audi volvo hyundai mazda
lexus cadillac pickup minivan sedan suv convertible civic corolla`},
	{"pet pets animal animals", catPet, `pit_bull great_dane golden_retriever border_collie german_shepherd
guinea_pig bearded_dragon furry_friend`},
	{"dog dogs puppy", catPet, `pit_bull great_dane golden_retriever border_collie german_shepherd french_bulldog
retriever shepherd terrier beagle bulldog husky collie pug poodle labrador lab chihuahua dachshund corgi
rottweiler pitbull doberman goldendoodle labradoodle greyhound greyhounds whippet dalmatian schnauzer shih_tzu
kelpie shiba shiba_inu akita spaniel mastiff pomeranian samoyed malamute basset_hound bloodhound yorkie westie
sheepdog weimaraner vizsla heeler blue_heeler jack_russell sheltie`},
	{"bug bugs insect insects", 0, `spider spiders bee bees ant ants cockroach cockroaches roaches mosquito mosquitoes
wasp wasps beetle beetles moth moths`},
	{"seafood", catFood, `fish shrimp crab crabs lobster oysters clams mussels salmon tuna prawns scallops calamari
crawfish sushi`},
	{"cat cats kitty kitten", catPet, `siamese persian tabby maine_coon ragdoll sphynx calico russian_blue tortoiseshell`},
	{"game games gamer gamers gaming tabletop board", catHobby, `chess poker checkers scrabble sudoku video_games board_games
dungeons_and_dragons tabletop card_games play_bridge ` + videoGames},
	{"cards card", catHobby, `poker blackjack play_bridge solitaire rummy`},
	{"video", catHobby, videoGames},
	{"gamble gambling", catHobby, `poker blackjack casino casinos`},
	{"garden gardening gardener", catHobby, `grow_tomatoes grow_vegetables grow_flowers vegetable_garden flower_garden grow_my_own grow_herbs
grow_roses grow_pumpkins plant_nursery greenhouse`},
	{"outdoors outdoor outdoorsy outside nature", catHobby, `hike hiking camp camping hunt hunting fishing fly_fish kayak kayaking
ranger forest climbing fish_for`},
	{"tech technology computer computers", catJob, `software programmer developer coder startup`},
	{"reader readers", 0, `librarian library bookstore book_club`},
	{"skate skates skating skater", catSport, `skateboard skateboarding skateboarder skateboards roller_skating ice_skating`},
	{"car cars engines", 0, `mechanic mechanics auto_shop body_shop`},
	{"commute commuting", 0, `work_from_home worked_from_home work_remotely remote`},
	{"space astronomy stars", 0, `astronomer astronomers observatory telescope nasa astronaut`},
	{"rainy", 0, `rain`}, {"snowy", 0, `snow`}, {"sunny", 0, `sun sunshine`}, {"windy", 0, `wind`}, {"stormy", 0, `storm storms thunderstorms`},
	{"scientist scientists science", 0, `biologist astronomer chemist physicist researcher research_station geologist ice_cores lab`},
	{"club clubs organization organizations campus", 0, `sorority fraternity a_cappella student_government debate_team`},
	{"work job working", catJob, `internship intern interning`},
	{"artistic art artsy creative", 0, `paint painting watercolors watercolor draw drawing sketch sculpt pottery`},
	{"boat boats", 0, `sail sailing sailor sailboat kayak canoe yacht`},
	{"pictures picture photos photo", 0, `photography photograph photographing camera`},
	{"electric hybrid", catCar, `tesla prius`},
	{"motorcycle motorcycles motorbike bike bikes biker bikers", catCar, `harley ducati`},
	{"drive ride", catCar, `vespa scooter moped tractor`},
	{"tea", catDrink, `chai matcha`},
	{"write writes writer writing publish published", 0, `written wrote`},
	{"artist artists painter painters art", 0, `van_gogh picasso monet da_vinci rembrandt painter paint painting
draw drawing sculpt`},
	{"board", catHobby, `chess checkers scrabble monopoly`},
	{"craft crafts crafty", catHobby, `knit knitting crochet sew sewing quilt quilting scrapbook woodworking pottery`},
	{"build building", 0, `woodworking carpentry lego`},
	{"instrument instruments", 0, `drummer drummers guitarist guitarists pianist violinist cellist bassist
saxophonist trumpeter fiddler`},
	{"musician musicians", 0, `have_a_band in_a_band play_guitar play_the_guitar play_piano play_the_piano
play_drums play_the_drums`},
	{"doctor doctors", 0, `cardiologist surgeon pediatrician dermatologist physician oncologist neurologist
psychiatrist`},
	{"season seasons", 0, `winter summer spring fall autumn`},
	{"cop cops police law enforcement", catJob, `police detective sheriff officer patrol trooper deputy`},
	{"post mail mailman postman carrier", 0, `mail_carrier mailman postal deliver_mail delivering_mail delivered_mail`},
	// Trades told by what one does: "are you a hairdresser?" "I cut and
	// color hair at a busy salon."
	{"hairdresser hairdressers stylist barber", catJob, `cut_hair color_hair colour_hair cut_and_color_hair cut_and_colour_hair
style_hair`},
	{"pilot pilots", catJob, `fly_planes fly_cargo fly_jets fly_passenger_jets cargo_planes flies_planes flies_jets flies_for
cargo_airline`},
	{"waiter waitress waitresses server", catJob, `wait_tables waiting_tables`},
	{"programmer programmers coder developer software code coding", catJob, `write_code writes_code wrote_code coding programming`},
	{"trucker truckers truck driver", catJob, `haul_freight hauling_freight big_rig semi eighteen_wheeler 18_wheeler long_haul_truck
drive_a_truck drive_trucks drives_a_truck drive_a_semi`},
	{"teacher teachers", catJob, `taught teach teaches teach_kindergarten teaches_kindergarten`},
	{"firefighter firefighters fireman", catJob, `fire_department fight_fires fights_fires firehouse fire_station fight_wildfires
fights_wildfires fight_forest_fires`},
	{"mechanic mechanics engines cars car", 0, `repair_engines fix_engines fix_cars repair_cars work_on_engines work_on_cars`},
	{"cashier cashiers", catJob, `ring_up_groceries checkout register`},
	{"bartender bartenders", catJob, `mix_drinks tend_bar pour_drinks bartend`},
	{"pharmacist pharmacy", catJob, `fill_prescriptions`},
	{"carpenter carpenters construction builder", catJob, `frame_houses build_houses construction_crew`},
	{"accountant accounting numbers", catJob, `crunch_numbers do_taxes bookkeeping`},
	{"numbers math maths", 0, `accountant accountants accounting bookkeeper bookkeeping actuary mathematician statistician cpa`},
	{"children kids child kid", 0, `kindergarten preschool daycare pediatric pediatrician nanny babysitter babysit babysitting
elementary_school first_grade second_grade third_grade fourth_grade fifth_grade teach_kindergarten teaches_kindergarten`},
	{"photographer photographers camera", catJob, `photograph_weddings photographing shoot_weddings`},
	{"married", 0, `priest nun`},
	{"military", catJob, `air_force`},
	{"service branch", catJob, `war fought veteran marines soldier army navy`},
	{"fix repair", 0, `mechanic plumber electrician handyman`},
	{"animal animals", 0, `zookeeper zoo vet veterinarian ranch rancher dairy dairy_farmer cattle`},
	{"theme park parks", 0, `disney_world disneyland universal_studios six_flags`},
	{"exercise workout gym fitness", catSport, `trainer personal_trainer`},
	{"winter", 0, `cold snow snowboarding skiing ski snowboard skating`},
	{"cold", 0, `winter snow`},
	{"puzzle puzzles", catHobby, `crossword crosswords sudoku jigsaw`},
	{"ocean sea beach", 0, `marine sailboat surf surfing beach coast coastal seaside shore`},
	{"swim swimming swimmer water beach ocean sea", 0, `ocean sea deep_water drown drowned drowning lake swim swimming swimmer
lifeguard scuba snorkel snorkeling sharks`},
	{"swim swimming swimmer", catSport, `lifeguard swim_team`},
	{"skydiving skydive bungee roller coaster coasters", 0, `heights`},
	{"habit habits", 0, `bite_my_nails smoke smoking procrastinate`},
	{"fitness exercise workout gym shape", catSport, `yoga pilates crossfit tai_chi jog jogging lift_weights weightlifting zumba aerobics`},
	{"sweets sweet dessert desserts candy", catFood, `sugar candy chocolate dessert desserts`},
	{"sweet tooth", catFood, `sweets candy chocolate dessert desserts cake cakes cookies pastries ice_cream`},
	{"peanut butter", catFood, `peanut peanuts`},
	{"diet dietary restrictions bread gluten wheat", catFood, `gluten_free gluten`},
	{"major majoring study studying studies", catStudy, `study studying studied major majoring`},
	{"healthcare medicine medical hospital", catJob, `nurse doctor paramedic surgeon dentist pharmacist therapist emt
physician dental prescriptions patients`},
	{"bake baking baker", catFood, `pie pies cake cakes cookies bread muffins cupcakes bakery`},
	{"cook cooks cooking", catFood, `make_the_best homemade`},
	{"sci fi scifi science fiction", catFilms, `star_wars star_trek`},
	{"hear hearing", catHealth, `deaf`},
	{"shrimp shellfish seafood lobster crab", catFood, `shellfish seafood shrimp lobster crab`},
	{"cheese milk dairy cream ice", catFood, `lactose dairy`},
	{"meat vegan vegetarian", catFood, `vegan vegetarian animal_products steak steaks bacon burgers burger pork beef ribs`},
	{"diet", catFood, `vegan vegetarian animal_products lose_weight`},
	{"alcohol drink drinking", catDrink, `sober wine beer whiskey vodka cocktail cocktails tequila rum`},
	{"anime", catFilms, `spirited_away naruto pokemon ghibli dragon_ball`},
	{"horror scary", catBooks, `stephen_king`},
	{"mystery mysteries", catBooks, `agatha_christie sherlock_holmes`},
	{"hot spicy sauce chili peppers", catFood, `spicy hot_sauce jalapenos`},
	{"heat hot warm", 0, `summer`},
	{"sew sewing", 0, `seamstress tailor`},
	{"athlete athletes player players", catSport, `stephen_curry lebron michael_jordan kobe tom_brady`},
	{"scary", catFilms, `horror`},
	{"horror", catFilms, `scary_movies scary_films`},
	{"dance dancing dancer", catHobby, `salsa ballet tango ballroom`},
	{"bird birds", catPet, `pigeon pigeons duck ducks parrot parrots parakeet cockatiel chickens hens goose geese`},
	{"cycling cycle exercise", catSport, `bicycle`},
	{"sport sports", catSport, `hurling runner marathons`},
	{"allergy allergies allergic", catFear, `peanut_could peanuts_could celiac send_me_to_the_hospital could_kill_me`},
	{"lizard lizards", catPet, `gecko iguana bearded_dragon chameleon`},
	{"reptile reptiles", catPet, `snake python ball_python lizard gecko iguana bearded_dragon`},
	{"veggies vegetables greens", catFood, `broccoli spinach kale carrots peas lettuce`},
	{"tv television", catFilms, `television`},
	{"phobia phobias fear fears afraid scared allergy allergies allergic", catFear, `freak_me_out freaks_me_out
creep_me_out creeps_me_out heights scare_me scares_me terrify_me terrifies_me give_me_nightmares gives_me_nightmares
the_creeps swell_up upsets_my_stomach makes_me_faint make_me_faint epipen intolerant sneeze sneezing itchy hives
nervous`},
	{"health condition conditions", catHealth, `bad_knee bad_back bad_hip blood_pressure diabetes diabetic asthma arthritis cancer heart_condition
migraines insomnia cholesterol`},
	{"hands handy tools", 0, `electrician plumber carpenter mechanic woodworking handyman welder woodworker construction
build_houses builder`},
	{"horoscope horoscopes sign zodiac astrology", 0, `astrology pisces aries taurus gemini virgo libra scorpio sagittarius
capricorn aquarius`},
	{"pork", 0, `muslim islam kosher halal`},
	{"snow", 0, `winter cold`},
	{"shots shot vaccine vaccines injection", 0, `needles needle`},
	{"plane planes airplane airplanes flight flights", 0, `flying`},
	{"facial hair", catLooks, `beard mustache moustache goatee`},
	{"eyesight eyes vision", 0, `glasses contacts contact_lenses blind colorblind`},
	{"moba mobas", catHobby, `league_of_legends dota`},
	{"tarantula tarantulas", 0, `spider spiders arachnophobia`},
	{"latte lattes espresso cappuccino", 0, `barista coffee_shop cafe`},
	{"beer beers wine", catDrink, `alcohol sober`},
	{"morning person riser early late", 0, `night_owl early_bird wake_up sleep_in`},
	{"social outgoing shy introvert extrovert people", 0, `people_person introvert extrovert shy outgoing`},
	{"travel travels traveling travelling traveled travelled abroad overseas europe asia africa flown fly flying plane planes",
		catTravel, `plane cruise cruises national_park national_parks europe asia africa all_over_the_world across_the_country truck_driver trucker pilot
flight_attendant
around_the_world never_left been_to flight_attendant on_an_airplane on_a_plane`},
}

// videoGames are games and consoles, games and video games both.
const videoGames = `xbox playstation nintendo online_games minecraft fortnite call_of_duty zelda mario world_of_warcraft
league_of_legends halo starcraft overwatch skyrim valorant dota counter_strike grand_theft_auto gta elden_ring the_sims
animal_crossing apex_legends`

// knownWords map a one-word name of knownKinds to its intent; knownNames
// find every name, of one word or more, and kindsOf say which kinds each
// name is of. looseClasses are the stems of the classes of kinds of no
// intent: "animals" for a dairy farmer, "tools" for a builder.
var (
	knownWords   = map[string]category{}
	knownNames   = phraseIndex{}
	kindsOf      = map[string][]int{}
	looseClasses = set{}
)

func init() {
	for k, kind := range knownKinds {
		if kind.intent == 0 {
			for w := range strings.FieldsSeq(kind.class) {
				looseClasses.add(stem(w))
			}
		}
		for m := range strings.FieldsSeq(kind.members) {
			name := strings.ReplaceAll(m, "_", " ")
			if kindsOf[name] == nil {
				knownNames.add(name)
			}
			kindsOf[name] = append(kindsOf[name], k)
			if kind.intent != 0 && !strings.Contains(name, " ") {
				knownWords[name] |= kind.intent
			}
		}
	}
}

// knownAs returns the stems of the words a question may name the known
// things of a fact with (source, of intents cats): "i am a big fan of the
// yankees" is known as "baseball" and "team", "i grew up in france" as
// "french". speaksOf reads them.
func knownAs(source string, cats category) set {
	var out set
	add := func(words string) {
		if out == nil {
			out = set{}
		}
		for w := range strings.FieldsSeq(words) {
			out.add(stem(w))
		}
	}
	padded := withoutGivenNames(" " + source + " ")
	for _, name := range knownNames.in(padded) {
		for _, k := range kindsOf[name] {
			add(knownKinds[k].class)
			if knownKinds[k].intent == catSport {
				add("team teams")
			}
		}
	}
	if s := teamSport(padded); s != "" {
		add("team teams sport sports " + s)
	}
	placeKnownAs(padded, cats&catPlace != 0, add)
	return out
}

// withoutGivenNames blanks the names padded gives after "named" or
// "called": "a corgi named biscuit" names no food, "two cats named salt
// and pepper" no seasoning.
func withoutGivenNames(padded string) string {
	ws := strings.Fields(padded)
	for i := 0; i+1 < len(ws); i++ {
		if ws[i] != "named" && ws[i] != "called" {
			continue
		}
		ws[i+1] = "_"
		if i+3 < len(ws) && ws[i+2] == "and" {
			ws[i+3] = "_"
		}
	}
	return " " + strings.Join(ws, " ") + " "
}

// knownOnly reports that fact f speaks of the thing of stem st only as
// a known thing, which says yes to a question of liking only: "do you
// like baseball?" "Yes! I'm a big fan of the yankees.", but "do you play
// baseball?" is told the fact as it is.
func (f *fact) knownOnly(st string, q *text) bool {
	return f.known.has(st) && !f.stems.has(st) && !(f.likes() && questionVerb(q) == "like")
}

// knownIntent reports that name, of knownNames, is of a kind with an
// intent: "stephen curry" a player, not "play guitar".
func knownIntent(name string) bool {
	return slices.ContainsFunc(kindsOf[name], func(k int) bool { return knownKinds[k].intent != 0 })
}

// knownIntents returns the intents of the names of several words in
// padded, a normalised text with spaces around.
func knownIntents(padded string) category {
	var c category
	for _, name := range knownNames.in(padded) {
		for _, k := range kindsOf[name] {
			c |= knownKinds[k].intent
		}
	}
	if fanOfTeam(padded) {
		c |= catSport
	}
	return c
}

// fanOfTeam reports a fan of a team whose name is an everyday word too:
// "i bleed green for the philadelphia eagles", "huge bears fan"; not "i
// love watching eagles".
func fanOfTeam(padded string) bool { return teamSport(padded) != "" }

// teamSport is the sport of the team whose fan padded speaks of, or "".
func teamSport(padded string) string {
	fan, sport, prev := false, "", ""
	for w := range strings.FieldsSeq(padded) {
		fan = fan || fandom.has(w)
		if s := fanTeams[w]; s != "" {
			sport = s
			fan = fan || prev != "" && len(placesIn(" "+prev+" ")) > 0 // "the chicago bulls", "the detroit lions"
		}
		prev = w
	}
	if !fan {
		return ""
	}
	return sport
}

// fanTeams are team names that are everyday words too, with their sport;
// fandom the words of their fans.
var (
	fanTeams = func() map[string]string {
		m := map[string]string{}
		for sport, teams := range map[string]string{
			"football": `eagles bears giants lions dolphins panthers rams saints bills chiefs colts jets falcons
cardinals vikings browns titans`,
			"baseball":   `rangers tigers reds pirates`,
			"basketball": `bulls heat warriors nets suns rockets kings magic thunder`,
			"hockey":     `penguins flyers stars devils sharks ducks`,
		} {
			for t := range strings.FieldsSeq(teams) {
				m[t] = sport
			}
		}
		return m
	}()
	fandom = newSet("fan fans root rooting roots bleed cheer support supporter diehard tickets ticket holder barrack")
)

// namesPhrase reports the name p, of one word or more, in padded (a text,
// spaces around), one or many: "german shepherd" in "two german
// shepherds".
func namesPhrase(padded, p string) bool {
	return strings.Contains(padded, " "+p+" ") || strings.Contains(padded, " "+p+"s ")
}

// phraseIndex finds names of one word or more in a text by their first
// word, rather than looking for each name in turn: a reply reads every
// profile sentence and the question for them (BenchmarkReplyDev).
type phraseIndex map[string][]string

func (x phraseIndex) add(name string) {
	first, _, _ := strings.Cut(name, " ")
	x[first] = append(x[first], name)
}

// in returns the names of x that padded (a text, spaces around) names,
// each once.
func (x phraseIndex) in(padded string) []string {
	var out []string
	for w := range strings.FieldsSeq(padded) {
		for _, n := range x[w] {
			if namesPhrase(padded, n) && !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
		if one, ok := strings.CutSuffix(w, "s"); ok && len(x[one]) > 0 && slices.Contains(x[one], one) && !slices.Contains(out, one) {
			out = append(out, one) // "two goats"
		}
	}
	// A word of a longer name is no name of its own: "star wars" is no war.
	return slices.DeleteFunc(out, func(n string) bool {
		return !strings.Contains(n, " ") && slices.ContainsFunc(out, func(m string) bool {
			return strings.Contains(m, " ") && (strings.Contains(" "+m+" ", " "+n+" ") || strings.Contains(" "+m+" ", " "+n+"s "))
		})
	})
}
