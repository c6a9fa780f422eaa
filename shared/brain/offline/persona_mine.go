package offline

import (
	"slices"
	"strings"
)

// The rewrites of a "my …" sentence: "my favorite color is blue" → "blue
// is my top color", "my father was a construction worker" → "my father:
// construction worker, back then", "my mom is also a nurse" → "my mom's a
// nurse too".

// possessive rewrites the rest of a "my …" sentence ("favorite color is
// blue", "mom is a nurse").
func possessive(rest []string) []string {
	verb := -1
	for i, w := range rest {
		if w == "is" || w == "are" || w == "was" || w == "were" {
			verb = i
			break
		}
	}
	if verb < 1 || verb == len(rest)-1 || slices.ContainsFunc(rest[:verb], func(w string) bool { return clauseStarts.has(w) || w == "i" }) {
		// "my mom passed away when i was young": the verb is another
		// clause's, never "when I used to be young"
		return []string{"my " + strings.Join(rest, " ")}
	}
	what, value := rest[:verb], strings.Join(rest[verb+1:], " ")
	if v := rest[verb+1:]; len(v) > 1 && (adverbs.has(v[0]) || v[0] == "both" || v[0] == "all") && (rest[verb] == "was" || rest[verb] == "were") {
		// "my parents were both very athletic" → "my parents both used to
		// be really athletic", never "used to be both"
		w, after := strings.Join(what, " "), strings.Join(v[1:], " ")
		return []string{"my " + w + " " + v[0] + " used to be " + after, "back then my " + w + " " + rest[verb] + " " + v[0] + " " + after}
	}
	var short []string
	if v := rest[verb+1:]; len(v) > 1 && adverbs.has(v[0]) && rest[verb] == "is" {
		short = []string{"my " + strings.Join(what, " ") + "'s " + value} // "my dad's still alive"
		if v[0] == "also" {
			short = []string{"my " + strings.Join(what, " ") + "'s " + strings.Join(v[1:], " ") + " too"} // "my mom's a nurse too"
		}
	}
	if what[0] == "favorite" || what[0] == "favourite" {
		thing := strings.Join(what[1:], " ")
		if thing == "" {
			thing = "thing"
		}
		if rest[verb] != "is" {
			return []string{value + " " + rest[verb] + " my top " + thing, "if I had to pick a top " + thing + ", it'd be " + value}
		}
		return []string{value + " is my top " + thing, "if I had to pick a top " + thing + ", it'd be " + value, "my number one " + thing + " is " + value}
	}
	w := strings.Join(what, " ")
	var bare []string
	if v := rest[verb+1:]; len(v) >= 2 && (v[0] == "a" || v[0] == "an") {
		// "my father was a construction worker" → "my father: construction
		// worker, back then": the noun phrase without its article.
		b := "my " + w + ": " + strings.Join(v[1:], " ")
		if rest[verb] == "was" || rest[verb] == "were" {
			b += ", back then"
		}
		bare = append(bare, b)
	}
	if v := rest[verb+1:]; len(v) <= 3 && v[0] != "my" && (rest[verb] == "is" || rest[verb] == "was") && (v[0] == "a" || v[0] == "an" || v[0] == "the" || len(v) <= 2) &&
		!slices.ContainsFunc(v, func(w string) bool {
			return adjective(w) && w != v[len(v)-1] || adverbs.has(w) || strings.HasSuffix(w, "ly") || strings.HasSuffix(w, "ing") ||
				stopwords.has(w) && !determiners.has(w) || prepositionWords.has(w)
		}) && !adjective(v[len(v)-1]) {
		// "my name is larry" → "larry, that's my name": a short noun phrase first
		that := "that's"
		if rest[verb] == "was" || rest[verb] == "were" {
			that = "that was"
		}
		bare = append(bare, value+", "+that+" my "+w)
	}
	switch rest[verb] {
	case "was", "were":
		return append([]string{"my " + w + " used to be " + value, "back then my " + w + " " + rest[verb] + " " + value}, bare...)
	}
	return slices.Concat(short, []string{"my " + w + " " + rest[verb] + " actually " + value, "as it happens, my " + w + " " + rest[verb] + " " + value}, bare)
}
