package offline

import (
	"slices"
	"testing"
)

// TestQuestionReading checks what a question is read as asking: one's
// hours of work, a yes/no question's words in a row, chat's shorthand and
// slips, a follow-up after the question it follows.
func TestQuestionReading(t *testing.T) {
	for _, q := range []string{"what are your hours like?", "what are ur hours like", "do you ever work nights?", "what's your schedule like?"} {
		if a := readQuestion(analyze(q)); !a.hours || a.intents&catJob == 0 {
			t.Errorf("%q: hours %v, intents %b; want one's hours of work", q, a.hours, a.intents)
		}
	}
	if a := readQuestion(analyze("do you work from home?")); !slices.Equal(a.tail, []string{"work", "from", "home"}) {
		t.Errorf("tail %q, want work from home", a.tail)
	}
	for in, want := range map[string]string{"wyd for fun": "what do you do for fun", "WYD this weekend?": "what do you do this weekend?", "a wydget": "a wydget"} {
		if got := expandShorthand(in); got != want {
			t.Errorf("expandShorthand(%q) = %q, want %q", in, got, want)
		}
	}
	if got := analyze("do yuo have kidz").norm; got != "do you have kids" {
		t.Errorf("slips read as %q", got)
	}
	for msg, want := range map[string]string{
		"Do you have any grandkids? How many?":     "Do you have any grandkids?",
		"Hi! How are you today? Are you working?":  "Are you working?",
		"Are you retired? What did you do before?": "What did you do before?",
		"hey whats up, u in school or working":     "hey whats up, u in school or working",
		"I love dogs. Any pets? What kind of dog?": "What kind of dog?",
	} {
		if got := questionSentence(analyze(msg)); got != want {
			t.Errorf("questionSentence(%q) = %q, want %q", msg, got, want)
		}
	}
}
