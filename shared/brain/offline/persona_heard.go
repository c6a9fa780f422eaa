package offline

import (
	"strings"
)

// heard is a fact the partner told about themselves.
type heard struct {
	you  string // in the second person: "you have two dogs"; "" when not worth repeating
	cats category
	sad  bool // something unwelcome: "i hate the cold", "my dog died"
}

// unwelcome are words that make what the partner tells something to
// sympathise with, not to cheer.
var unwelcome = newSet(`hate hates dislike afraid scared fear sad sick ill lost died dead broke broken
divorced allergic lonely tired bored boring stressed worried hurt injured fired unemployed miss
pain awful terrible worst`)

// heardFrom returns what the partner says about themselves in message s:
// its sentences in the first person ("i have two dogs", "my job is…"),
// turned to the second person.
func heardFrom(s string, t *text) []heard {
	var out []heard
	for _, sent := range t.sentences {
		if strings.HasSuffix(sent, "?") {
			continue
		}
		if i := strings.IndexAny(sent, ",;:"); i >= 0 {
			sent = sent[:i] // the first clause
		}
		for _, ws := range reorder(tokens(sent)) {
			if len(ws) < 3 || (ws[0] != "i" && ws[0] != "my") {
				continue
			}
			var h heard
			for _, w := range ws {
				h.cats |= categoryOf(w)
				h.sad = h.sad || unwelcome.has(w)
			}
			if ws[0] == "i" && ws[1] == "am" && occupation(ws[len(ws)-1]) {
				h.cats |= catJob
			}
			if len(ws) <= 9 && tellsAboutSelf(ws) && !danglers.has(ws[len(ws)-1]) {
				h.you = secondPerson(ws)
			}
			if h.you != "" || h.cats != 0 {
				out = append(out, h)
			}
		}
	}
	return out
}

// tellsUnwelcome reports whether the partner's message tells something
// unwelcome, to sympathise with.
func tellsUnwelcome(t *text) bool {
	for _, w := range t.words {
		if unwelcome.has(w.low) {
			return true
		}
	}
	return false
}

// tellsAboutSelf reports a sentence that says something about its writer
// worth bringing up again: "i have two dogs", "my job is boring"; not "i
// think so", "i don't understand you".
func tellsAboutSelf(ws []string) bool {
	for _, w := range ws {
		if w == "you" || w == "your" || w == "not" || w == "never" || w == "u" || vulgar.has(w) {
			return false
		}
	}
	if ws[0] == "my" {
		return true
	}
	v, rest := ws[1], ws[2:]
	if adverbs.has(v) && len(ws) > 3 {
		v, rest = ws[2], ws[3:]
	}
	if v == "am" {
		// "i am a nurse", "i am from ohio", "i am 20": not "i am great".
		return rest[0] == "a" || rest[0] == "an" || rest[0] == "from" || rest[0] == "in" || rest[0] == "into" ||
			(rest[0][0] >= '0' && rest[0][0] <= '9')
	}
	return selfVerbs.has(v)
}

// vulgar words are never echoed back.
var vulgar = newSet(`fuck fucking fucked shit dick dicks cock cocks pussy suck sucks sex
sexy porn ass asshole bitch cunt nude naked boobs tits horny`)

// selfVerbs say something about the one who uses them in the first person.
var selfVerbs = newSet(`am have has like love enjoy work live play own study hate was
had grew go drive read watch listen eat cook ride teach collect paint write sing`)

// secondPerson turns the partner's words about themselves into the bot's
// words about them: "i am a nurse" becomes "you are a nurse".
func secondPerson(ws []string) string {
	out := make([]string, len(ws))
	for i, w := range ws {
		switch w {
		case "i":
			w = "you"
		case "my":
			w = "your"
		case "me":
			w = "you"
		case "mine":
			w = "yours"
		case "myself":
			w = "yourself"
		case "am":
			w = "are"
		case "was":
			if i > 0 && ws[i-1] == "i" {
				w = "were"
			}
		case "your":
			w = "my"
		case "you":
			w = "me"
		}
		out[i] = strings.Map(sanitize, w)
	}
	return strings.Join(out, " ")
}
