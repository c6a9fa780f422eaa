package offline

import (
	"slices"
	"strings"

	"github.com/duetbot/duet/shared/brain"
)

// A name or title in a profile sentence ("the insane clown posse", "call
// of duty", "a dog named rex") keeps its words in a rendering: no filler,
// softener or synonym inside it ("new children on, like, the block" is no
// longer the band). A name of three words or more repeats the profile's
// trigram whole, so its fact is left unsaid rather than said wrong.

// titleNouns are kinds of thing a name or title stands for: "my favorite
// band is …".
var titleNouns = newSet(`band bands song songs movie movies film films show shows series book books novel
novels game games team teams album albums artist artists singer singers group groups rapper rappers author
authors actor actors actress actresses musician musicians character characters podcast anime cartoon
cartoons tv channel brand franchise`)

// wayPlaces are where one is on the way: "on the road", "on the bus".
var wayPlaces = newSet("road way go bus train subway job weekends drives trips flights commute rides walks")

// titleVerbs take a title as their object: "i play call of duty".
var titleVerbs = newSet(`like love enjoy adore play played watch watched read listen listened`)

// titleEnds begin a clause after a favourite's title.
var titleEnds = newSet("which who because but so since though although")

// names returns the names and titles of profile sentence ws, each as its
// words joined by spaces, without a leading article.
func names(ws []string) []string {
	var out []string
	add := func(n []string) {
		for len(n) > 0 && determiners.has(n[0]) {
			n = n[1:]
		}
		if len(n) > 1 {
			out = append(out, strings.Join(n, " "))
		}
	}
	for i, w := range ws {
		switch {
		case (w == "named" || w == "called") && i+1 < len(ws):
			// "a dog named sir barks a lot": the name ends at a verb or a
			// phrase, which a short name seldom has
			n, _ := nounPhrase(ws[i+1:])
			add(n)
		case (w == "favorite" || w == "favourite") && i+2 < len(ws) && titleNouns.has(ws[i+1]):
			if ws[i+2] == "is" || ws[i+2] == "are" {
				t := ws[i+3:]
				if end := slices.IndexFunc(t, titleEnds.has); end > 0 {
					t = t[:end] // "moby dick, which my friends find funny": the title ends at its clause
				}
				add(t) // "my favorite band is the insane clown posse"
			}
		case titleVerbs.has(w) && i+3 < len(ws):
			// "i love new kids on the block", "i play a lot of call of
			// duty": a bare phrase of content words joined by "of", "on"
			// or "in" that ends the sentence reads as a title.
			rest := ws[i+1:]
			if rest[0] == "to" && !strings.HasPrefix(w, "listen") {
				break // "i like to work on vintage cars": a verb follows, not a title
			}
			if rest[0] == "to" {
				rest = rest[1:]
			}
			for k := 0; k+2 < len(rest); k++ {
				if rest[k] == "of" && k > 0 && (rest[k-1] == "lot" || rest[k-1] == "lots") {
					rest = rest[k+1:] // "a lot of call of duty"
					break
				}
			}
			if titleShape(rest) {
				add(rest)
			}
		}
	}
	return out
}

// titleShape reports whether ws reads as a title: two to five words, the
// first and the last content words and no verb in -ing first, joined by
// "of", "on", "in" or "the" ("call of duty", "new kids on the block").
func titleShape(ws []string) bool {
	if len(ws) < 3 || len(ws) > 5 || stopwords.has(ws[0]) || determiners.has(ws[0]) || strings.HasSuffix(ws[0], "ing") ||
		stopwords.has(ws[len(ws)-1]) || isNumber(ws[0]) || timeOfWeek(ws[len(ws)-1]) {
		return false // "i play cricket on saturdays": a game and when
	}
	if len(ws) == 4 && ws[1] == "on" && (ws[2] == "the" || ws[2] == "long") && wayPlaces.has(ws[3]) || intentOf(ws[0])&(catSport|catMusic) != 0 {
		return false // "audiobooks on the road", "hockey in college": a thing and where one has it
	}
	joined := false
	for i, w := range ws[1 : len(ws)-1] {
		switch {
		case (w == "of" || w == "on" || w == "in") && (titleNouns.has(ws[i]) || ws[i] == "music"):
			return false // "country music on the road": a kind of thing and where, not a title
		case w == "of" || w == "on" || w == "in":
			joined = true
		case w == "the" || !stopwords.has(w) && !determiners.has(w):
		default:
			return false
		}
	}
	return joined
}

// timeOfWeek reports a word that names when in the week or the year:
// "saturdays", "weekends", "nights", "summer".
func timeOfWeek(w string) bool {
	return weekdays.has(strings.TrimSuffix(w, "s")) || dayParts.has(w) || seasons.has(w) || w == "weekends" || w == "weekend"
}

// keepsNames reports whether rendering s says every name of ns with its
// own words, together and in order; a possessive may drop its apostrophe
// ("greys anatomy"), and an "and" be written "&" ("pride & prejudice").
func keepsNames(ns []string, s string) bool {
	low := " " + bareWords(strings.ReplaceAll(s, "&", " and ")) + " "
	return !slices.ContainsFunc(ns, func(n string) bool {
		return !strings.Contains(low, " "+bareWords(n)+" ")
	})
}

// bareWords are the words of s as the router reads them once apostrophes
// are dropped, joined by spaces: "grey's anatomy" is "greys anatomy".
func bareWords(s string) string {
	return strings.Join(brain.RouterWords(strings.ReplaceAll(apostrophes.Replace(s), "'", "")), " ")
}

// compounds are nouns of two words that name one thing, said together
// like a name: "a part time job" is no "part, like, time job", "a social
// worker" no "worker, a social one".
var compounds = phrases(`full time|part time|high school|middle school|elementary school|air force|post office|
ice cream|home office|video games|video game|real estate|social media|social worker|hot dogs|hot dog|
peanut butter|united states|north america|south america|new year|die hard`)

// setPhrases are phrases whose words go together, which a rendering may
// say another way ("a dad who stays at home") but never interrupt or
// reword in part: "a stay home dad", "gone for weeks at, like, a time".
var setPhrases = phrases(`stay at home|at a time|at the time|so far`)

// phrases indexes the phrases of list, separated by "|".
func phrases(list string) phraseIndex {
	x := phraseIndex{}
	for p := range strings.SplitSeq(list, "|") {
		x.add(strings.TrimSpace(p))
	}
	return x
}

// keptPhrases are the names of profile sentence ws (names) with the known
// names of several words (a place, a team, a show) and the set phrases
// it has: none may be reworded or broken. A known name goes on into the
// name of what it stands for: "the new york yankees".
func keptPhrases(ws []string) []string {
	out := names(ws)
	padded := " " + strings.Join(ws, " ") + " "
	for i, x := range []phraseIndex{knownNames, placeNames, compounds} {
		for _, n := range x.in(padded) {
			if !strings.Contains(n, " ") || !strings.Contains(padded, " "+n+" ") || !nameLike(n) || i == 0 && commonName(n) {
				continue // one word, "national park" in "national parks", "play guitar", "pit bull"
			}
			far := i == 1 && farPlaces.has(strings.ReplaceAll(n, " ", "_"))
			for {
				after, _, _ := strings.Cut(padded[strings.Index(padded, " "+n+" ")+len(n)+2:], " ")
				if knownWords[after] == 0 && fanTeams[after] == "" || after == "" {
					break
				}
				if far {
					n = "" // a town of the gazetteer in a team's name ("green bay packers"): the team's name is kept
					break
				}
				n += " " + after
			}
			if n == "" {
				continue
			}
			if !slices.ContainsFunc(out, func(m string) bool { return strings.Contains(" "+m+" ", " "+n+" ") }) {
				out = append(out, n)
			}
		}
	}
	return out
}

// commonName reports a known phrase that names a common thing, not one of
// a kind ("a pit bull", "the fire department", "a construction crew"): a
// rendering may break it as it breaks any noun phrase, where keeping it
// whole would leave the fact unsayable.
func commonName(n string) bool {
	for _, k := range kindsOf[n] {
		if knownKinds[k].intent&commonKinds == 0 {
			return false
		}
	}
	return true
}

// commonKinds are the intents of known things that are no names.
const commonKinds = catPet | catJob | catFood | catFear | catHealth | catDrink | catHobby

// nameLike reports whether a known phrase n is a name rather than a
// thing one does ("play guitar", "lose weight", "scares me"): no verb
// first, no word of grammar.
func nameLike(n string) bool {
	ws := strings.Fields(n)
	return !knownVerbs.has(ws[0]) && !slices.ContainsFunc(ws, func(w string) bool {
		return stopwords.has(w) && w != "of" && w != "and" || determiners.has(w) || objectPronouns.has(w)
	})
}

// knownVerbs start phrases of knownKinds that say what one does.
var knownVerbs = newSet(`play have go grow make lose wake sleep freak freaks creep creeps scare scares terrify terrifies fly
cut color colour style wait waiting write writes wrote haul hauling fight fights repair fix work ring mix tend pour fill
frame build crunch do photograph photographing shoot deliver delivering delivered swell upsets makes give gives`)

// heldPhrases are the phrases of profile sentence ws that no rewording
// may interrupt or reword in part: its kept phrases (keptPhrases, kept)
// and its set phrases.
func heldPhrases(ws []string, kept []string) []string {
	out := slices.Clone(kept)
	for _, p := range setPhrases.in(" " + strings.Join(ws, " ") + " ") {
		if strings.Contains(" "+strings.Join(ws, " ")+" ", " "+p+" ") {
			out = append(out, p)
		}
	}
	return out
}

// nameSpans marks the fields of a rendering that say a name of ns: the
// span's number (from 1), 0 outside every name. The article before a
// name goes with it: never "the really great gatsby".
func nameSpans(fields []string, ns []string) []int {
	if len(ns) == 0 {
		return nil
	}
	low := make([]string, len(fields))
	for i, f := range fields {
		low[i] = strings.ToLower(strings.ReplaceAll(trimPunct(apostrophes.Replace(f)), "'", ""))
	}
	spans := make([]int, len(fields))
	for k, n := range ns {
		nw := strings.Fields(strings.ReplaceAll(n, "'", ""))
		for i := 0; i+len(nw) <= len(low); i++ {
			if !slices.Equal(low[i:i+len(nw)], nw) {
				continue
			}
			from := i
			if i > 0 && low[i-1] == "the" {
				from--
			}
			for j := from; j < i+len(nw); j++ {
				spans[j] = k + 1
			}
		}
	}
	return spans
}

// insideName reports whether fields j and j+1 say one name (nameSpans):
// nothing may go between them.
func insideName(spans []int, j int) bool {
	return j >= 0 && j+1 < len(spans) && spans[j] != 0 && spans[j] == spans[j+1]
}

// inName reports whether field j says part of a name: it keeps its word.
func inName(spans []int, j int) bool { return j >= 0 && j < len(spans) && spans[j] != 0 }
