package offline

import (
	_ "embed"
	"maps"
	"strings"
)

// Where the places profiles name are, as everyone knows: Las Vegas is in
// Nevada, Cork in Ireland, whose people are Irish; São Paulo is in Brazil,
// where Portuguese is spoken. A fact naming a place is known by them, so
// that "do you live in nevada?", "are you irish?" and "do you speak
// portuguese?" are answered by where the bot lives or comes from.

// countries give a country's people and language; the name of several
// words is joined by "_". regions (below) map cities and states to the
// state or country they are in. Both are the lists here with the
// gazetteer's places (farPlaces) added.
var countries, regions, farPlaces = withGazetteer(knownCountries, knownRegions)

type countryInfo struct{ people, language string }

var knownCountries = map[string]countryInfo{
	"america": {"american", "english"}, "usa": {"american", "english"}, "united_states": {"american", "english"},
	"canada": {"canadian", "english"}, "mexico": {"mexican", "spanish"}, "england": {"english british", "english"},
	"ireland": {"irish", "english"}, "scotland": {"scottish british", "english"}, "wales": {"welsh british", "welsh"},
	"france": {"french", "french"}, "spain": {"spanish", "spanish"}, "portugal": {"portuguese", "portuguese"},
	"germany": {"german", "german"}, "austria": {"austrian", "german"}, "italy": {"italian", "italian"},
	"greece": {"greek", "greek"}, "poland": {"polish", "polish"}, "russia": {"russian", "russian"},
	"sweden": {"swedish", "swedish"}, "norway": {"norwegian", "norwegian"}, "netherlands": {"dutch", "dutch"},
	"holland": {"dutch", "dutch"}, "brazil": {"brazilian", "portuguese"}, "argentina": {"argentinian", "spanish"},
	"colombia": {"colombian", "spanish"}, "peru": {"peruvian", "spanish"}, "cuba": {"cuban", "spanish"},
	"japan": {"japanese", "japanese"}, "china": {"chinese", "chinese"}, "korea": {"korean", "korean"},
	"india": {"indian", "hindi"}, "vietnam": {"vietnamese", "vietnamese"}, "philippines": {"filipino", "tagalog"},
	"australia": {"australian", "english"}, "nigeria": {"nigerian", "english"}, "egypt": {"egyptian", "arabic"},
	"israel": {"israeli", "hebrew"}, "jamaica": {"jamaican", "english"}, "kenya": {"kenyan", "swahili"},
	"south_africa": {"south african", "english"}, "thailand": {"thai", "thai"}, "iraq": {"iraqi", "arabic"},
	"afghanistan": {"afghan", "pashto"}, "haiti": {"haitian", "creole"},
	// Countries WordNet's gazetteer names only by a longer name ("republic of chile").
	"chile": {"chilean", "spanish"}, "bolivia": {"bolivian", "spanish"}, "puerto_rico": {"puerto rican", "spanish"},
	"morocco": {"moroccan", "arabic"}, "taiwan": {"taiwanese", "mandarin"}, "serbia": {"serbian", "serbian"},
	"estonia": {"estonian", "estonian"}, "latvia": {"latvian", "latvian"}, "lithuania": {"lithuanian", "lithuanian"},
}

// coasts give the part of the country a state is in.
var coasts = func() map[string]string {
	m := map[string]string{}
	for part, states := range map[string]string{
		"east coast": `maine new_hampshire vermont massachusetts rhode_island connecticut new_york new_jersey
pennsylvania delaware maryland virginia north_carolina south_carolina georgia florida`,
		"west coast": `california oregon washington`,
		"midwest":    `ohio michigan indiana illinois wisconsin minnesota iowa missouri kansas nebraska north_dakota south_dakota`,
		"south":      `texas louisiana mississippi alabama tennessee kentucky arkansas oklahoma georgia florida`,
	} {
		for s := range strings.FieldsSeq(states) {
			m[s] = strings.TrimSpace(m[s] + " " + part)
		}
	}
	return m
}()

// continents give the continent of a country and its people.
var continents = func() map[string]string {
	m := map[string]string{}
	for cont, cs := range map[string]string{
		"europe european": `england ireland scotland wales france spain portugal germany austria italy greece poland
russia sweden norway netherlands holland`,
		"africa african":               `nigeria egypt kenya south_africa`,
		"asia asian":                   `japan china korea india vietnam philippines thailand israel`,
		"south_america south_american": `brazil argentina colombia peru`,
	} {
		for c := range strings.FieldsSeq(cs) {
			m[c] = strings.ReplaceAll(cont, "_", " ")
		}
	}
	return m
}()

var knownRegions = map[string]string{
	"las_vegas": "nevada", "reno": "nevada", "chicago": "illinois", "boston": "massachusetts", "seattle": "washington",
	"miami": "florida", "orlando": "florida", "tampa": "florida", "detroit": "michigan", "denver": "colorado",
	"austin": "texas", "houston": "texas", "dallas": "texas", "san_antonio": "texas", "phoenix": "arizona",
	"atlanta": "georgia", "nashville": "tennessee", "memphis": "tennessee", "portland": "oregon",
	"new_orleans": "louisiana", "philadelphia": "pennsylvania", "pittsburgh": "pennsylvania",
	"los_angeles": "california", "san_francisco": "california", "san_diego": "california", "tulsa": "oklahoma",
	"minneapolis": "minnesota", "milwaukee": "wisconsin", "cleveland": "ohio", "baltimore": "maryland",
	"salt_lake_city": "utah", "anchorage": "alaska", "honolulu": "hawaii", "brooklyn": "new_york",
	"manhattan": "new_york", "new_york_city": "new_york",
	"london": "england", "manchester": "england", "liverpool": "england", "dublin": "ireland", "cork": "ireland",
	"edinburgh": "scotland", "glasgow": "scotland", "paris": "france", "lyon": "france", "quebec": "canada",
	"toronto": "canada", "vancouver": "canada", "montreal": "canada", "berlin": "germany", "munich": "germany",
	"vienna": "austria", "rome": "italy", "milan": "italy", "madrid": "spain", "barcelona": "spain",
	"lisbon": "portugal", "athens": "greece", "moscow": "russia", "stockholm": "sweden", "amsterdam": "netherlands",
	"sao_paulo": "brazil", "rio": "brazil", "buenos_aires": "argentina", "bogota": "colombia", "lima": "peru",
	"havana": "cuba", "tokyo": "japan", "osaka": "japan", "beijing": "china", "shanghai": "china",
	"hong_kong": "china", "seoul": "korea", "mumbai": "india", "delhi": "india", "bangalore": "india",
	"manila": "philippines", "sydney": "australia", "melbourne": "australia", "cairo": "egypt",
	"mexico_city": "mexico", "cancun": "mexico", "guadalajara": "mexico", "cape_town": "south_africa",
	"nairobi": "kenya", "bangkok": "thailand", "naples": "italy", "florence": "italy", "venice": "italy",
	"lagos": "nigeria", "baghdad": "iraq", "geneva": "switzerland", "mendoza": "argentina", "cairns": "australia",
	"tromso": "norway", "dunedin": "new_zealand", "cologne": "germany", "cardiff": "wales", "chiang_mai": "thailand",
	"bali": "indonesia", "busan": "korea", "mekong_delta": "vietnam",
	"alabama": "america", "alaska": "america", "arizona": "america", "arkansas": "america", "california": "america",
	"colorado": "america", "connecticut": "america", "delaware": "america", "florida": "america", "georgia": "america",
	"hawaii": "america", "idaho": "america", "illinois": "america", "indiana": "america", "iowa": "america",
	"kansas": "america", "kentucky": "america", "louisiana": "america", "maine": "america", "maryland": "america",
	"massachusetts": "america", "michigan": "america", "minnesota": "america", "mississippi": "america",
	"missouri": "america", "montana": "america", "nebraska": "america", "nevada": "america",
	"new_hampshire": "america", "new_jersey": "america", "new_mexico": "america", "new_york": "america",
	"north_carolina": "america", "north_dakota": "america", "ohio": "america", "oklahoma": "america",
	"oregon": "america", "pennsylvania": "america", "rhode_island": "america", "south_carolina": "america",
	"south_dakota": "america", "tennessee": "america", "texas": "america", "utah": "america", "vermont": "america",
	"virginia": "america", "washington": "america", "west_virginia": "america", "wisconsin": "america",
	"wyoming": "america",
}

// The world's other countries and towns come from WordNet
// (cmd/wordnetgen writes places_wordnet.txt): "country ghana ghanaian",
// "town accra ghana". Many of their names are people's names too
// ("jackson", "victoria", "jordan"), so they name a place only after a
// word that leads to one ("in accra", "from jordan", "the temples of
// luxor"); the names above are places wherever they stand.
//
//go:embed places_wordnet.txt
var gazetteerText string

// withGazetteer returns the countries and regions known with the
// gazetteer's others (a country's people, but no language: WordNet does
// not give it; a town in its country), and the names the gazetteer adds.
func withGazetteer(knownCountries map[string]countryInfo, knownRegions map[string]string) (map[string]countryInfo, map[string]string, set) {
	countries, regions, far := maps.Clone(knownCountries), maps.Clone(knownRegions), set{}
	for line := range strings.SplitSeq(gazetteerText, "\n") {
		f := strings.Fields(line) // "country ghana ghanaian", "town accra ghana"
		if len(f) < 2 || f[0] == "#" || knownRegions[f[1]] != "" {
			continue
		}
		if _, ok := knownCountries[f[1]]; ok {
			continue
		}
		far.add(f[1])
		switch {
		case f[0] == "country" && len(f) > 2:
			countries[f[1]] = countryInfo{people: f[2]}
		case f[0] == "country":
			countries[f[1]] = countryInfo{}
		case f[0] == "town" && len(f) > 2 && f[2] != f[1]:
			regions[f[1]] = f[2] // not "singapore" in singapore: placesIn follows regions to the country
		}
	}
	return countries, regions, far
}

// placeLeads are the words before a place's name: "in accra", "the
// temples of luxor".
var placeLeads = newSet("in from near outside to of around across at off through over")

// regionAdjectives say which part of a place: "in rural slovenia".
var regionAdjectives = newSet("rural northern southern eastern western central coastal upstate downtown north south east west")

// placeNames find every name above, "_" as a space.
var placeNames = func() phraseIndex {
	x := phraseIndex{}
	for c := range countries {
		x.add(strings.ReplaceAll(c, "_", " "))
	}
	for r := range regions {
		x.add(strings.ReplaceAll(r, "_", " "))
	}
	for p := range farPlaces {
		if _, ok := countries[p]; !ok && regions[p] == "" {
			x.add(strings.ReplaceAll(p, "_", " ")) // a town WordNet puts in no country
		}
	}
	return x
}()

// placesIn returns the places padded (a sentence, spaces around) names,
// each with the regions and country it lies in, "_" for a space.
func placesIn(padded string) []string {
	var out []string
	for _, p := range placeNames.in(padded) {
		name := strings.ReplaceAll(p, " ", "_")
		if farPlaces.has(name) && !ledTo(padded, p) {
			continue // "my son jordan"
		}
		for ; name != ""; name = regions[name] {
			out = append(out, name)
		}
	}
	return out
}

// ledTo reports the name p in padded after a word that leads to a place.
func ledTo(padded, p string) bool {
	for rest := padded; ; {
		before, after, ok := strings.Cut(rest, " "+p+" ")
		if !ok {
			return false
		}
		ws := strings.Fields(before)
		if n := len(ws); n > 0 && placeLeads.has(ws[n-1]) || n > 1 && regionAdjectives.has(ws[n-1]) && placeLeads.has(ws[n-2]) {
			return true // "in accra", "in rural slovenia"
		}
		rest = " " + after
	}
}

// placeKnownAs adds to add the words a question may name the places of
// padded with: their regions and countries, its people, and where the
// fact tells where one lives or comes from (home), its language.
func placeKnownAs(padded string, home bool, add func(string)) {
	for _, p := range placesIn(padded) {
		add(strings.ReplaceAll(p, "_", " "))
		add(coasts[p])
		if c, ok := countries[p]; ok {
			add(c.people)
			if home {
				add(c.language)
			}
			if cont := continents[p]; cont != "" {
				add(cont)
			}
			if p != "america" && p != "usa" && p != "united_states" {
				add("abroad overseas")
			}
		}
	}
}

// peoples are the names of countries' people: "irish", "mexican".
var peoples = func() set {
	s := set{}
	for _, c := range countries {
		for p := range strings.FieldsSeq(c.people) {
			s.add(p)
		}
	}
	return s
}()

// cuisine reports the i-th word of q as a people's name before a word of
// food, naming a cuisine ("japanese food"), not what one is: "do you like
// japanese food?" is answered by sushi liked, "are you mexican?" not by
// tacos sold.
func cuisine(q *text, i int) bool {
	return peoples.has(q.words[i].low) && i+1 < len(q.words) && cuisineWords.has(q.words[i+1].low)
}

var cuisineWords = newSet("food foods cuisine dish dishes restaurant restaurants cooking")

// namesHome reports a sentence that says one is in a place ("i am a
// dairy farmer in vermont"), not one that was there or wants to be; a job
// (job: jobIntents) done in a place says so too.
func namesHome(ws []string, job bool) bool {
	if v := 1 + adverbsAt(ws, 1); ws[0] == "i" && (v >= len(ws) || !homeVerbs.has(ws[v]) && !(ws[v] == "have" && slicesHasAny(ws, dwellings)) && !job && !neverLeft(ws)) {
		return false // not "i love hiking in colorado", "i spend winters in florida"; "i make sushi at a restaurant in osaka" does
	}
	for i, w := range ws {
		if (w == "in" || job && workLeads.has(w)) && i+1 < len(ws) && len(placesIn(" "+strings.Join(ws[i:], " ")+" ")) > 0 {
			return !slicesHasAny(ws, pastMarks) && !slicesHasAny(ws, visitWords)
		}
		if (leftWords.has(w) || w == "left" && neverLeft(ws)) && i+1 < len(ws) && len(placesIn(" "+strings.Join(ws[i:], " ")+" ")) > 0 {
			return true // "my parents fled cuba in the eighties", "i have never left ohio"
		}
	}
	return false
}

// neverLeft reports "i have never left ohio": where one has always been.
func neverLeft(ws []string) bool {
	return strings.Contains(" "+strings.Join(ws, " ")+" ", " never left ")
}

// homeVerbs tell where one is when a place follows: "i am a farmer in
// vermont", "i work in boston".
var homeVerbs = newSet("am work works teach study own run manage live")

// dwellings are homes one has: "i have a condo in seattle".
var dwellings = newSet("condo house apartment cabin home flat loft")

var leftWords = newSet("fled emigrated immigrated escaped")

var visitWords = newSet("went visit visited trip trips vacation honeymoon")

// slicesHasAny reports a word of ws in s.
func slicesHasAny(ws []string, s set) bool {
	for _, w := range ws {
		if s.has(w) {
			return true
		}
	}
	return false
}
