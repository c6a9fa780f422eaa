package offline

import (
	"slices"
	"testing"
)

// TestWeSays: a sentence said by more than the bot ("we …", "my wife and
// i …") is one fact, said with its whole subject, first without a filler.
func TestWeSays(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{"we have six grandkids", "we've got 6 grandkids"},
		{"we have four kids", "we've got 4 kids"},
		{"my wife and i have five children", "my wife & I have 5 children"},
		{"my girlfriend and i live with her parents", "my girlfriend & I are living with her folks"},
		{"my family and i are from india", "we're from india, my family & I"},
		{"my husband and i own a bakery", "my husband & I have a bakery"},
		{"we do not have any pets", "no pets for us"},
		{"we like dogs", "we're really into dogs"},
	} {
		t.Run(c.line, func(t *testing.T) {
			says := saysOf(t, c.line)
			if !slices.Contains(says, c.want) {
				t.Errorf("got %q, want %q among them", says, c.want)
			}
			if fillerCount(says[0]) > 0 {
				t.Errorf("first rendering %q has a filler", says[0])
			}
		})
	}
}

// saysOf returns the renderings of the fact of line in a profile of three
// sentences; it fails when the bot cannot say it.
func saysOf(t *testing.T, line string) []string {
	t.Helper()
	pr := parseProfile(line + ".\ni like to ride horses.\ni have two cats.")
	if pr == nil {
		t.Fatalf("%q: not a profile", line)
	}
	for _, f := range pr.facts {
		if f.source == line {
			return f.says
		}
	}
	t.Fatalf("%q: unsayable; facts %q", line, func() (out []string) {
		for _, f := range pr.facts {
			out = append(out, f.source)
		}
		return
	}())
	return nil
}
