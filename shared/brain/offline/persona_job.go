package offline

import (
	"slices"
	"strings"
)

// What tells a job beyond the names of occupations: a noun of one who
// does something ("i am a long haul trucker", "i am a forest ranger"), a
// trade told by its verb at a workplace ("i cut and style hair at a
// salon", "i fix cars at my own auto shop"), and a business of one's own.

// jobIntents returns catJob when profile sentence ws tells one's job
// without naming an occupation the engine knows.
func jobIntents(ws []string) category {
	if len(ws) > 3 && ws[0] == "my" && kin[ws[1]] > 0 && kinJobVerbs.has(ws[2]) {
		return catJob // "my husband coaches high school football"
	}
	ws = afterTimeFront(ws)
	if len(ws) < 3 || ws[0] != "i" {
		return 0
	}
	padded := " " + strings.Join(ws, " ") + " "
	if strings.Contains(padded, " for a living ") || ownsWorkplace(ws) ||
		strings.Contains(padded, " pay the bills ") || strings.Contains(padded, " wait tables ") || strings.Contains(padded, " on the side ") ||
		strings.Contains(padded, " professionally ") || strings.Contains(padded, " practice law ") || strings.Contains(padded, " practice medicine ") {
		return catJob
	}
	v := 1 + adverbsAt(ws, 1)
	if v >= len(ws) {
		return 0
	}
	// "i am a long haul trucker", "i used to be a coal miner": the noun
	// that ends the phrase after "a".
	if rest, ok := strings.CutPrefix(strings.Join(ws[v:], " "), "used to be "); ok {
		ws, v = append([]string{"i", "am"}, strings.Fields(rest)...), 1
	}
	if (ws[v] == "am" || ws[v] == "was") && v+2 < len(ws) && (ws[v+1] == "a" || ws[v+1] == "an") {
		if ws[v+2] == "professional" {
			return catJob // "i am a professional gamer"
		}
		head := ws[v+2]
		for _, w := range ws[v+3:] {
			if boundaries.has(w) || headEnds.has(w) {
				break
			}
			head = w
		}
		if agentNoun(head) && !(slicesHasAny(ws, schoolWords) && studentAgents.has(head)) {
			return catJob // "a middle school band director", not "a college baseball player"
		}
		return 0
	}
	// "i drive a school bus", "i haul freight in my semi": a vehicle
	// driven for others.
	if !leisureVerbs.has(ws[v]) && !hobbyVerbs.has(ws[v]) && ws[v] != "ride" && ws[v] != "rode" && slicesHasAny(ws[v:], workVehicles) {
		return catJob
	}
	// "i fix cars at my own auto shop", "i sell houses".
	if tradeVerbs.has(ws[v]) && (workplaceNamed(ws[v:]) || sellingVerbs.has(ws[v])) {
		return catJob
	}
	if worksAt(ws[v:]) || worksIn(ws[v:]) || servesOthers(ws[v:]) {
		return catJob
	}
	return 0
}

// servesOthers reports a trade told by whom one does it for: "i coach
// chess to kids in moscow", "i cook for the crew on a cargo ship", "i
// take tourists out fishing"; not for one's own ("i cook for my kids"),
// nor a pastime's verb ("i play cards with the guests").
func servesOthers(ws []string) bool {
	if len(ws) < 3 || hobbyVerbs.has(ws[0]) || leisureVerbs.has(ws[0]) && ws[0] != "take" || intentOf(ws[0])&(catSport|catMusic|catTravel) != 0 {
		return false
	}
	for i, w := range ws[1:] {
		if clients.has(w) && (i == 0 || ws[i] == "to" || ws[i] == "for" || ws[i] == "the" && i > 0 && (ws[i-1] == "for" || ws[i-1] == "to")) {
			return true
		}
	}
	return false
}

// clients are those one works for: "for clients", "to kids".
var clients = newSet("clients customers tourists students kids children patients crew guests passengers visitors travelers travellers hikers")

// worksIn reports a trade told by what one does to others' things in a
// town or a land the gazetteer knows: "i sew suits in a small shop in
// istanbul", "i fix pipes and drains all over auckland", "i guide tourists
// through the temples of luxor"; not a pastime's verb ("i play chess in
// paris"), one's own things ("i walk my dog in paris") nor one's home ("i
// rent an apartment in dubai").
func worksIn(ws []string) bool {
	if len(ws) < 4 || leisureVerbs.has(ws[0]) || hobbyVerbs.has(ws[0]) || intentOf(ws[0])&(catSport|catHobby|catMusic|catTravel) != 0 ||
		boundaries.has(ws[1]) || ws[1] == "my" || ws[1] == "our" || slicesHasAny(ws, dwellings) {
		return false
	}
	for i, w := range ws[1:] {
		modifier := strings.HasSuffix(w, "ing") && i+2 < len(ws) && !stopwords.has(ws[i+2]) && !boundaries.has(ws[i+2]) // "fishing nets"
		if !modifier && intentOf(w)&(catSport|catHobby|catTravel) != 0 || habitWords.has(w) || weekdays.has(strings.TrimSuffix(w, "s")) {
			return false // "i fish for trout in montana on weekends"
		}
		if i > 0 && workLeads.has(w) && len(placesIn(" "+strings.Join(ws[1+i:], " ")+" ")) > 0 {
			return true
		}
	}
	return false
}

// workLeads lead to where one works: "in accra", "all over auckland",
// "outside reykjavik".
var workLeads = newSet("in near outside around over")

// worksAt reports a trade told by what one does to something at or for a
// workplace: "tend bar at an irish pub", "fill prescriptions at a
// drugstore", "write code for a bank"; not a pastime's verb ("play piano
// at my church"), nor what one does there for oneself ("eat lunch at a
// diner", "lift weights at the gym").
func worksAt(ws []string) bool {
	if len(ws) < 4 || leisureVerbs.has(ws[0]) || hobbyVerbs.has(ws[0]) || intentOf(ws[0])&^catJob != 0 ||
		ws[0] == "play" && slices.ContainsFunc(ws, func(w string) bool { return intentOf(w)&catSport != 0 }) {
		return false // "i play point guard on our school team"
	}
	for i := 1; i+1 < len(ws); i++ {
		w := ws[i]
		if w != "at" && w != "for" && w != "on" && w != "in" {
			if boundaries.has(w) && w != "and" && w != "every" || intentOf(w)&(catSport|catHobby) != 0 {
				return false // "i lift weights at the gym"; but "i grow wheat and canola on a farm", "i pour drinks at a bar"
			}
			continue
		}
		if i == 1 {
			return false // "i train at a gym": no object
		}
		for _, x := range ws[i+1:] {
			if workplace(x) {
				return true
			}
			if boundaries.has(x) {
				break
			}
		}
		return false
	}
	return false
}

// leisureVerbs tell what one does for oneself wherever it is done.
var leisureVerbs = newSet(`am was is have had do did go went get got take took spend spent visit visited meet met
love like enjoy hate want need buy bought live lived stay stayed sit hang shop pray worship attend
volunteer study studied learn read eat drink sleep grew used moved keep kept help pay`)

// workplaces are where one works, beyond the places a thing may name
// ("a school teacher") and the businesses one may own.
var workplaces = newSet(`pub drugstore pharmacy ranch warehouse plant mill dealership agency zoo airport airline
newspaper magazine nonprofit casino theater theatre prison jail lab laboratory nursery corporation
site sites venue hospital department practice bistro precinct shipyard academy spa university college
grocery supermarket barbershop`)

// jobHead reports that the noun phrase after ws[i] ends in one who does
// something for a living: "school" in "a middle school band director"
// names the workplace, not a school one attends.
func jobHead(ws []string, i int) bool {
	head := ""
	for _, w := range ws[i+1:] {
		if boundaries.has(w) || headEnds.has(w) {
			break
		}
		head = w
	}
	return head != "" && !studentAgents.has(head) && (occupation(head) || agentNoun(head))
}

// headEnds end a noun phrase besides the boundaries: "a flight attendant
// for a gulf airline", "a teacher who…".
var headEnds = newSet("who that for of")

// studentAgents are what a student may be at a school without a job:
// "a college baseball player".
var studentAgents = newSet("player athlete captain")

// schoolWords make one who does something a student: "a college baseball
// player".
var schoolWords = newSet("college school university")

// kinJobVerbs tell what a relative does for a living.
var kinJobVerbs = newSet("works coaches teaches drives sells owns runs manages fixes repairs builds designs preaches")

// workVehicles are driven for a living.
var workVehicles = newSet("semi rig wheeler bus taxi cab forklift ambulance tractor limo uber lyft delivery rickshaw snowplow snowplough ferry tugboat garbage")

// agentNoun reports a noun of one who does something for a living, by
// its ending: "trucker", "ranger", "attendant", "comedian", "florist".
func agentNoun(w string) bool {
	if len(w) < 6 || notAgents.has(w) || kin[w] > 0 || knownWords[w]&catReligion != 0 {
		return false
	}
	for _, s := range []string{"er", "or", "ist", "ant", "ian"} {
		if strings.HasSuffix(w, s) {
			return true
		}
	}
	return false
}

// notAgents end like a trade but name what one is or likes: "a dog
// lover", "a night owl", "a big reader", "a vegetarian", "an italian".
var notAgents = newSet(`lover lovers member citizen vegetarian christian italian canadian brazilian
indian australian russian asian parent student resident patient survivor winner partner beginner
learner reader gamer immigrant cheerleader runner jogger swimmer hiker biker climber surfer skier skater collector
believer dreamer sleeper eater drinker smoker talker thinker introvert extrovert monster
senior junior grader number supporter follower fighter foreigner stranger newcomer quarter daughter
shelter center centre computer water river winter summer dinner weather theater burger sweater
flower tower power paper letter tiger spider butter silver leather powder soccer corner border
order matter poster feather ladder hammer finger shoulder cancer trailer mirror color colour
indoor outdoor horror motor error elevator flavor flavour neighbor neighbour humor humour
restaurant elephant giant infant pregnant playlist`)

// afterTimeFront returns ws from its "i" on when a time comes first:
// "these days i sell houses in denver", "during the day i am an
// electrician".
func afterTimeFront(ws []string) []string {
	for i := 1; i < len(ws) && i <= 3; i++ {
		if ws[i] == "i" && timeFronts.has(strings.Join(ws[:i], " ")) {
			return ws[i:]
		}
	}
	return ws
}

// timeFronts open a sentence with when: "these days i…".
var timeFronts = set{"now": {}, "nowadays": {}, "currently": {}, "lately": {}, "today": {}, "these days": {},
	"during the day": {}, "by day": {}, "by night": {}, "at night": {}}

// tradeVerbs tell a trade when a workplace is named; sellingVerbs tell
// one on their own ("i sell houses").
var (
	tradeVerbs   = newSet("fix repair sell design build cut style deliver clean install program treat serve make bake preach teach tutor sew tailor")
	sellingVerbs = newSet("sell design repair install deliver farm preach teach tutor")
)

// workplaceNamed reports a workplace among ws: "at a salon", "my own
// auto shop".
func workplaceNamed(ws []string) bool {
	return slices.ContainsFunc(ws, workplace)
}

// ownsWorkplace reports "my own" before a workplace: "i run my own
// bakery", "i fix cars at my own auto shop"; not "i brew my own beer in
// the garage".
func ownsWorkplace(ws []string) bool {
	for i := 0; i+2 < len(ws); i++ {
		if ws[i] == "my" && ws[i+1] == "own" && (workplace(ws[i+2]) || i+3 < len(ws) && workplace(ws[i+3])) {
			return true
		}
	}
	return false
}

// workplace reports a noun of a place one works at or a business one
// runs: "salon", "bakery", "drugstore".
func workplace(w string) bool { return places.has(w) || businesses.has(w) || workplaces.has(w) }

// businesses are what one runs or owns for a living besides places.
var businesses = newSet("startup business place bakery cafe diner pub daycare truck brand ranch")

// atWorkplace reports a thing named before a workplace ("a car factory",
// "a pet store", "a coffee shop"): the thing names the place, not what
// the fact is about.
func atWorkplace(next string) bool {
	return places.has(next) && !ownPlaces.has(next) ||
		next == "place" || next == "products"
}

// ownPlaces are places whose thing is what the fact is about: "music
// school", "a horse farm", "the church choir".
var ownPlaces = newSet("kitchen gym pool church school farm library")

// yearsAs says a job held for years with its years first, the way the
// router lets it be said when the job's name is held whole: "i was a mail
// carrier for thirty two years" is "thirty two years as mail carrier,
// that was my job". "" for any other sentence.
func yearsAs(ws []string) string {
	if len(ws) < 7 || ws[0] != "i" || ws[1] != "was" || ws[2] != "a" && ws[2] != "an" || !durationUnits.has(ws[len(ws)-1]) {
		return ""
	}
	k := slices.Index(ws, "for")
	if k < 4 || k > 8 || k+2 >= len(ws) || slices.Contains(ws[3:k], "and") || !occupation(ws[k-1]) && !agentNoun(ws[k-1]) && !slices.Contains(ws[3:k], "in") {
		return ""
	}
	for _, w := range ws[k+1 : len(ws)-1] {
		if !isNumber(w) && w != "over" && w != "almost" && w != "nearly" && w != "about" {
			return ""
		}
	}
	return strings.Join(ws[k+1:], " ") + " as " + strings.Join(ws[3:k], " ") + ", that was my job"
}

// durationUnits end a span of years.
var durationUnits = newSet("years decades")
