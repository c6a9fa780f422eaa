package offline

import (
	"slices"
	"strings"
)

// Facts told by what one does: "i fish for cod off the coast of norway"
// names no job, no home and no pastime, yet it answers "what do you
// do?" and "where do you live?" when no fact does by its words, and "any
// hobbies?" when it is not work.

// doesNow reports a sentence about what one does these days, in the
// present tense: "i build model airplanes", "we keep ducks", "my wife and
// i are fixing up an old farmhouse", "my family has made wine near
// bordeaux for four generations"; not "i am a nurse", "i have two cats",
// "i love jazz", "i went to paris" or "i want to sail".
func doesNow(ws []string) bool {
	v := subjectEnd(ws)
	if v < 0 {
		return false
	}
	v += adverbsAt(ws, v)
	if slicesHasAny(ws, pastMarks) || slicesHasAny(ws, visitWords) || v >= len(ws) {
		return false
	}
	switch {
	case (ws[v] == "are" || ws[v] == "am") && v+1 < len(ws) && strings.HasSuffix(ws[v+1], "ing"):
		return true // "we are fixing up an old farmhouse"
	case (ws[v] == "have" || ws[v] == "has") && v+1 < len(ws) && (strings.HasSuffix(ws[v+1], "ed") || pastVerbs.has(ws[v+1])):
		return slices.Contains(ws[v:], "generations") // "my family has made wine… for four generations", not "i have outlived two husbands"
	case ws[v] == "do" && v+1 < len(ws) && !stopwords.has(ws[v+1]):
		return true // "i do stand up comedy"
	case notDoing.has(ws[v]):
		// "i am nineteen and pour coffee at a cafe downtown"
		j := slices.Index(ws[v:], "and") + v
		return j > v && j+1 < len(ws) && !stopwords.has(ws[j+1]) && !notDoing.has(ws[j+1]) && !strings.HasSuffix(ws[j+1], "s")
	}
	return !strings.HasSuffix(ws[v], "ed") && !pastVerbs.has(ws[v]) && !notPastime.has(ws[v]) && (!stopwords.has(ws[v]) || ws[v] == "keep")
}

// notPastime are what one does that is neither work nor a pastime.
var notPastime = newSet("sleep spend support root follow switch speak barely")

// subjectEnd returns the index after the subject of a sentence about
// oneself ("i", "we", "my wife and i", "my family"), or -1.
func subjectEnd(ws []string) int {
	switch {
	case len(ws) < 3:
		return -1
	case ws[0] == "i" || ws[0] == "we":
		return 1
	case ws[0] == "my" && ws[1] == "family":
		return 2
	case ws[0] == "my" && len(ws) > 4 && ws[2] == "and" && ws[3] == "i":
		return 4
	}
	return -1
}

// notDoing are the verbs after "i" that tell what one is, has, likes or
// wants, or did once, not what one does.
var notDoing = newSet(`am was were is are have has had like likes love loves enjoy enjoys adore hate hates dislike
want wants need needs wish hope think know feel believe miss used can could will would should might must
got get live lives grew moved born raised went came met married lost won became`)

// lastResort returns the facts that answer question a when no fact
// answers it by its intents: "what do you do (for a living)?" by what one does, a trade
// or a place of work first, never a pastime; "where do you live?" by a place
// one does it in; "any hobbies?" by what one does that is not work.
func (pr *profile) lastResort(a *asked) []int {
	if a.strong || a.howLong {
		return nil
	}
	best, score := -1, 0
	for i := range pr.facts {
		f := &pr.facts[i]
		ws := f.words
		not := notWork
		if len(ws) > 1 && ws[1] == "family" {
			not &^= catFamily // "my family has made wine near bordeaux"
		}
		if f.wish || f.neg || f.intents()&not != 0 || !doesNow(ws) || a.besides != "" && f.speaksOf(a.besides) {
			continue
		}
		s := 0
		switch {
		case a.intents == catJob && !a.yesNo && !slicesHasAny(a.qws, jobPlaceAsks):
			s = 3
			if f.intents()&catPlace != 0 || workplaceNamed(ws) || slicesHasAny(ws, tradeVerbs) {
				s++ // "i grow rice in the mekong delta", "i do the books for a shipping firm"
			}
			if f.cats&(catHobby|catSport|catMusic|catSpareTime) != 0 {
				continue // "i practice yoga every morning": a pastime, not what one does for a living
			}
		case a.intents == catPlace && !a.yesNo && f.intents()&catTravel == 0 && !f.fan() && len(placesIn(" "+f.source+" ")) > 0:
			s = 1
		case a.intents&catHobby != 0 && asksPastimes(a) && pastimeLike(f, ws):
			s = 1 // "any hobbies?": "i build model airplanes"
		}
		if s > score {
			best, score = i, s
		}
	}
	if best < 0 {
		return nil
	}
	return []int{best}
}

// pastimeLike reports a fact of doing that may be a pastime: of sport,
// music, books, films or faith, no fan's and at no workplace but a church
// ("i sing in a church choir on sundays").
func pastimeLike(f *fact, ws []string) bool {
	c := f.intents()
	return c&^(catSport|catMusic|catBooks|catFilms|catHobby|catReligion) == 0 && !f.fan() && (!workplaceNamed(ws) || c&catReligion != 0)
}

// asksPastimes reports a question about pastimes in general, "any
// hobbies?", "what do you do in the evenings?", not about one: "do you
// play video games?".
func asksPastimes(a *asked) bool {
	for _, t := range a.topics {
		if t.cat&catHobby == 0 && !pastimeVerbs.has(t.stem) && !timeOfWeek(t.stem) && !timeOfWeek(t.stem+"s") {
			return false
		}
	}
	return true
}

// pastimeVerbs ask how one spends one's free time: "how do you relax?".
var pastimeVerbs = newSet("spend relax unwind")

// jobPlaceAsks ask where or how one works, which what one does does not
// answer: "where do you work?", "how do you get to work?".
var jobPlaceAsks = newSet("where how long like enjoy love hate")

// notWork are what a fact that tells of one's family, pets, health,
// plans or looks is about: not what one does ("i wear glasses").
const notWork = catFamily | catPet | catFear | catHealth | catPlans | catLanguage | catStudy | catLooks
