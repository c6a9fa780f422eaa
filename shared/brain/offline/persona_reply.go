package offline

import (
	"slices"
	"strings"

	"github.com/duetbot/duet/shared/brain"
)

// A reply in a profile chat is made of up to three sentences: a lead (an
// answer to the partner's question, or a reaction to what they said), one
// fact of the profile in the bot's words, and a question about the partner.
// Every sentence stands alone, so that the facts the bot has stated and the
// questions it has asked are found again in its earlier messages by
// sentence.

// sentence renders a fact's paraphrase as a sentence.
func sentence(say string) string { return firstLetterUpper(say) + "." }

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

// Leads.
var (
	personaGreetings = []string{"Hi!", "Hello!", "Hey there!", "Hi, nice to meet you!"}
	greetAgain       = []string{"Hi again!", "Hey again!", "Hello again!"}
	garbledLeads     = []string{"Sorry, I didn't catch that.", "Hmm, that came out garbled.", "Oops, I couldn't read that."}
	howAreYouLeads   = []string{"I'm good, thanks for asking!", "Doing well, thanks!", "Pretty good, thanks!"}
	nameLeads        = []string{"I'd rather keep my name to myself, sorry!", "Names don't matter much here, do they?"}
	yesLeads         = []string{"Yes!", "Yep!"}
	// yesEcho answers a yes/no question by its auxiliary when the
	// question is about the bot: "do you…?" "I do!".
	yesEcho        = map[string]string{"do": "I do!", "are": "I am!", "can": "I can!", "have": "I have!", "did": "I did!", "would": "I would!"}
	noLeads        = []string{"Not really.", "Not really, to be honest.", "Hmm, not really."}
	unsureLeads    = []string{"Good question!", "Hmm, hard to say.", "Honestly, I'm not sure."}
	vagueLeads     = []string{"Fair enough.", "Ha, okay.", "I see."}
	statementLeads = []string{"Oh, interesting!", "Nice!", "I see what you mean.", "That sounds fun."}
	// heardLeads react to what the partner said about themselves; %s is
	// it in the second person ("you have two dogs").
	heardLeads = []string{"Oh, so %s? That's cool!", "Nice, %s!", "Oh wow, %s? I like that."}
	// recallAsks bring back what the partner said earlier.
	recallAsks = []string{"You said %s, right? How is that going?", "Earlier you said %s. What got you into that?"}
)

// personaState is what the chat so far says about the two people.
type personaState struct {
	stated    [maxFacts]int // how often the bot stated each fact
	asked     category      // categories the bot asked the partner about
	questions []string      // the questions it asked
	heard     []heard       // what the partner said about themselves, oldest first
	covered   category      // categories the partner spoke about
}

// heard is a fact the partner told about themselves.
type heard struct {
	you  string // in the second person: "you have two dogs"; "" when not worth repeating
	cats category
}

// newPersonaState reads the chat of req once, and adds the bot's messages
// to said as it goes.
func newPersonaState(req brain.Request, pr *profile, texts *textCache, heards *heardCache, bots *botCache, said *history) personaState {
	var st personaState
	for _, t := range req.Turns {
		if t.Role == brain.Partner {
			for _, h := range heards.get(t.Text, texts) {
				if h.you != "" {
					st.heard = append(st.heard, h)
				}
				st.covered |= h.cats
			}
			continue
		}
		m := bots.get(t.Text)
		said.said.add(m.norm)
		for _, s := range m.sentences {
			if s[len(s)-1] == '?' {
				st.asked |= askCats[s]
				st.questions = append(st.questions, s)
			} else if i, ok := pr.index[s]; ok {
				st.stated[i]++
			}
		}
	}
	return st
}

// sentencesOf yields the sentences of a bot message: the text up to each
// terminator followed by a space, and the rest.
func sentencesOf(s string) func(func(string) bool) {
	return func(yield func(string) bool) {
		from := 0
		for i := 0; i+1 < len(s); i++ {
			if (s[i] == '.' || s[i] == '?' || s[i] == '!') && s[i+1] == ' ' {
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

// composePersona writes the next message of a bot playing profile pr.
func composePersona(req brain.Request, c *analysedContext, texts *textCache, heards *heardCache, bots *botCache) string {
	pr := c.profile
	seed := seedOf(req, c, texts)
	said := &history{}
	st := newPersonaState(req, pr, texts, heards, bots, said)

	// Small buffers, kept on the stack.
	leads := make([]string, 0, 8)
	facts := make([]int, 0, 4) // facts to state, best first; -1 for none
	qs := make([]string, 0, 16)
	last, ok := req.LastPartner()
	msg := (*text)(nil)
	if ok {
		msg = texts.get(last)
	}
	switch {
	case !ok:
		leads = rotateInto(leads[:0], personaGreetings, seed)
		facts = pr.appendVolunteer(facts[:0], &st, nil, 0)
	case msg.realRatio() < 0.5:
		leads = rotateInto(leads[:0], garbledLeads, seed)
		facts = pr.appendVolunteer(facts[:0], &st, nil, 0)
	case greets(msg):
		leads = rotateInto(leads[:0], personaGreetings, seed)
		if len(req.Turns) > 1 {
			leads = rotateInto(leads[:0], greetAgain, seed)
		}
		facts = pr.appendVolunteer(facts[:0], &st, nil, 0)
	case asksHowAreYou(msg):
		leads = rotateInto(leads[:0], howAreYouLeads, seed)
		facts = pr.appendVolunteer(facts[:0], &st, nil, 0)
	case msg.question && (msg.content > 0 || startsQuestion(msg)):
		q := texts.get(questionSentence(msg))
		if strings.Contains(q.norm, "your name") {
			leads = rotateInto(leads[:0], nameLeads, seed)
			facts = pr.appendVolunteer(facts[:0], &st, nil, 0)
			break
		}
		yesNo := len(q.words) > 0 && auxWords.has(q.words[0].low)
		if best := pr.answer(q); best >= 0 {
			f := pr.facts[best]
			say := f.sentences[st.stated[best]%len(f.says)]
			switch {
			case yesNo && f.neg:
				leads = prefixed(leads[:0], noLeads, say, seed)
			case yesNo:
				leads = prefixed(leads[:0], yesLeads, say, seed)
				if e, ok := yesEcho[q.words[0].low]; ok && len(q.words) > 1 && q.words[1].low == "you" {
					leads = append(leads[:0], e+" "+say, leads[0], leads[1], leads[2])
				}
			default:
				leads = append(leads[:0], say)
			}
			qs = rotateInto(qs, askBack, seed)
			facts = append(facts[:0], -1)
			break
		}
		// Nothing in the profile answers: say so without a yes or a no,
		// which could contradict what the bot says later, and talk about
		// the profile instead.
		leads = rotateInto(append(leads[:0], noFactLeads(q, yesNo)...), unsureLeads, seed)
		facts = pr.appendVolunteer(facts[:0], &st, q, 0)
		qs = rotateInto(qs, askBack, seed)
	default:
		var now []heard
		for _, h := range heards.get(last, texts) {
			if h.you != "" {
				now = append(now, h)
			}
		}
		switch {
		case len(now) > 0:
			for i := range heardLeads {
				l := heardLeads[(int(seed%uint64(len(heardLeads)))+i)%len(heardLeads)]
				leads = append(leads, strings.Replace(l, "%s", now[len(now)-1].you, 1))
			}
			facts = pr.appendVolunteer(facts[:0], &st, msg, now[len(now)-1].cats)
		case msg.content == 0:
			leads = rotateInto(leads[:0], vagueLeads, seed)
			facts = pr.appendVolunteer(facts[:0], &st, nil, 0)
		default:
			leads = rotateInto(leads[:0], statementLeads, seed)
			facts = pr.appendVolunteer(facts[:0], &st, msg, 0)
		}
	}
	focus := category(0)
	if len(facts) > 0 && facts[0] >= 0 {
		focus = pr.facts[facts[0]].cats
	}
	qs = st.appendAsks(qs, focus, seed)
	if len(facts) == 0 {
		facts = append(facts, -1)
	}
	for _, lead := range leads {
		for _, fi := range facts {
			fs := ""
			if fi >= 0 {
				f := pr.facts[fi]
				fs = f.sentences[st.stated[fi]%len(f.says)]
			}
			for _, q := range qs {
				s := polish(strings.Join([]string{lead, fs, q}, " "))
				if !said.says(s) && !pr.router.Refuses(s) {
					return s
				}
			}
		}
	}
	// Every candidate was said before or repeats the profile: fall back
	// to a lead and a question, then to a question alone.
	for _, lead := range append(leads, "") {
		for _, q := range qs {
			if s := polish(strings.TrimSpace(lead + " " + q)); !said.says(s) && !pr.router.Refuses(s) {
				return s
			}
		}
	}
	for _, s := range safeQuestions {
		if !said.says(s) && !pr.router.Refuses(s) {
			return s
		}
	}
	return distinguish(polish(leads[0]+" "+qs[0]), said)
}

// safeQuestions are the last resort of a profile chat whose every other
// candidate repeats the profile or was said before.
var safeQuestions = []string{
	"What else should I know about you?",
	"Tell me something fun about yourself?",
	"So what's new with you?",
	"What made your day today?",
	"Anything exciting coming up for you?",
	"How's your week going?",
}

// noFactLeads answer a question about something the profile does not
// cover without committing the bot: "what's your favourite food?" gets
// "Hard to pick a favourite food, honestly."; "do you like music?" gets
// "I don't mind music, I guess."
func noFactLeads(q *text, yesNo bool) []string {
	for i, w := range q.words {
		if (w.low == "favorite" || w.low == "favourite") && i+1 < len(q.words) && q.words[i+1].content {
			thing := q.words[i+1].low
			return []string{"Hard to pick a favourite " + thing + ", honestly.", "I don't really have a favourite " + thing + "."}
		}
	}
	padded := " " + q.norm + " "
	for _, e := range evasions {
		if strings.Contains(padded, e.asks) {
			return e.leads
		}
	}
	if !yesNo || !strings.Contains(q.norm, "you like") && !strings.Contains(q.norm, "you enjoy") && !strings.Contains(q.norm, "you love") {
		return nil
	}
	// "do you like alcohol?": the thing liked is the question's last word.
	if n := len(q.words); n >= 4 {
		if w := q.words[n-1]; w.content && !w.generic && !verbish(w.low) && !w.proper {
			return []string{"I don't mind " + w.low + ", I guess.", firstLetterUpper(w.low) + "? Not something I think about much."}
		}
	}
	return nil
}

// evasions answer common questions about the bot that a profile rarely
// covers, without committing it to anything.
var evasions = []struct {
	asks  string // in the normalised question, spaces around
	leads []string
}{
	{" how old ", []string{"Old enough to know better!", "Older than I look, ha!"}},
	{" you a bot ", []string{"Ha, why do you ask?", "What makes you ask that?"}},
	{" you a robot ", []string{"Ha, why do you ask?", "What makes you ask that?"}},
	{" you human ", []string{"Ha, why do you ask?", "What makes you ask that?"}},
	{" male or female ", []string{"Does it matter? Let's keep it a mystery.", "I'd rather keep that a mystery."}},
	{" or a guy ", []string{"Does it matter? Let's keep it a mystery.", "I'd rather keep that a mystery."}},
	{" or a girl ", []string{"Does it matter? Let's keep it a mystery.", "I'd rather keep that a mystery."}},
	{" who are you ", []string{"Just someone who likes a good chat.", "Someone who enjoys meeting new people."}},
	{" your job ", []string{"Nothing too exciting, honestly.", "Oh, nothing worth talking about."}},
	{" do for a living ", []string{"Nothing too exciting, honestly.", "Oh, nothing worth talking about."}},
	{" your hobby ", []string{"Oh, a bit of this and that.", "Nothing special, a bit of everything."}},
	{" your hobbies ", []string{"Oh, a bit of this and that.", "Nothing special, a bit of everything."}},
	{" how was your day ", []string{"Pretty relaxed, thanks!", "Not bad at all, thanks!"}},
	{" how is your day ", []string{"Pretty relaxed, thanks!", "Not bad at all, thanks!"}},
	{" how's your day ", []string{"Pretty relaxed, thanks!", "Not bad at all, thanks!"}},
	{" where do you live ", []string{"Nowhere too exciting, honestly.", "Oh, a quiet little place."}},
	{" where are you from ", []string{"Nowhere too exciting, honestly.", "Oh, a quiet little place."}},
	{" what are you up to ", []string{"Not much, just chatting with you!", "Just relaxing and chatting."}},
	{" what are you doing ", []string{"Not much, just chatting with you!", "Just relaxing and chatting."}},
	{" what's up ", []string{"Not much, just chatting with you!", "Just relaxing and chatting."}},
	{" are you married ", []string{"Ha, that's a personal one!", "Let's just say it's complicated."}},
	{" girlfriend ", []string{"Ha, that's a personal one!", "Let's just say it's complicated."}},
	{" boyfriend ", []string{"Ha, that's a personal one!", "Let's just say it's complicated."}},
	// Last, after "where are you from".
	{" where are you ", []string{"At home, taking it easy.", "Just at home, relaxing."}},
}

// rotateInto appends xs to dst, starting at a seed-chosen element.
func rotateInto(dst, xs []string, seed uint64) []string {
	o := int(seed % uint64(len(xs)))
	for i := range xs {
		dst = append(dst, xs[(o+i)%len(xs)])
	}
	return dst
}

// prefixed returns each lead followed by s, leads rotated by seed.
func prefixed(dst, leads []string, s string, seed uint64) []string {
	from := len(dst)
	dst = rotateInto(dst, leads, seed)
	for i := from; i < len(dst); i++ {
		dst[i] += " " + s
	}
	return append(dst, s)
}

// greets reports a message that only says hello.
func greets(t *text) bool {
	if len(t.words) == 0 || len(t.words) > 3 {
		return false
	}
	for _, w := range t.words {
		if !greetingWords.has(w.low) {
			return false
		}
	}
	return true
}

var greetingWords = newSet("hi hello hey hiya yo there man dude everyone all good morning evening afternoon")

// asksHowAreYou reports a greeting question ("how are you?", "how's it
// going?").
func asksHowAreYou(t *text) bool {
	n := " " + t.norm
	return strings.Contains(n, " how are you") || strings.Contains(n, " how r u") ||
		strings.Contains(n, " how are u") || strings.Contains(n, " how is it going") ||
		strings.Contains(n, " how's it going") || strings.Contains(n, " how you doing") ||
		strings.Contains(n, " what's up") || strings.Contains(n, " how're you") ||
		strings.Contains(n, " how are ya") ||
		(t.question && (strings.Contains(n, "how about you") || strings.HasSuffix(n, "and you")) &&
			(strings.Contains(n, "good") || strings.Contains(n, "fine") || strings.Contains(n, "well") || strings.Contains(n, "great")))
}

// answer returns the fact that best answers question q, or -1: the fact
// that shares most categories and content words with it.
func (pr *profile) answer(q *text) int {
	// Only the name of a category asks about all of it: "do you have
	// pets?" is answered by the horses, "do you like fish?" is not.
	cats := category(0)
	for _, w := range q.words {
		if categoryNames.has(w.low) {
			cats |= categoryOf(w.low)
		}
	}
	for _, qc := range questionCategories {
		if strings.Contains(q.norm, qc.phrase) {
			cats |= qc.cat
		}
	}
	// The verb after "you": "do you have…" is best answered by "i have…".
	verb := ""
	for i := 0; i+1 < len(q.words); i++ {
		if q.words[i].low == "you" {
			verb = verbClass(q.words[i+1].low)
			break
		}
	}
	best, bestScore := -1, 0
	for i, f := range pr.facts {
		score := 0
		for c := f.cats & cats; c != 0; c &= c - 1 {
			score += 2
		}
		if score > 0 && verb != "" && f.verb == verb {
			score++
		}
		for _, st := range q.topics.list {
			if f.stems.has(st) {
				score++
			}
		}
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	return best
}

// appendVolunteer appends the facts worth stating next, best first: those
// related to msg or to cats that the bot has not stated, then the others it
// has not stated, in profile order; none when every fact has been stated.
func (pr *profile) appendVolunteer(dst []int, st *personaState, msg *text, cats category) []int {
	var buf [32]int
	others := buf[:0]
	for i, f := range pr.facts {
		if st.stated[i] > 0 {
			continue // told: said again only when asked
		}
		rel := f.cats&cats != 0
		if msg != nil {
			for _, s := range msg.topics.list {
				rel = rel || f.stems.has(s)
			}
		}
		switch {
		case rel && len(dst) < 3:
			dst = append(dst, i)
		case !rel:
			others = append(others, i)
		}
	}
	for _, i := range others {
		if len(dst) >= 3 {
			break
		}
		dst = append(dst, i)
	}
	return append(dst, -1)
}

// appendAsks appends questions about the partner the bot has not asked,
// best first: about the categories of focus (what the bot is talking
// about), then about what the partner has not spoken of, then general ones;
// a reminder of what the partner said comes before the general ones.
func (st *personaState) appendAsks(out []string, focus category, seed uint64) []string {
	var buf [16]string
	rest := buf[:0]
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
	for _, h := range st.heard {
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

// personaFarewells take leave of a profile chat.
var personaFarewells = []string{
	"It was nice chatting with you. Bye!",
	"Thanks for the chat, take care!",
	"Great talking to you. See you!",
	"Thanks, that was fun. Goodbye!",
}

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
