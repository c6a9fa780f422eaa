package offline

import (
	"strings"

	"github.com/duetbot/duet/shared/brain"
)

// "What did you do last weekend?" is answered from an activity of the
// profile, told in the past tense: "i love baking bread on sundays" →
// "Last weekend I baked bread."

// asksPast reports a question about what the bot did recently.
func asksPast(q *text) bool {
	n := " " + q.norm + " "
	if !strings.Contains(n, " did you ") && !strings.Contains(n, " did u ") {
		return false
	}
	for _, w := range []string{" weekend ", " yesterday ", " last night ", " today ", " this morning ", " last week ", " saturday ", " sunday "} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// pastLeads open the past-tense telling of an activity.
var pastLeads = []string{"Last weekend I", "This past weekend I", "Over the weekend I"}

// pastActivity renders the activity of profile sentence ws in the past
// tense, one way per lead, dropping what the router would refuse; nil when
// the sentence is not an activity one likes or does.
func pastActivity(grams brain.Trigrams, ws []string) []string {
	if len(ws) < 3 || ws[0] != "i" {
		return nil
	}
	rest := ws[1:]
	for len(rest) > 2 && adverbs.has(rest[0]) {
		rest = rest[1:]
	}
	var verb string
	var obj []string
	switch {
	case likeVerbs.has(rest[0]) && len(rest) >= 3 && rest[1] == "to":
		verb, obj = pastOf(rest[2]), rest[3:]
	case likeVerbs.has(rest[0]) && len(rest) >= 2 && strings.HasSuffix(rest[1], "ing") && len(rest[1]) > 4:
		verb, obj = pastOfGerund(rest[1]), rest[2:]
	default:
		return nil
	}
	// Habits ("on sundays", "every weekend") do not fit one weekend.
	for i, w := range obj {
		if (w == "on" || w == "every" || w == "in" || w == "at") && i+1 < len(obj) && habitual(obj[i+1]) {
			obj = obj[:i]
			break
		}
	}
	var out []string
	for _, lead := range pastLeads {
		s := strings.TrimSpace(lead + " " + verb + " " + strings.Join(obj, " "))
		if s = unrefuse(grams, s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// habitual are the words of a time phrase that says how often.
func habitual(w string) bool {
	switch w {
	case "weekends", "sundays", "saturdays", "mondays", "fridays", "the", "weekend", "week", "day", "days", "morning", "mornings",
		"evenings", "nights", "summer", "winter", "my":
		return true
	}
	return false
}

// irregularPast are past tenses of verbs profiles like doing.
var irregularPast = map[string]string{
	"ride": "rode", "swim": "swam", "read": "read", "run": "ran", "go": "went", "eat": "ate", "drink": "drank",
	"sing": "sang", "write": "wrote", "make": "made", "take": "took", "see": "saw", "do": "did", "get": "got",
	"sit": "sat", "drive": "drove", "buy": "bought", "build": "built", "teach": "taught", "spend": "spent",
	"meet": "met", "fly": "flew", "draw": "drew", "catch": "caught", "win": "won", "play": "played",
	"shop": "shopped", "knit": "knitted", "jog": "jogged", "plan": "planned", "travel": "travelled",
}

// pastOf is the past tense of a base verb.
func pastOf(v string) string {
	if p, ok := irregularPast[v]; ok {
		return p
	}
	switch {
	case strings.HasSuffix(v, "e"):
		return v + "d"
	case strings.HasSuffix(v, "y") && len(v) > 2 && isConsonant(v[len(v)-2]):
		return v[:len(v)-1] + "ied"
	}
	return v + "ed"
}

// pastOfGerund is the past tense of a verb's -ing form: baking → baked,
// shopping → shopped, riding → rode.
func pastOfGerund(g string) string {
	stemmed := g[:len(g)-3]
	for base, p := range irregularPast {
		if gerund(base) == g {
			return p
		}
	}
	return stemmed + "ed" // skiing → skied, too
}
