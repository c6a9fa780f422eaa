package offline

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/duetbot/duet/shared/brain"
)

// horses is a profile as the ConvAI2 router sends it after /start.
const horses = "i like to ride horses.\ni help tend the fields.\ni have three arabian horses.\ni work as a school teacher.\nmy favorite color is grey."

func TestParseProfile(t *testing.T) {
	for _, tt := range []struct {
		name, context string
		want          bool
	}{
		{"router profile", horses, true},
		{"one line", "i like to ride horses. i have three dogs. my mom is a nurse.", true},
		{"2017 paragraph", wasp, false},
		{"third person", "The Trans-Siberian Railway is the longest railway line in the world.\nIt connects Moscow with Vladivostok.", false},
		{"empty", "", false},
		// Every sentence here repeats a trigram of the profile in each of
		// its paraphrases ("reading mystery novels"): the sim's chat that
		// the router refused when such a profile fell to paragraph replies.
		{"unsayable facts", "i love reading mystery novels.\ni volunteer at the animal shelter.\ni am a student at a small college.\ni want to become a pilot.", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := parseProfile(tt.context) != nil; got != tt.want {
				t.Errorf("parseProfile(%q) is a profile: %v, want %v", tt.context, got, tt.want)
			}
		})
	}
}

func TestPersonaAnswersFromProfile(t *testing.T) {
	tests := []struct {
		question string
		want     string // the reply names it
	}{
		{"do you have pets?", "horses"},
		{"Do you have any animals?", "horses"},
		{"what do you do for a living?", "teacher"},
		{"What's your job?", "teacher"},
		{"what is your favorite color?", "grey"},
		{"Do you like horses?", "horses"},
		{"are you a teacher?", "teacher"},
	}
	for _, tt := range tests {
		t.Run(tt.question, func(t *testing.T) {
			got := reply(t, chat(t, horses, tt.question))
			if !strings.Contains(strings.ToLower(got), tt.want) {
				t.Errorf("Reply to %q = %q, want it to say %q", tt.question, got, tt.want)
			}
			if aux := strings.Fields(strings.ToLower(tt.question))[0]; aux != "do" && strings.Contains(got, "I do!") {
				t.Errorf("Reply to %q = %q: \"I do!\" answers only \"do you…?\"", tt.question, got)
			}
		})
	}
}

// TestPersonaConsistentOnData asks every bot of the dev set about its pets
// and its job: when its profile has a fact about them, the reply states
// that fact (one of its content words).
func TestPersonaConsistentOnData(t *testing.T) {
	questions := map[category]string{catPet: "do you have pets?", catJob: "what do you do for a living?", catPlace: "where do you live?"}
	asked, answered := 0, 0
	for _, d := range devDialogues(t) {
		pr := parseProfile(d.botProfile())
		if pr == nil {
			continue
		}
		for cat, q := range questions {
			var words []string
			for _, f := range pr.facts {
				// A fact about someone else ("my father is an
				// electrician") does not say what the bot does, nor a
				// wish what it has ("i want to be a dog": no pet).
				if f.intents()&cat != 0 && !aboutOther(f.source) && !(f.wish && cat == catPet) {
					for _, s := range f.says {
						words = append(words, strings.Fields(strings.ToLower(s))...)
					}
				}
			}
			if len(words) == 0 {
				continue
			}
			asked++
			got := strings.ToLower(reply(t, chat(t, d.botProfile(), q)))
			found := false
			best := pr.answers(analyze(q))
			if len(best) == 0 {
				t.Errorf("profile %q: Reply to %q = %q, want a fact about it", d.BotProfile, q, got)
				continue
			}
			for _, say := range pr.facts[best[0]].says {
				for _, w := range strings.Fields(strings.ToLower(say)) {
					found = found || (len(w) >= 3 && !stopwords.has(w) && strings.Contains(got, w))
				}
			}
			if found {
				answered++
			} else {
				t.Errorf("profile %q: Reply to %q = %q, want a fact about it", d.BotProfile, q, got)
			}
		}
	}
	if asked < 20 {
		t.Errorf("only %d questions had an answer in the profiles, want at least 20", asked)
	}
	t.Logf("%d of %d questions answered from the profile", answered, asked)
}

func TestPersonaRemembersPartner(t *testing.T) {
	req := brain.Request{Context: horses}
	b := New()
	partner := []string{"hi!", "i have two dogs.", "ok", "lol", "sure", "ok", "yes", "haha", "ok", "right"}
	recalled := false
	for _, msg := range partner {
		req.Turns = append(req.Turns, brain.Turn{Role: brain.Partner, Text: msg})
		got, err := b.Reply(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		checkWellFormed(t, got)
		if len(req.Turns) > 2 && strings.Contains(got, "Do you have any pets?") {
			t.Errorf("after %q the bot asks %q", "i have two dogs.", got)
		}
		recalled = recalled || strings.Contains(got, "you have two dogs")
		req.Turns = append(req.Turns, brain.Turn{Role: brain.Bot, Text: got})
	}
	if !recalled {
		t.Errorf("the bot never came back to the partner's dogs: %q", req.Turns)
	}
}

// Automated grammar checks of replies.
var (
	// dangling: a determiner or preposition right before a sentence end.
	dangling = regexp.MustCompile(`(?i)\b(a|an|the|my|your|of|and|i'm)[.?!]`)
	// pluralIs: a plural subject with "is one of" ("cats is one of").
	pluralIs = regexp.MustCompile(`(^|[.!?] )\w+[^su']s is one of`)
	// lowerI: the pronoun in lower case.
	lowerI = regexp.MustCompile(`(^|\s)i(\s|'|$)`)
	// leaks: template and protocol words that must never reach the partner.
	leaks = regexp.MustCompile(`(?i)(your|my|the) (persona|profile)|%s|\{|\}|\bnil\b`)
)

// TestPersonaOnDevDialogues plays the bot of every dev-set dialogue against
// the human's real messages and checks every reply: well formed, no leaked
// template words, no profile pasted, grammatical by the checks above, and
// never a repeat.
func TestPersonaOnDevDialogues(t *testing.T) {
	b := New()
	replies, pasted := 0, 0
	for i, d := range devDialogues(t) {
		if parseProfile(d.botProfile()) == nil {
			t.Errorf("dialogue %d: the bot's profile %q is not read as a profile", i, d.BotProfile)
			continue
		}
		trigrams := brain.ProfileTrigrams(strings.Join(d.BotProfile, " "))
		req := brain.Request{Context: d.botProfile()}
		seen := map[string]bool{}
		msgs := append([]string{""}, d.partnerMessages()...)
		for _, msg := range msgs {
			if msg != "" {
				req.Turns = append(req.Turns, brain.Turn{Role: brain.Partner, Text: msg})
			}
			got, err := b.Reply(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			replies++
			checkWellFormed(t, got)
			switch {
			case leaks.MatchString(got):
				t.Errorf("dialogue %d: reply %q leaks a template word", i, got)
			case dangling.MatchString(got):
				t.Errorf("dialogue %d: reply %q has a dangling word", i, got)
			case pluralIs.MatchString(got):
				t.Errorf("dialogue %d: reply %q: plural subject with \"is\"", i, got)
			case lowerI.MatchString(got):
				t.Errorf("dialogue %d: reply %q: lower-case \"i\"", i, got)
			case seen[normalize(got)]:
				t.Errorf("dialogue %d: reply %q repeats an earlier one", i, got)
			}
			if n := countTrigrams(got, trigrams); n > 0 {
				t.Errorf("dialogue %d: reply %q repeats %d trigrams of the profile %q: the router refuses it", i, got, n, d.BotProfile)
				pasted++
			}
			seen[normalize(got)] = true
			req.Turns = append(req.Turns, brain.Turn{Role: brain.Bot, Text: got})
		}
	}
	t.Logf("%d replies, %d with a profile trigram", replies, pasted)
	if replies < 500 {
		t.Errorf("only %d replies checked, want the whole dev set", replies)
	}
}

func countTrigrams(s string, of brain.Trigrams) int {
	n := 0
	for tg := range brain.ProfileTrigrams(s) {
		if of.Has(tg) {
			n++
		}
	}
	return n
}

// TestPersonaFacts checks the paraphrases of every profile sentence of the
// releases: first person ("I" or "we"), none a copy of its sentence.
func TestPersonaFacts(t *testing.T) {
	profiles := allProfiles(t)
	facts := 0
	for _, s := range profiles {
		pr := parseProfile(s)
		if pr == nil {
			continue
		}
		for _, f := range pr.facts {
			facts++
			for _, say := range f.says {
				if tokensEqual(say, f.source) {
					t.Errorf("fact %q is said as it stands: %q", f.source, say)
				}
				if !regexp.MustCompile(`(^|\s)(I|I'm|I've|I'd|my|me|[Ww]e|[Ww]e're|[Ww]e've)(\s|$|,|\?)`).MatchString(say) {
					t.Errorf("fact %q: paraphrase %q is not in the first person", f.source, say)
				}
				if dangling.MatchString(sentence(say)) || lowerI.MatchString(say) || pluralIs.MatchString(say) {
					t.Errorf("fact %q: paraphrase %q fails a grammar check", f.source, say)
				}
			}
		}
	}
	t.Logf("%d facts the bot can say in %d profiles", facts, len(profiles))
	// Fewer than before paraphrases had to keep the whole fact: a fact the
	// bot can only say in part is left unsaid (TestSayableShare).
	if facts < 2350 {
		t.Errorf("only %d facts in %d profiles, want 2350 or more", facts, len(profiles))
	}
}

func TestSentencesOf(t *testing.T) {
	var got []string
	for s := range sentencesOf("Yes! I've got three horses. What about you?") {
		got = append(got, s)
	}
	want := []string{"Yes!", "I've got three horses.", "What about you?"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestGerund(t *testing.T) {
	for in, want := range map[string]string{"ride": "riding", "swim": "swimming", "play": "playing", "tie": "tying", "see": "seeing", "be": "being"} {
		if got := gerund(in); got != want {
			t.Errorf("gerund(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestPersonaCommonQuestions: the questions partners ask most get an answer
// from the profile when it has one, and a non-committal one otherwise.
func TestPersonaCommonQuestions(t *testing.T) {
	tests := []struct {
		profile, question string
		want              []string // the reply has one of these
	}{
		{"i am 40 years old.\ni like to ride horses.", "how old are you?", []string{"40"}},
		{horses, "how old are you?", []string{"Old enough", "Older than"}},
		{"i am a woman.\ni like to ride horses.", "are you male or female?", []string{"woman"}},
		{horses, "are you male or female?", []string{"mystery"}},
		{horses, "are you a bot?", []string{"why do you ask", "What makes you ask"}},
		{horses, "what are you up to?", []string{"chatting"}},
		// Nothing in the profile says where: a reply that invents no place.
		{horses, "where are you from?", []string{"rather not say", "to myself"}},
		{horses, "where are you now?", []string{"chatting", "keyboard"}},
		{horses, "do you like alcohol?", []string{"alcohol"}},
		{"i live in colorado.\ni like to ride horses.", "where do you live?", []string{"colorado"}},
	}
	for _, tt := range tests {
		t.Run(tt.question, func(t *testing.T) {
			got := reply(t, chat(t, tt.profile, tt.question))
			if !mentionsAny(got, tt.want) {
				t.Errorf("profile %q: Reply to %q = %q, want one of %q", tt.profile, tt.question, got, tt.want)
			}
		})
	}
}

// TestUnrefuse: each way of rewording breaks the refused trigram, and a
// text that cannot be reworded is left unsaid.
func TestUnrefuse(t *testing.T) {
	for _, tt := range []struct{ profile, say, want string }{
		{"i am a nurse.", "I am a nurse", "I'm a nurse"},
		{"i'm a nurse.", "I'm a nurse", "I am a nurse"},
		{"i do not eat meat.", "I do not eat meat", "I don't eat meat"},
		{"i like fish and chips.", "I adore fish and chips", "I adore fish & chips"},
		{"i am an avid kayaker.", "I'd call myself an avid kayaker", "I'd call myself a really avid kayaker"},
		{"they feed my fish daily.", "I feed my fish daily", "I feed my own fish daily"},
		{"i am an elementary school teacher.", "I work as an elementary school teacher", ""},
		{"i love reading mystery novels.", "I'm into reading mystery novels", ""},
	} {
		got := unrefuse(brain.ProfileTrigrams(tt.profile), tt.say)
		if got != tt.want {
			t.Errorf("profile %q: unrefuse(%q) = %q, want %q", tt.profile, tt.say, got, tt.want)
		}
		if got != "" && brain.ProfileTrigrams(tt.profile).Refuses(got) {
			t.Errorf("profile %q: %q is still refused", tt.profile, got)
		}
	}
}
