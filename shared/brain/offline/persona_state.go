package offline

import (
	"slices"
	"strings"

	"github.com/duetbot/duet/shared/brain"
)

// personaState is what the chat so far says about the two people.
type personaState struct {
	stated    [maxFacts]int  // how often the bot stated each fact
	lastTold  [maxFacts]bool // the facts of the bot's last message
	asked     category       // categories the bot asked the partner about
	questions []string       // the questions it asked
	heard     []heard        // what the partner said about themselves, oldest first
	recalled  int            // how many of heard came before the message answered: those a reply may recall
	covered   category       // categories the partner spoke about
	said      history        // what the bot said
}

// newPersonaState reads the chat of req once, each message read once for
// all later turns of its chat (rc).
func newPersonaState(req brain.Request, pr *profile, rc *readCache) personaState {
	st := personaState{said: history{said: make([]string, 0, len(req.Turns))}}
	for i, t := range req.Turns {
		if t.Role == brain.Partner {
			if i == len(req.Turns)-1 {
				st.recalled = len(st.heard)
			}
			for _, h := range rc.heard(t.Text) {
				if h.you != "" {
					st.heard = append(st.heard, h)
				}
				st.covered |= h.cats
			}
			continue
		}
		m := rc.bot(t.Text)
		st.said.add(m.norm)
		st.lastTold = [maxFacts]bool{}
		for _, s := range m.sentences {
			if s[len(s)-1] == '?' {
				st.asked |= askCats[s]
				st.questions = append(st.questions, s)
			} else if i, ok := pr.index[s]; ok {
				st.stated[i]++
				st.lastTold[i] = true
			}
		}
	}
	if req.Omitted > 0 {
		// Older turns are out of view: what the bot told and asked in them
		// is not known, so every fact counts as told (said again only when
		// asked) and every topic as asked.
		for i := range pr.facts {
			st.stated[i] = max(st.stated[i], 1)
		}
		st.asked = ^category(0)
	}
	return st
}

// answerFor returns the fact that best answers question q, or -1, and
// whether the bot told it in its last message: then it is pointed to, not
// told again, so that no fact comes up in two replies in a row; a fact
// told earlier is told again when asked.
func (st *personaState) answerFor(pr *profile, q *text) (fact int, justTold bool) {
	if bareFollowUp(q) {
		// "what subject?", "how often?", "where at?" right after a fact:
		// about that fact, whatever else they might ask of.
		for i := range pr.facts {
			if st.lastTold[i] {
				return i, true
			}
		}
	}
	as := pr.answers(q)
	if len(as) == 0 {
		// "how many?", "for how long?", "what kind of fish?" right after
		// a fact: a part of it.
		for i := range pr.facts {
			if st.lastTold[i] && (pr.facts[i].followsUp(q) || modified(q, pr.facts[i].words) != "") {
				return i, true
			}
		}
		return -1, false
	}
	return as[0], st.lastTold[as[0]]
}

// pastActivity returns the activity fact that answers a question about
// the past weekend, or -1: one the question names, else the first, one
// the bot did not tell in its last message when there is one.
func (st *personaState) pastActivity(pr *profile, q *text) int {
	first, again := -1, -1
	for _, i := range pr.answers(q) {
		if len(pr.facts[i].past) > 0 && !st.lastTold[i] {
			return i
		}
	}
	for i, f := range pr.facts {
		switch {
		case len(f.past) == 0:
		case !st.lastTold[i] && first < 0:
			first = i
		case st.lastTold[i] && again < 0:
			again = i
		}
	}
	if first < 0 {
		return again
	}
	return first
}

// sentencesOf yields the sentences of a bot message: the text up to each
// terminator followed by a space, and the rest.
func sentencesOf(s string) func(func(string) bool) {
	return func(yield func(string) bool) {
		from := 0
		for i := 0; i+1 < len(s); i++ {
			if (s[i] == '.' || s[i] == '?' || s[i] == '!') && s[i+1] == ' ' && endsSentence(s, i) {
				if !yield(s[from : i+1]) {
					return
				}
				from = i + 2
			}
		}
		if from < len(s) {
			yield(s[from:])
		}
	}
}

// volunteer returns the facts worth stating next, best first: those
// related to msg or to cats that the bot has not stated, at most three;
// then -1, for none. An unrelated fact is never volunteered: the partner
// may ask for it next, and a fact is not told twice in a row.
func (pr *profile) volunteer(st *personaState, msg *text, cats category) []int {
	var related []int
	for i, f := range pr.facts {
		if st.stated[i] > 0 {
			continue // told: said again only when asked
		}
		rel := f.cats&cats != 0
		if msg != nil && !rel {
			for s := range msg.topics {
				if f.stems.has(s) {
					rel = true
					break
				}
			}
		}
		if rel && len(related) < 3 {
			related = append(related, i)
		}
	}
	return append(related, -1)
}

// asks are the questions about the partner, by what they are about.
var asks = []struct {
	cat category
	qs  []string
}{
	{catPet, []string{"Do you have any pets?", "Are you an animal person?"}},
	{catJob, []string{"What do you do for a living?", "What kind of work do you do?"}},
	{catFamily, []string{"Do you have a big family?", "Do you have any brothers or sisters?"}},
	{catHobby, []string{"What do you like to do for fun?", "Any hobbies?"}},
	{catFood, []string{"What's your favourite food?", "Do you like to cook?"}},
	{catMusic, []string{"What kind of music do you listen to?", "Do you play any instruments?"}},
	{catSport, []string{"Do you play any sports?", "Do you like to stay active?"}},
	{catPlace, []string{"Where are you from?", "Do you like where you live?"}},
	{catCar, []string{"Do you drive?", "What kind of car do you have?"}},
	{catStudy, []string{"Are you a student?", "Did you go to college?"}},
	{catBooks, []string{"Do you read much?", "What's the last book you liked?"}},
	{catFilms, []string{"Seen any good movies lately?", "What do you like to watch?"}},
}

// generalAsks are asked when every category has been covered.
var generalAsks = []string{
	"Tell me something about yourself?",
	"What are you up to these days?",
	"What's the best thing that happened to you this week?",
	"What would your perfect weekend look like?",
	"What's something you're looking forward to?",
}

// askBack turns the partner's question back to them.
var askBack = []string{"What about you?", "And you?", "How about you?"}

// askCats maps each ask to its category, to find the questions the bot
// has already asked.
var askCats = func() map[string]category {
	m := map[string]category{}
	for _, a := range asks {
		for _, q := range a.qs {
			m[q] = a.cat
		}
	}
	return m
}()

// recallAsks bring back what the partner said earlier.
var recallAsks = []string{"You said %s, right? How is that going?", "Earlier you said %s. What got you into that?"}

// appendAsks appends questions about the partner the bot has not asked,
// best first: about the categories of focus (what the bot is talking
// about), then about what the partner has not spoken of, then general ones;
// a reminder of what the partner said comes before the general ones.
func (st *personaState) appendAsks(out []string, focus category, seed uint64) []string {
	var rest []string
	o := int(seed % uint64(len(asks)))
	for i := range asks {
		a := asks[(o+i)%len(asks)]
		if st.asked&a.cat != 0 || st.covered&a.cat != 0 {
			continue
		}
		q := a.qs[int(seed>>8)%len(a.qs)]
		if a.cat&focus != 0 {
			out = append(out, q)
		} else if len(rest) < 3 {
			rest = append(rest, q)
		}
	}
	out = append(out, rest...)
	if len(out) >= 2 {
		return append(out, "") // enough to choose from: skip the rest
	}
	for _, h := range st.heard[:st.recalled] { // not what the message itself just said
		for _, r := range recallAsks {
			if q := firstLetterUpper(strings.Replace(r, "%s", h.you, 1)); !st.askedBefore(q) {
				out = append(out, q)
				break
			}
		}
	}
	for i := range generalAsks {
		if q := generalAsks[(int(seed%uint64(len(generalAsks)))+i)%len(generalAsks)]; !st.askedBefore(q) {
			out = append(out, q)
		}
	}
	return append(out, "")
}

// askedBefore reports whether the bot has asked q in this chat.
func (st *personaState) askedBefore(q string) bool {
	return slices.Contains(st.questions, q)
}
