package offline

import (
	"slices"
	"strings"
)

// fearWords say one fears something; intensifiers may stand before them.
var (
	fearWords    = newSet("afraid scared terrified frightened fearful")
	intensifiers = newSet("deathly very really so super extremely totally quite pretty")
)

// fearSays rewrites the rest of "i am [very] afraid of X" and "i am
// allergic to X" with X first: "heights really scare me", "peanuts:
// allergic to them, sadly".
func fearSays(obj []string) []string {
	for len(obj) > 2 && intensifiers.has(obj[0]) {
		obj = obj[1:]
	}
	if len(obj) < 3 {
		return nil
	}
	// What one fears goes first, the rest of the sentence after it:
	// "clowns: that's my biggest fear, due to childhood trauma".
	np, tail := nounPhrase(obj[2:])
	x := strings.Join(np, " ")
	if slices.ContainsFunc(append(np, strings.Fields(tail)...), func(w string) bool { return w == "which" || w == "who" || w == "that" }) {
		return nil // "deep water, which is awkward for my major" says more of the fear than a fronted "deep water:" keeps
	}
	them, scare := "it", " scares"
	if plural(np[len(np)-1]) {
		them, scare = "them", " scare"
	}
	switch {
	case fearWords.has(obj[0]) && obj[1] == "of" && tail != "":
		return []string{x + ": that's my biggest fear," + tail, x + scare + " me to death," + tail}
	case fearWords.has(obj[0]) && obj[1] == "of":
		return []string{x + ": that's my biggest fear", x + scare + " me to death, honestly"}
	case obj[0] == "allergic" && obj[1] == "to":
		return []string{x + ": allergic to " + them + ", sadly" + tail}
	}
	return nil
}
