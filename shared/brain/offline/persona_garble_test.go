package offline

import (
	"strings"
	"testing"
)

// garbleCase is a profile sentence and what none of its renderings may
// say (not), and, when set, one it must have (want).
type garbleCase struct{ line, not, want string }

// checkGarbles renders each case's sentence in a profile of three and
// checks its renderings; a sentence the bot cannot say passes the "not"
// check (a fact left unsaid is better than one said wrong) but fails a
// "want".
func checkGarbles(t *testing.T, cases []garbleCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.line, func(t *testing.T) {
			var says []string
			pr := parseProfile(c.line + ".\ni like to ride horses.\ni have two cats.")
			for _, f := range pr.facts {
				if f.source == c.line {
					says = f.says
				}
			}
			for _, s := range says {
				if c.not != "" && strings.Contains(s, c.not) {
					t.Errorf("%q says %q", s, c.not)
				}
			}
			if c.want != "" && !slicesContains(says, c.want) {
				t.Errorf("got %q, want %q among them", says, c.want)
			}
		})
	}
}

func slicesContains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// TestSwapsKeepTheMeaning: a word is said another way only where the
// other word means the same: a size before a person says an age, "big
// fan" is no "large fan", "seventy two" one number, a noun before a noun
// names a kind, "a year" after a verb no rate, "like to" no "enjoy to".
func TestSwapsKeepTheMeaning(t *testing.T) {
	checkGarbles(t, []garbleCase{
		{"i have a little brother who annoys me", "bit brother", ""},
		{"i have a little brother who annoys me", "small brother", ""},
		{"i have a little brother who annoys me", "annoys, like, me", ""},
		{"i am a big fan of breaking bad", "large", "I'm a huge breaking bad fan"},
		{"i am seventy two years old", "seventy 2", ""},
		{"i am a country music singer", "tunes singer", ""},
		{"i spent a year living in madrid", "per year", ""},
		{"i spent a year living in madrid", "year living, that's", ""},
		{"i spend most days playing guitar", "on most days", ""},
		{"i love to travel", "adore to", "I'm really into traveling"},
		{"i like to dance", "enjoy to", ""},
		{"i am looking for a job in marketing", "a work", ""},
		{"i work at a pizza place", "pizza pie", ""},
		{"i help tend the fields", "", "I actually help look after the fields"},
	})
}

// TestNamesAndSetPhrasesStayWhole: nothing goes inside a known name, a
// compound or a set phrase ("the new, like, york yankees", "the really
// great gatsby", "a stay home dad", "thursday, you know, night"); a set
// phrase may be said as a clause instead.
func TestNamesAndSetPhrasesStayWhole(t *testing.T) {
	checkGarbles(t, []garbleCase{
		{"my favorite book is the great gatsby", "really great", ""},
		{"my favorite book is the great gatsby", "good gatsby", ""},
		{"i love the new york yankees", "new, like, york", ""},
		{"i love the new york yankees", "new, you know, york", ""},
		{"i am a stay at home dad", "stay home dad", "I'm a dad who stays at home"},
		{"i am a full time stay at home father", "a time stay", "I'm a father who stays at home full time"},
		{"i am a stay at home mom of three boys", "home of", "I'm a mother of 3 boys who stays at home"},
		{"i quit my job to be a stay at home dad", "stay home dad", ""},
		{"i bowl every thursday night", "thursday, ", "I bowl on thursday nights"},
		{"i am a social worker", "a social one", ""},
		{"i see the rolling stones in concert every year", "rolling, ", "rolling stones: I see them in concert each year"},
		{"i am a die hard braves fan", "fan of die hard", ""},
	})
}

// TestFrontsOnlyObjects: a phrase is put first only when it is what the
// verb acts on: never "remotely: I work it", "what I live is near the
// ocean", "a time, that's when I'm gone", "recent immigrant, that's me
// from india", "what I have is outlived…".
func TestFrontsOnlyObjects(t *testing.T) {
	checkGarbles(t, []garbleCase{
		{"i stay home full time with my kids", "I stay it", ""},
		{"i work remotely from my spare bedroom", "I work it", ""},
		{"i work remotely from my spare bedroom", "my job is remotely", ""},
		{"i live near the ocean", "what I live", ""},
		{"i am gone for weeks at a time", "a time, that's", ""},
		{"i enlisted in the army after high school", "after high school, that's where", ""},
		{"i am on a swim scholarship", "that's where I am", ""},
		{"i am a recent immigrant from india", "that's me from", ""},
		{"i have a son in the navy", "that's what I've got in", ""},
		{"i paint portraits of pets", "what I paint is", ""},
		{"i am gluten free", "what I am is", ""},
		{"i have outlived two husbands", "what I have is", ""},
	})
}

// TestRenderingsReadAsEnglish: a capital after "?", "actually" after
// an auxiliary but before a main verb ("I actually have red hair", "I
// was actually born"), never "a really single dad", "I've got written",
// and both verbs of "cut and color" as -ing.
func TestRenderingsReadAsEnglish(t *testing.T) {
	checkGarbles(t, []garbleCase{
		{"my girlfriend plays softball", "? she", "my girlfriend? She plays softball"},
		{"i have red hair and freckles", "have actually red", ""},
		{"i am a single dad", "really single", ""},
		{"i do my job from my home office", "do actually", ""},
		{"i was born in moscow", "actually was born", ""},
		{"i have written two novels", "got written", ""},
		{"i cut and color hair for a living", "cutting and colour", "cutting and coloring hair is my job"},
		{"i drive an old green volvo", "an volvo", ""},
		{"i teach third grade at a public school", "really public", ""},
	})
}
