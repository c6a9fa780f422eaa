package offline

import (
	"slices"
	"strings"
)

// Sentences whose subject is more than the bot: "we have six grandkids",
// "my wife and i have five children". The bot says them with the same
// subject, as people type it in chat: "we've got 6 grandkids", "my wife &
// I have 5 kids", "we've got 5 kids, my wife & I". The subject said
// another way ("&", "we've") and the numbers as digits part most of the
// profile's trigrams; unrefuse rewords the rest.

// pairSubject reports whether ws, the words before "and i", name one
// person of the bot's: "my wife", "my best friend", never "my favorite
// band is up".
func pairSubject(ws []string) bool {
	if len(ws) < 2 || len(ws) > 3 || ws[0] != "my" {
		return false
	}
	return !slices.ContainsFunc(ws[1:], func(w string) bool {
		return stopwords.has(w) || determiners.has(w) || auxiliaries.has(w) || w == "is" || w == "are"
	})
}

// weSubject splits a sentence said by more than the bot into its subject
// ("we", or "my wife & I") and the rest, which starts with the verb; ok is
// false for any other sentence.
func weSubject(ws []string) (subject string, rest []string, ok bool) {
	if ws[0] == "we" && len(ws) >= 3 {
		return "we", ws[1:], true
	}
	k := slices.Index(ws, "and")
	if k < 0 || k+3 >= len(ws) || ws[k+1] != "i" || !pairSubject(ws[:k]) {
		return "", nil, false
	}
	return strings.Join(ws[:k], " ") + " & I", ws[k+2:], true
}

// progressives are verbs that read as well in the progressive, which
// parts them from the words they stood before: "we live with her
// parents" → "we're living with her parents".
var progressives = newSet("live work stay study teach")

// weSays are the renderings of a sentence with subject (weSubject) and the
// rest after it, the most natural first.
func weSays(subject string, rest []string) []string {
	v, obj := rest[0], digitsIn(rest[1:])
	o := strings.Join(obj, " ")
	// we are the sentence said with "we" ("we've got 6 grandkids"), pair
	// with the pair as its subject ("my wife & I have 5 children").
	var we, pair []string
	switch {
	case haveVerbs.has(v) && v != "had" && len(obj) > 0 && !participle(obj[0]):
		// "we own a bakery" is "we've got a bakery" too
		we = []string{"we've got " + o, "we have " + o}
		pair = []string{subject + " have " + o, subject + " have got " + o}
	case likeVerbs.has(v) && len(obj) > 0:
		// "we love to travel" → "we're really into traveling"
		if obj[0] == "to" && len(obj) > 1 {
			o = strings.TrimSpace(gerund(obj[1]) + " " + strings.Join(obj[2:], " "))
		}
		we = []string{"we're really into " + o, "we're big fans of " + o}
		pair = []string{subject + " are really into " + o, subject + " are big fans of " + o}
	case v == "do" && len(obj) >= 4 && obj[0] == "not" && haveVerbs.has(obj[1]) && (obj[2] == "a" || obj[2] == "an" || obj[2] == "any"):
		// "we do not have any pets" → "no pets for us"
		what := strings.Join(obj[3:], " ")
		we = []string{"no " + what + " for us", "we've got no " + what}
		pair = []string{subject + " have no " + what}
	case v == "are":
		we = []string{"we're " + o}
		pair = []string{subject + " are " + o}
	case progressives.has(v) && len(obj) > 0:
		we = []string{"we're " + gerund(v) + " " + o, "we " + v + " " + o}
		pair = []string{subject + " are " + gerund(v) + " " + o, subject + " " + v + " " + o}
	default:
		r := strings.Join(digitsIn(rest), " ")
		we = []string{"we " + r}
		pair = []string{subject + " " + r}
	}
	if subject == "we" {
		return we
	}
	// The pair said after what it does reads as chat too: "we've got 5
	// kids, my wife & I".
	out := slices.Clone(pair)
	for _, s := range we {
		out = append(out, s+", "+subject)
	}
	return out
}

// participle reports a word after "have" that makes it an auxiliary:
// "we have been married", "we have never met".
func participle(w string) bool {
	return w == "been" || w == "not" || w == "never" || w == "to" || strings.HasSuffix(w, "ed") && len(w) > 4 || pastVerbs.has(w) || participles.has(w)
}

// digitsIn writes the numbers of ws before a noun in digits: "six
// grandkids" → "6 grandkids", never "one of them".
func digitsIn(ws []string) []string {
	out := slices.Clone(ws)
	for i, w := range ws {
		if i+1 >= len(ws) || stopwords.has(ws[i+1]) || determiners.has(ws[i+1]) {
			continue
		}
		d := digits[w]
		if d == "" && isNumber(w) && swaps[w] != "" {
			d = swaps[w]
		}
		if d != "" {
			out[i] = d
		}
	}
	return out
}

// weSentence reports a sentence said by more than the bot (weSubject).
func weSentence(ws []string) bool {
	_, _, ok := weSubject(ws)
	return ok
}
