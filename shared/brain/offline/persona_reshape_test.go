package offline

import (
	"slices"
	"testing"
)

// TestReshapes: a phrase the profile has in a row is said in another shape
// people use for it, without a filler, and the first rendering has none.
func TestReshapes(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{"i am a long haul trucker", "I'm a trucker, long haul"},
		{"i am a small town girl", "I'm a girl from a little town"},
		{"i am majoring in biology", "my major is biology"},
		{"i am a pastor at a baptist church", "baptist church, that's where I work as a pastor"},
		{"i have a weakness for fish and chips", "fish & chips are my weakness"},
		{"i have been married to my high school sweetheart for twenty years", "I've been married for 20 years to my sweetheart from high school"},
		{"my favorite show is grey's anatomy", "greys anatomy is my top show"},
		{"i coach my daughter's softball team", "I actually coach my daughters softball team"},
		{"my dad's a cop", "my dad is a cop"},
		{"i do not care about fashion", "fashion isn't something I care about"},
		{"i do not have a smartphone", "no smartphone for me"},
		{"my mom is also a nurse", "my mom's a nurse too"},
		{"i can drive a tractor", "driving a tractor is something I can do"},
		{"i can not swim", "swimming is something I can't do"},
		{"i only eat kosher", "I eat only kosher"},
		{"i used to be a painter", "I was once a painter"},
		{"i love to sing songs from the movie frozen", "I'm really into singing songs from frozen, the movie"},
		{"i enjoy exploring new parts of the city", "I'm really into exploring the city's new parts"},
		{"i run the local public library", "what I run is the public library, the local one"},
		{"my wife spends all my money", "my wife? She spends all of my money"},
		{"i am also a graduate student", "graduate student, that's what I am"},
		{"i am getting married in the spring", "the spring, that's when I'm getting married"},
		{"my parents were both very athletic", "my parents both used to be really athletic"},
		{"reggae is all i listen to", "all I ever listen to is reggae"},
		{"our labrador is called chorizo", "chorizo is our labrador's name"},
		{"i will be forty five next week", "I'll be 45 next week"},
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

// TestCompoundsStayWhole: an adjective of size or age before two nouns
// goes with the first, never "a haul trucker, a long one".
func TestCompoundsStayWhole(t *testing.T) {
	for _, c := range []struct{ line, not string }{
		{"i am a long haul trucker", "I'm a haul trucker, a long one"},
		{"i am a small town girl", "I'm a town girl, a little one"},
	} {
		if says := saysOf(t, c.line); slices.Contains(says, c.not) {
			t.Errorf("%q: got %q among %q", c.line, c.not, says)
		}
	}
}
