package offline

import (
	"slices"
	"strings"
	"testing"

	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/convai"
)

// nurse is the profile of issue 21's hand-played chat.
const nurse = "i am a nurse at a children's hospital.\ni have two cats named salt and pepper.\ni love baking bread on sundays.\ni live in a small apartment in tokyo."

// talk plays the partner's lines in one chat with profile and returns the
// bot's replies.
func talk(t testing.TB, profile string, lines ...string) []string {
	t.Helper()
	req := brain.Request{Context: profile}
	var out []string
	for _, l := range lines {
		req.Turns = append(req.Turns, brain.Turn{Role: brain.Partner, Text: l})
		got := reply(t, req)
		out = append(out, got)
		req.Turns = append(req.Turns, brain.Turn{Role: brain.Bot, Text: got})
	}
	return out
}

func TestPersonaIssueChat(t *testing.T) {
	tests := []struct {
		question string
		want     []string // every one of these, in lower case
	}{
		{"Where do you live?", []string{"tokyo", "apartment"}},
		{"What do you do for work?", []string{"nurse", "hospital"}},
		{"Do you have any pets?", []string{"salt", "pepper"}},
		{"Do you live in a city?", []string{"tokyo"}},
		{"What do you like to do on weekends?", []string{"bread"}},
		{"What did you do last weekend?", []string{"baked bread"}},
	}
	for _, tt := range tests {
		t.Run(tt.question, func(t *testing.T) {
			// Each in a fresh chat: the answer does not depend on what came before.
			got := strings.ToLower(talk(t, nurse, tt.question)[0])
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("Reply to %q = %q, want %q in it", tt.question, got, w)
				}
			}
		})
	}
}

// TestPersonaNoFactTwiceInARow replays the partners' messages of the dev
// set's chats with their bots' profiles: no fact of the profile is told in
// two replies in a row, but when the partner asks for it again, and then
// the reply says so ("Like I just said! …": againLeads).
func TestPersonaNoFactTwiceInARow(t *testing.T) {
	chats, checked, again := 0, 0, 0
	for _, d := range devDialogues(t) {
		pr := parseProfile(d.botProfile())
		msgs := d.partnerMessages()
		if pr == nil || len(msgs) < 3 {
			continue
		}
		chats++
		prev := map[int]bool{}
		for i, r := range talk(t, d.botProfile(), msgs...) {
			now := map[int]bool{}
			for s := range sentencesOf(r) {
				if f, ok := pr.index[s]; ok {
					now[f] = true
					if prev[f] && slices.ContainsFunc(slices.Concat(justSaidLeads, justSaidYes, justSaidNo), func(l string) bool { return strings.HasPrefix(r, l+" ") }) {
						again++
					} else if prev[f] {
						t.Errorf("profile %q: fact %q told again right away, to %q: %q", d.BotProfile, pr.facts[f].source, msgs[i], r)
					}
				}
			}
			checked++
			prev = now
		}
	}
	t.Logf("%d replies of %d chats checked; %d told a fact again when asked for it again", checked, chats, again)
	if chats < 100 {
		t.Errorf("only %d chats replayed", chats)
	}
}

// TestPersonaPastWeekend: the weekend gone is told from an activity of the
// profile, in the past tense, and not when that activity was just told.
func TestPersonaPastWeekend(t *testing.T) {
	got := talk(t, horses, "What did you do last weekend?")[0]
	if !strings.Contains(strings.ToLower(got), "rode horses") {
		t.Errorf("Reply = %q, want the horses ridden", got)
	}
	for _, tt := range []struct{ gerund, past string }{{"baking", "baked"}, {"shopping", "shopped"}, {"riding", "rode"}, {"skiing", "skied"}, {"swimming", "swam"}} {
		if got := pastOfGerund(tt.gerund); got != tt.past {
			t.Errorf("pastOfGerund(%q) = %q, want %q", tt.gerund, got, tt.past)
		}
	}
}

// TestPersonaRetellsOnlyWhenAsked replays the partners' messages of the
// dev set's chats as the engine shows a chat to its brain (the newest
// convai.Window exchanges, the older partner messages counted in
// Omitted): a fact told once is told again only in answer to a question
// it answers, however long the chat.
func TestPersonaRetellsOnlyWhenAsked(t *testing.T) {
	chats, retold := 0, 0
	for _, d := range devDialogues(t) {
		pr := parseProfile(d.botProfile())
		msgs := d.partnerMessages()
		if pr == nil || len(msgs) <= convai.Window {
			continue
		}
		chats++
		told := map[int]bool{}
		var turns []brain.Turn
		for i, m := range msgs {
			turns = append(turns, brain.Turn{Role: brain.Partner, Text: m})
			req := brain.Request{Context: d.botProfile(), Turns: turns, Omitted: i - len(turns)/2}
			r := reply(t, req)
			turns = append(turns, brain.Turn{Role: brain.Bot, Text: r})
			if len(turns) > 2*convai.Window {
				turns = turns[2:]
			}
			asked := pr.answers(analyze(questionSentence(analyze(m))))
			for s := range sentencesOf(r) {
				if f, ok := pr.index[s]; ok {
					if told[f] && !slices.Contains(asked, f) {
						retold++
						t.Errorf("profile %q: fact %q told again unasked, to %q: %q", d.BotProfile, pr.facts[f].source, m, r)
					}
					told[f] = true
				}
			}
		}
	}
	t.Logf("%d chats longer than the window replayed, %d facts retold unasked", chats, retold)
	if chats < 50 {
		t.Errorf("only %d chats replayed", chats)
	}
}

// TestPersonaSympathises: what the partner tells of themselves is taken
// up in the tone it was told in: something unwelcome is not cheered.
func TestPersonaSympathises(t *testing.T) {
	for _, line := range []string{"I hate the cold weather.", "My dog died last week.", "I lost my job yesterday."} {
		got := talk(t, nurse, line)[0]
		low := strings.ToLower(got)
		if strings.Contains(low, "cool") || strings.Contains(low, "nice") || strings.Contains(low, "like that") {
			t.Errorf("Reply to %q = %q: cheers it", line, got)
		}
		if !strings.Contains(low, "sorry") && !strings.Contains(low, "get that") && !strings.Contains(low, "rough") {
			t.Errorf("Reply to %q = %q: no sympathy", line, got)
		}
	}
	if got := strings.ToLower(talk(t, nurse, "I have two dogs.")[0]); strings.Contains(got, "sorry") {
		t.Errorf("Reply to good news = %q", got)
	}
}

// TestPersonaRecallsOnlyEarlier checks that a reply brings back what the
// partner said in an earlier message, never what the message it answers
// says ("Oh wow, you have two kids? … You said you have two kids, right?"),
// in a chat where the bot has asked about everything else already.
func TestPersonaRecallsOnlyEarlier(t *testing.T) {
	req := brain.Request{Context: "i am a nurse.\ni have two cats.\ni love baking bread.\ni live in tokyo."}
	for _, a := range asks {
		for _, q := range a.qs {
			req.Turns = append(req.Turns, brain.Turn{Role: brain.Bot, Text: q}, brain.Turn{Role: brain.Partner, Text: "ok"})
		}
	}
	req.Turns = append(req.Turns, brain.Turn{Role: brain.Partner, Text: "i have two kids and a dog."})
	if got := reply(t, req); strings.Contains(got, "said you have two kids") {
		t.Errorf("%q recalls the message it answers", got)
	}
}

// TestPersonaHello: a greeting is answered in kind, with no fact told
// unasked; a question after it is answered too.
func TestPersonaHello(t *testing.T) {
	pr := parseProfile(nurse)
	for _, msg := range []string{"hi! how are you?", "hello", "hey, how's it going?"} {
		got := talk(t, nurse, msg)[0]
		for s := range sentencesOf(got) {
			if _, ok := pr.index[s]; ok {
				t.Errorf("%q: %q tells a fact unasked", msg, got)
			}
		}
	}
	got := talk(t, nurse, "hi, how are you? where do you live?")[0]
	if !slices.ContainsFunc(howAreYouLeads, func(l string) bool { return strings.HasPrefix(got, l) }) || !strings.Contains(strings.ToLower(got), "tokyo") {
		t.Errorf("%q, want how the bot is, then where it lives", got)
	}
}

// TestPersonaYesAgain: a yes/no question about the fact just told gets
// its yes with the part it asks about, not the whole fact a second time
// in a row; with no such part, the yes and the fact said again, so said.
func TestPersonaYesAgain(t *testing.T) {
	got := talk(t, nurse, "where do you live?", "do you live in a city?")
	if !strings.Contains(strings.ToLower(got[0]), "tokyo") {
		t.Fatalf("%q, want where the bot lives", got[0])
	}
	if !strings.HasPrefix(got[1], "Yep, Tokyo, like I said!") {
		t.Errorf("%q, want a yes with the city alone", got[1])
	}
	band := "i drive a delivery van for a bakery.\non weekends i play bass in a garage band.\ni am allergic to shellfish."
	got = talk(t, band, "how do you spend your weekends?", "do you play any instruments?")
	if answeredLine(band, got[0]) != 1 || answeredLine(band, got[1]) != 1 ||
		!slices.ContainsFunc(justSaidYes, func(l string) bool { return strings.HasPrefix(got[1], l) }) || got[0] == got[1] {
		t.Errorf("%q, want the band, then a yes with the band said another way", got)
	}
}

// TestPersonaAskedAgain: a question the fact just told answers gets the
// part it asks for, or the fact again said so ("what subject?"); a yes or
// no on the fact's own words, or a question it does not answer ("why
// surfing?"), gets a pointer to it, not the fact again.
func TestPersonaAskedAgain(t *testing.T) {
	nurse := "i am a nurse at a children's hospital in toronto.\ni have two cats named salt and pepper.\ni love baking bread on sundays.\ni am twenty six and still single."
	student := "i am a second year student studying biology.\ni live with my parents in lagos.\nmy favorite color is forest green."
	family := "i have six younger siblings.\ni have been married for forty years.\nmy dog is a german shepherd named bruno.\ni live in seattle with my sister and two cats."
	veteran := "i am eighty years old and still play tennis.\ni live alone in a cabin with three huskies."
	teacher := "i teach chemistry at a high school.\ni surf every weekend."
	goalie := "i play goalie on a rec hockey team.\ni collect vintage postcards."
	chef := "i moved to portland two years ago to work as a pastry chef.\ni live with my grandmother in san antonio.\n" +
		"i play the trumpet in a mariachi band.\ni'm getting married next october.\ni ride a red motorcycle."
	junior := "i am sixteen and a junior in high school.\ni have two older brothers."
	tests := []struct {
		profile, first, again string
		want                  string // the reply to again starts with it
		has, hasNot           string // and has, or has not, this in lower case
	}{
		{nurse, "what do you do for work?", "where do you live?", "Toronto, like I said!", "", "nurse"},
		{nurse, "do you have any pets?", "what are their names?", "Salt & Pepper, like I said!", "", "cats"},
		{nurse, "are you married?", "how old are you?", "26, like I said!", "", "single"},
		{student, "are you a student?", "what are you studying?", "Biology, like I said!", "", "year"},
		{student, "what is your favorite color?", "what's your fav colour?", "Forest green, like I said!", "", "top"},
		{nurse, "what do you do for fun?", "what do you do on weekends?", "", "bread", ""},
		{nurse, "do you have pets?", "do you like cats?", "", "", "salt"},
		{family, "do you have siblings?", "how many?", "6, like I said!", "", "younger"},
		{family, "are you married?", "for how long?", "40 years, like I said!", "", "married"},
		{family, "any pets?", "what breed?", "German shepherd, like I said!", "", "bruno"},
		{family, "where do you live?", "who do you live with?", "My sister & two cats, like I said!", "", "seattle"},
		{veteran, "how old are you?", "do you play any sports?", "Yep, tennis, like I said!", "", "80"},
		{veteran, "where do you live?", "do you have pets?", "Yep, three huskies, like I said!", "", "cabin"},
		{teacher, "what do you do?", "what subject?", "", "chemistry", ""},
		{teacher, "what do you do?", "which school?", "", "high school", ""},
		{teacher, "what do you do for fun?", "why surfing?", "", "", "weekend"},
		{goalie, "do you play sports?", "what position?", "", "goalie", ""},
		{goalie, "do you collect anything?", "what kind?", "", "postcards", ""},
		{chef, "what do you do for a living?", "oh nice, where at?", "Portland, like I said!", "", "chef"},
		{chef, "are you married?", "whens the wedding", "Next october, like I said!", "", "married"},
		{chef, "are you married?", "when?", "Next october, like I said!", "", "married"},
		{chef, "do you play any instruments?", "what kind of band", "Mariachi band, like I said!", "", "trumpet"},
		{chef, "where do you live?", "do you live alone?", "My grandmother, like I said!", "", "san antonio"},
		{chef, "what do you drive?", "what color is it", "Red, like I said!", "", "motorcycle"},
		{junior, "what do you do?", "are you in school?", "Yep, high school, like I said!", "", "sixteen"},
	}
	for _, tt := range tests {
		t.Run(tt.again, func(t *testing.T) {
			got := talk(t, tt.profile, tt.first, tt.again)[1]
			low := strings.ToLower(got)
			switch {
			case tt.want != "" && !strings.HasPrefix(got, tt.want):
				t.Errorf("%q, want it to start %q", got, tt.want)
			case tt.want == "" && !slices.ContainsFunc(slices.Concat(justSaidLeads, justSaidYes), func(l string) bool { return strings.HasPrefix(got, l) }):
				t.Errorf("%q, want it to say the fact was just told", got)
			case tt.has != "" && !strings.Contains(low, tt.has):
				t.Errorf("%q, want %q in it", got, tt.has)
			case tt.hasNot != "" && strings.Contains(low, tt.hasNot):
				t.Errorf("%q, want no %q in it: the part asked for, not the fact again", got, tt.hasNot)
			}
		})
	}
}

// TestPersonaAsksOfThird: "what does she do?" asks about a relative, by
// a pronoun; it is answered by what the profile tells of one, never by
// the bot's own job or age.
func TestPersonaAsksOfThird(t *testing.T) {
	tests := []struct {
		profile, q  string
		has, hasNot string // in the reply, in lower case
	}{
		{"i am a paramedic in glasgow.\nmy wife olga is a cellist.", "what does she do?", "cellist", "paramedic"},
		{"i am a paramedic in glasgow.\ni love old soul records.", "what does he do?", "", "paramedic"},
		{"i am a chef in lyon.\nmy partner andres lives in santiago.", "where does he live?", "santiago", "lyon"},
		{"i am thirty five and a pilot.\nmy daughter isla turned seven last month.", "how old is she?", "7", "35"},
		{"i am a chess coach.\nmy son leo is studying law in ankara.", "what does he do?", "law", "chess"},
	}
	for _, tt := range tests {
		t.Run(tt.q, func(t *testing.T) {
			got := strings.ToLower(talk(t, tt.profile, tt.q)[0])
			if tt.has != "" && !strings.Contains(got, tt.has) {
				t.Errorf("%q, want %q in it", got, tt.has)
			}
			if strings.Contains(got, tt.hasNot) {
				t.Errorf("%q: the bot's own %q answers a question about someone else", got, tt.hasNot)
			}
		})
	}
}

// TestPersonaUnmarkedQuestions: a question typed without its question
// mark, after a hello or as "tell me about…", is answered as one.
func TestPersonaUnmarkedQuestions(t *testing.T) {
	profile := "i am a welder at a shipyard.\ni was adopted when i was a baby.\ni grew up in ohio."
	for q, want := range map[string]string{
		"hi whats ur job":             "welder",
		"hey what do you do for work": "welder",
		"tell me about your family":   "adopted",
		"whats up? what do you do":    "welder",
		"how are you? what's ur job":  "welder",
		"so where u from":             "ohio",
	} {
		if got := strings.ToLower(talk(t, profile, q)[0]); !strings.Contains(got, want) {
			t.Errorf("%q: %q, want %q in it", q, got, want)
		}
	}
}
