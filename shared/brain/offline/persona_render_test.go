package offline

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/duetbot/duet/shared/brain"
)

// TestNamesKeepTheirWords: a name or title of a profile sentence is said
// with its own words, together: no filler, softener or synonym inside it
// ("the insane, like, clown posse", "new children on the block"). A name
// of three words repeats the profile whole, so its fact goes unsaid.
func TestNamesKeepTheirWords(t *testing.T) {
	for _, c := range []struct{ profile, line, name string }{
		{"my favorite band is the insane clown posse.\ni like to ride horses.\ni have two cats.", "my favorite band is the insane clown posse", "insane clown posse"},
		{"i love new kids on the block.\ni work at a bank.\ni have a red car.", "i love new kids on the block", "new kids on the block"},
		{"i play a lot of call of duty.\ni live in ohio.\ni have a sister.", "i play a lot of call of duty", "call of duty"},
		{"my favorite movie is star wars.\ni am a nurse.\ni have a big family.", "my favorite movie is star wars", "star wars"},
		{"i have a german shepherd named big joe.\ni like pizza.\ni am tall.", "i have a german shepherd named big joe", "big joe"},
	} {
		pr := parseProfile(c.profile)
		name := " " + c.name + " "
		for _, f := range pr.facts {
			if f.source != c.line {
				continue
			}
			for _, s := range f.says {
				low := " " + strings.Join(brain.RouterWords(s), " ") + " "
				if !strings.Contains(low, name) || fillerCount(s) > 0 && strings.Contains(strings.ToLower(s), ", like, "+c.name) {
					t.Errorf("%q: %q breaks or changes the name %q", c.line, s, c.name)
				}
			}
		}
	}
}

// softenerPhrases are what a rendering adds to break a trigram; each may
// stand once in a sentence.
var softenerPhrases = regexp.MustCompile(`\b(over (in|at|on)|actually|along with|all the way)\b`)

// repeatedSoftener reports a softener that s says more often than its
// sentence src does: "I live over in a little apartment over in tokyo".
func repeatedSoftener(src, s string) string {
	count := map[string]int{}
	for _, m := range softenerPhrases.FindAllString(strings.ToLower(s), -1) {
		count[strings.Fields(m)[0]]++
	}
	for w, n := range count {
		if n > 1 && strings.Count(" "+src+" ", " "+w+" ") < n {
			return w
		}
	}
	return ""
}

// TestNoRepeatedSoftener: a rendering never says a softener twice ("over
// in … over in", "actually … actually").
func TestNoRepeatedSoftener(t *testing.T) {
	if w := repeatedSoftener("i live in a little apartment in tokyo", "I live over in a little apartment over in tokyo"); w != "over" {
		t.Fatalf("the check misses a repeated softener: %q", w)
	}
	for _, profile := range []string{
		"i live in a little apartment in tokyo.\ni like to ride horses.\ni have two cats.",
		"when i grow up i want to be a dog.\ni am a little girl.\ni like to play in the park.",
		"i live in a small house in a big city.\ni work at a store in the mall.\ni am a cashier.",
	} {
		for _, f := range parseProfile(profile).facts {
			for _, s := range f.says {
				if w := repeatedSoftener(f.source, s); w != "" {
					t.Errorf("%q: %q says %q twice", f.source, s, w)
				}
			}
		}
	}
}

// TestKindIsNoTitle: a kind of thing and where one has it ("country music
// on the road") is no title, which would have to be said whole.
func TestKindIsNoTitle(t *testing.T) {
	for _, c := range []struct {
		line string
		want int
	}{
		{"i listen to country music on the road", 0},
		{"i love new kids on the block", 1},
	} {
		if got := names(strings.Fields(c.line)); len(got) != c.want {
			t.Errorf("%q: got names %q, want %d", c.line, got, c.want)
		}
	}
	// A favourite's title ends where a clause about it begins.
	if got := names(strings.Fields("my favourite book is moby dick which my friends find funny")); !slices.Equal(got, []string{"moby dick"}) {
		t.Errorf("names = %q, want [moby dick]", got)
	}
}

// TestTimeIsNoObject: a verb followed by when it is done has no object to
// put first: never "what I bowl is every thursday night".
func TestTimeIsNoObject(t *testing.T) {
	for _, line := range []string{"i bowl every thursday night", "i swim twice a week", "i jog each morning"} {
		pr := parseProfile(line + ".\ni like the color blue.\ni have two sisters.")
		for _, s := range pr.facts[0].says {
			if strings.HasPrefix(s, "what I ") || strings.Contains(s, " is what I ") || strings.HasPrefix(s, "something I ") {
				t.Errorf("%q said %q: a time is no object", line, s)
			}
		}
	}
}

// TestCommonThingsMayBreak: a known phrase that names a common thing,
// not one of a kind ("a construction crew", "a ball python"), is broken
// like any noun phrase where that is the only way to say its fact; only
// names stay whole.
func TestCommonThingsMayBreak(t *testing.T) {
	for _, line := range []string{
		"i frame houses for a construction crew",
		"my ball python is named noodle",
		"i retired from the fire department after twenty five years",
	} {
		if pr := parseProfile(line + ".\ni like the color blue.\ni have two sisters."); !saysWhole(pr, line) {
			t.Errorf("%q cannot be said", line)
		}
	}
}

// TestTitlesSaid: a title whose words are themselves a trigram of the
// profile is said with "&" for its "and" or without its "the", as chat
// types titles ("pride & prejudice", "lion king is my top movie"); a game
// and when it is played is no title ("cricket on saturdays"). A compound
// keeps its article: never "join air force".
func TestTitlesSaid(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{"my favorite book is pride and prejudice", "pride & prejudice"},
		{"my favorite movie is the lion king", "lion king"},
		{"i play cricket on saturdays", "cricket"},
	} {
		profile := c.line + ".\ni like to ride horses.\ni have two cats."
		pr := parseProfile(profile)
		if !saysWhole(pr, c.line) {
			t.Errorf("%q: unsayable", c.line)
			continue
		}
		for _, f := range pr.facts {
			if f.source == c.line && !strings.Contains(strings.ToLower(f.says[0]), c.want) {
				t.Errorf("%q: said %q, want %q in it", c.line, f.says[0], c.want)
			}
		}
	}
	pr := parseProfile("i want to join the air force.\ni like to ride horses.\ni have two cats.")
	for _, f := range pr.facts {
		for _, s := range f.says {
			if strings.Contains(strings.ToLower(s), "join air force") {
				t.Errorf("%q: %q drops the compound's article", f.source, s)
			}
		}
	}
}

// TestNamesAndNumbersWhole: a name given after a relative stays with the
// relative ("leo, my son? He…", never "my son? He leo…"), and no filler
// parts a number ("forty, like, five").
func TestNamesAndNumbersWhole(t *testing.T) {
	parted := regexp.MustCompile(`\b(twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety),? (like|you know),? (one|two|three|four|five|six|seven|eight|nine)\b`)
	for _, c := range []struct{ line, name string }{
		{"my son leo just started university in montreal.", "leo"},
		{"my daughter maria studies law in madrid.", "maria"},
		{"i was a nurse in dublin for thirty five years.", ""},
		{"i will be forty five next week.", ""},
		{"my grandpa turned ninety two last spring.", ""},
	} {
		pr := parseProfile(c.line + "\ni like to ride horses.\ni have two cats.")
		for _, f := range pr.facts {
			if f.source+"." != c.line {
				continue
			}
			for _, s := range f.says {
				low := strings.ToLower(s)
				if parted.MatchString(low) || c.name != "" && (!strings.Contains(low, c.name) || regexp.MustCompile(`\? (he|she) `+c.name).MatchString(low)) {
					t.Errorf("%q: %q parts a number or drops its name", c.line, s)
				}
			}
		}
	}
}

// TestLongSentencesSaid: a sentence of two details is said whole, each
// trigram broken the way chat says it: "when i was eight" → "at age
// eight", "a dragon who" → "a dragon that", "the animal shelter" → "the
// local animal shelter", "her first baby" → "her very first baby", "three
// hundred" → "300", "st petersburg" → "saint petersburg".
func TestLongSentencesSaid(t *testing.T) {
	for _, c := range []struct{ profile, line, want string }{
		{"my grandmother taught me to play the accordion when i was eight.\ni live in ohio.", "my grandmother taught me to play the accordion when i was eight", "at age eight"},
		{"i'm trying to write a fantasy novel about a dragon who hates fire.\ni live in ohio.", "i am trying to write a fantasy novel about a dragon who hates fire", "a dragon that hates fire"},
		{"i'm a retired firefighter who now volunteers at the animal shelter.\ni live in ohio.", "i am a retired firefighter who now volunteers at the animal shelter", "the local animal shelter"},
		{"my daughter just had her first baby, so i'm a new grandpa.\ni live in ohio.", "my daughter just had her first baby so i am a new grandpa", "her very first baby"},
		{"i am a sheep farmer in the scottish highlands with around three hundred ewes.\ni live in ohio.", "i am a sheep farmer in the scottish highlands with around three hundred ewes", "300 ewes"},
		{"i am a retired ballet dancer who now teaches children in st petersburg.\ni live in ohio.", "i am a retired ballet dancer who now teaches children in st petersburg", "saint petersburg"},
		{"i live near the beach.\ni have a cat.", "i live near the beach", "close to the beach"},
		{"my dog, a husky named juno, is my best friend.\ni live in ohio.", "my dog a husky named juno is my best friend", "juno"},
		{"i was a mail carrier for thirty-two years.\ni live in ohio.", "i was a mail carrier for thirty two years", "32 years as mail carrier"},
	} {
		pr := parseProfile(c.profile)
		if !saysWhole(pr, c.line) {
			t.Errorf("%q is not said whole", c.line)
			continue
		}
		if first := firstSay(pr, c.line); !strings.Contains(strings.ToLower(first), c.want) {
			t.Errorf("%q said %q, want %q in it", c.line, first, c.want)
		}
	}
}

// TestIntensifiersOnlyBeforeAQuality: "the very" stands before a rank or
// an end, never before a thing ("the very animal shelter"), and "a
// really" before a quality ("a really big house"), never before a word of
// a thing ("a really music teacher", which "music" read as an adjective by
// its ending once made).
func TestIntensifiersOnlyBeforeAQuality(t *testing.T) {
	for _, c := range []struct{ profile, never string }{
		{"i volunteer at the animal shelter three days a week.\ni like to ride horses.\ni have two cats.", "very animal"},
		{"i was a music teacher and directed the high school band.\ni still play trumpet in a community jazz band.\ni have two cats.", "really music"},
	} {
		for _, f := range parseProfile(c.profile).facts {
			for _, s := range f.says {
				if strings.Contains(s, c.never) {
					t.Errorf("%q: %q", f.source, s)
				}
			}
		}
	}
}
