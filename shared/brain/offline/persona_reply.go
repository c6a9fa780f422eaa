package offline

import (
	"slices"
	"strings"
	"unicode"

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

// firstLetterUpper is s with its first letter in upper case, unless a
// number starts it: "5, that's my son".
func firstLetterUpper(s string) string {
	for i, r := range s {
		if unicode.IsDigit(r) {
			return s
		}
		if unicode.IsLetter(r) {
			return s[:i] + string(unicode.ToUpper(r)) + s[i+len(string(r)):]
		}
	}
	return s
}

// Leads.
var (
	personaGreetings = []string{"Hi!", "Hello!", "Hey there!", "Hi, nice to meet you!"}
	greetAgain       = []string{"Hi again!", "Hey again!", "Hello again!"}
	garbledLeads     = []string{"Sorry, I didn't catch that.", "Hmm, that came out garbled.", "Oops, I couldn't read that."}
	// openingAsks open a chat: the bot tells of itself when asked, so a
	// fact is not told unasked and then asked for right away.
	openingAsks    = []string{"How are you today?", "How's your day going?", "What have you been up to today?"}
	howAreYouLeads = []string{"I'm good, thanks for asking!", "Doing well, thanks!", "Pretty good, thanks!"}
	nameLeads      = []string{"I'd rather keep my name to myself, sorry!", "Names don't matter much here, do they?"}
	yesLeads       = []string{"Yes!", "Yep!"}
	// yesEcho answers a yes/no question by its auxiliary when the
	// question is about the bot: "do you…?" "I do!".
	yesEcho     = map[string]string{"do": "I do!", "are": "I am!", "can": "I can!", "have": "I have!", "did": "I did!", "would": "I would!"}
	noLeads     = []string{"Not really.", "Not really, to be honest.", "Hmm, not really."}
	unsureLeads = []string{"Good question!", "Hmm, hard to say.", "Oh, I've never really thought about that.",
		"Ha, not much to tell there.", "That's a tough one!", "Hmm, let me think about that one."}
	// justSaidLeads answer a question with what the bot has just said.
	justSaidLeads = []string{"Like I just said!", "Ha, just what I mentioned!", "Same as I just said!"}
	justSaidYes   = []string{"Yep, like I just said!", "Yes, just what I mentioned!"}
	justSaidNo    = []string{"Nope, like I just said!", "Not really, just what I mentioned!"}
	// personalLeads answer a yes/no question about the bot that the
	// profile does not answer: neither a yes nor a no, nothing invented.
	personalLeads = []string{"Ha, that's a personal one!", "I'll keep that one to myself for now!", "Ooh, I'd rather not say just yet."}
	// pastAgainLeads tell the weekend gone from the activity just told.
	pastAgainLeads = []string{"Funny you ask.", "Just that, actually!", "Same as always!"}
	vagueLeads     = []string{"Fair enough.", "Ha, okay.", "I see."}
	statementLeads = []string{"Oh, interesting!", "Nice!", "I see what you mean.", "That sounds fun."}
	// sadStatementLeads answer something unwelcome ("i lost my job").
	sadStatementLeads = []string{"Oh no, I'm sorry to hear that.", "That sounds rough.", "Ah, I get that."}
	// heardLeads react to what the partner said about themselves; %s is
	// it in the second person ("you have two dogs").
	heardLeads = []string{"Oh, so %s? That's cool!", "Nice, %s!", "Oh wow, %s? I like that."}
	// sadLeads react to something unwelcome the partner told.
	sadLeads = []string{"Oh no, %s? I'm sorry to hear that.", "Ah, %s? I get that.", "Hmm, %s? That's rough."}
)

// composePersona writes the next message of a bot playing the profile of
// context c.
func composePersona(req brain.Request, c *analysedContext, rc *readCache) string {
	pr := c.profile
	seed := seedOf(req, c, rc)
	st := newPersonaState(req, pr, rc)
	said := &st.said

	var leads []string
	var facts []int // facts to state, best first; -1 for none
	var qs []string
	last, ok := req.LastPartner()
	msg := (*text)(nil)
	if ok {
		msg = rc.text(expandShorthand(last))
	}
	// "hi, how are you? where do you live?": both asked, both answered.
	helloThenAsks := ok && asksHowAreYou(msg) && asksBeyondHello(msg, rc)
	switch {
	case !ok:
		leads = rotated(personaGreetings, seed)
		facts = []int{-1}
		qs = rotated(openingAsks, seed)
	case msg.realRatio() < 0.5:
		leads = rotated(garbledLeads, seed)
		facts = []int{-1}
	case greets(msg):
		leads = rotated(personaGreetings, seed)
		if len(req.Turns) > 1 {
			leads = rotated(greetAgain, seed)
		} else {
			qs = rotated(openingAsks, seed)
		}
		facts = []int{-1}
	case asksHowAreYou(msg) && !helloThenAsks:
		leads = rotated(howAreYouLeads, seed)
		facts = []int{-1}
		qs = rotated(askBack, seed)
	case (msg.question || asksUnmarked(msg)) && (msg.content > 0 || startsQuestion(msg) || questionIntents(msg) != 0):
		q := rc.text(withAntecedent(msg, questionSentence(msg)))
		if strings.Contains(q.norm, "your name") {
			leads = rotated(nameLeads, seed)
			facts = []int{-1}
			break
		}
		yesNo := len(q.words) > 0 && auxWords.has(q.words[0].low)
		if asksPast(q) {
			// Told in the past tense, never right after the same fact.
			if fi := st.pastActivity(pr, q); fi >= 0 {
				f := pr.facts[fi]
				leads = []string{sentence(f.past[int(seed%uint64(len(f.past)))])}
				if st.lastTold[fi] {
					// The only activity was just told: the weekend is
					// that activity again, said so.
					leads = prefixed(pastAgainLeads, leads[0], seed)
				}
				qs = rotated(askBack, seed)
				facts = []int{-1}
				break
			}
		}
		best, justTold := st.answerFor(pr, q)
		if justTold {
			// The answer is what the bot just said: the part asked for,
			// or the fact again, said so (againLeads).
			f := &pr.facts[best]
			leads = againLeads(f, q, f.sentences[st.stated[best]%len(f.says)], yesNo, pr.router.Refuses, seed)
			facts = []int{-1}
			qs = rotated(askBack, seed)
			break
		}
		if best >= 0 {
			f := pr.facts[best]
			say := f.sentences[st.stated[best]%len(f.says)]
			switch {
			case yesNo && !f.confirms(q):
				// The fact is about what was asked but says neither yes
				// nor no to it: told as it is.
				leads = []string{say}
			case yesNo && f.neg:
				leads = prefixed(noLeads, say, seed)
			case yesNo:
				leads = prefixed(yesLeads, say, seed)
				if e, ok := yesEcho[q.words[0].low]; ok && len(q.words) > 1 && q.words[1].low == "you" {
					leads = append([]string{e + " " + say}, leads...)
				}
			default:
				leads = []string{say}
			}
			qs = rotated(askBack, seed)
			facts = []int{-1}
			break
		}
		// Nothing in the profile answers: say so without a yes or a no,
		// which could contradict what the bot says later, and talk about
		// the profile instead.
		unsure := unsureLeads
		if yesNo && len(q.words) > 1 && (q.words[1].low == "you" || q.words[1].low == "u") {
			unsure = personalLeads // "do you have kids?": never "I'm not sure"
		}
		leads = slices.Concat(noFactLeads(q, yesNo), rotated(unsure, seed))
		facts = []int{-1}
		qs = rotated(askBack, seed)
	default:
		var now []heard
		for _, h := range rc.heard(last) {
			if h.you != "" {
				now = append(now, h)
			}
		}
		switch {
		case len(now) > 0:
			h := now[len(now)-1]
			react := heardLeads
			if h.sad {
				react = sadLeads
			}
			for _, l := range rotated(react, seed) {
				leads = append(leads, strings.Replace(l, "%s", h.you, 1))
			}
			facts = pr.volunteer(&st, msg, h.cats)
		case msg.content == 0:
			leads = rotated(vagueLeads, seed)
			facts = []int{-1}
		case tellsUnwelcome(msg):
			leads = rotated(sadStatementLeads, seed)
			facts = pr.volunteer(&st, msg, 0)
		default:
			leads = rotated(statementLeads, seed)
			facts = pr.volunteer(&st, msg, 0)
		}
	}
	if helloThenAsks {
		hello := rotated(howAreYouLeads, seed)[0]
		for i, l := range leads {
			leads[i] = hello + " " + l
		}
	}
	focus := category(0)
	if facts[0] >= 0 {
		focus = pr.facts[facts[0]].cats
	}
	qs = st.appendAsks(qs, focus, seed)
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
	// Told apart from what was said, with a lead the router does not
	// refuse ("I've never really…" repeats "i've never had").
	lead := ""
	for _, l := range leads {
		if !pr.router.Refuses(l) {
			lead = l
			break
		}
	}
	return distinguish(polish(strings.TrimSpace(lead+" "+qs[0])), said)
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

// rotated returns xs starting at a seed-chosen element.
func rotated(xs []string, seed uint64) []string {
	o := int(seed % uint64(len(xs)))
	return slices.Concat(xs[o:], xs[:o])
}

// prefixed returns each lead followed by s, leads rotated by seed, then s
// alone.
func prefixed(leads []string, s string, seed uint64) []string {
	var out []string
	for _, l := range rotated(leads, seed) {
		out = append(out, l+" "+s)
	}
	return append(out, s)
}

// personaFarewells take leave of a profile chat.
var personaFarewells = []string{
	"It was nice chatting with you. Bye!",
	"Thanks for the chat, take care!",
	"Great talking to you. See you!",
	"Thanks, that was fun. Goodbye!",
}
