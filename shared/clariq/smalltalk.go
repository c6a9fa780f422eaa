package clariq

import (
	"strings"
	"unicode"
)

// People greet before they ask ("hi, can you help me?"). Those clauses are
// not the request: the bot invites the request instead of searching for a
// greeting, and a greeting around a request is left out of it.

// pleasantry holds the words a clause of pure small talk is made of: a
// clause with no other word is a greeting or a plea for help, not a need.
var pleasantry = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`hi hello hey heya hiya howdy yo greetings there good morning afternoon evening day
		dear sir madam bot robot friend please pls thanks thank you ok okay so well um hmm oh
		can could would will may might you me i im i'm i'd a an the some something with
		help helping assist assistance question questions ask something anything
		need have got wondering wonder if want like to
		how are is it going doing today fine great nice meet meeting
		let's lets start begin chat talk`) {
		m[w] = true
	}
	return m
}()

// smallTalk reports whether a clause is only small talk: every word a
// pleasantry, and at least one word.
func smallTalk(clause string) bool {
	ws := words(clause)
	if len(ws) == 0 {
		return false
	}
	for _, w := range ws {
		if !pleasantry[w] {
			return false
		}
	}
	return true
}

// clauses splits a message at sentence and clause punctuation, keeping each
// clause's own text.
func clauses(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return r == ',' || r == '.' || r == '!' || r == '?' || r == ';' || r == ':' || r == '\n'
	})
}

// greetLeads open a message with a greeting.
var greetLeads = [][]string{
	{"hi", "there"}, {"hello", "there"}, {"hey", "there"}, {"good", "morning"}, {"good", "afternoon"}, {"good", "evening"},
	{"hi"}, {"hello"}, {"hey"}, {"hiya"}, {"howdy"}, {"greetings"},
}

// helpLeads open a request with a plea for help ("can you help me find a
// recipe"): the plea is dropped, the rest is the request.
var helpLeads = [][]string{
	{"can", "you", "help", "me", "with"}, {"can", "you", "help", "me", "find"}, {"can", "you", "help", "me", "to", "find"},
	{"could", "you", "help", "me", "with"}, {"could", "you", "help", "me", "find"}, {"please", "help", "me", "find"},
	{"i", "need", "help", "with"}, {"i", "need", "help", "finding"}, {"help", "me", "find"}, {"can", "you", "help", "me"},
	{"could", "you", "help", "me"}, {"i", "have", "a", "question", "for", "you"}, {"i", "have", "a", "question"},
	{"i", "need", "some", "help"}, {"i", "need", "help"}, {"can", "you"}, {"could", "you"}, {"please"},
}

// dropSmallTalk returns the request in a message with its small-talk
// clauses and any leading plea for help removed, and what the small talk
// was: a greeting, a plea for help, or both. rest is empty when the
// message is small talk only.
func dropSmallTalk(msg string) (rest string, greeted, askedHelp bool) {
	var kept []string
	for _, c := range clauses(msg) {
		if smallTalk(c) {
			if pleads(c) {
				askedHelp = true
			} else {
				greeted = true
			}
			continue
		}
		// Small talk run into the request without punctuation ("hey
		// there I have a question tell me about kiwi") is cut off its front.
		c = strings.TrimSpace(c)
		for {
			if t, ok := cutLead(c, greetLeads); ok && t != "" {
				greeted, c = true, t
			} else if t, ok := cutLead(c, helpLeads); ok && t != "" {
				askedHelp, c = true, t
			} else {
				break
			}
		}
		kept = append(kept, c)
	}
	return strings.Join(kept, ", "), greeted, askedHelp
}

// pleads reports a small-talk clause asking for help ("can you help me?",
// "I have a question") rather than greeting.
func pleads(clause string) bool {
	for _, w := range words(clause) {
		switch w {
		case "help", "helping", "assist", "assistance", "question", "questions", "ask", "need", "wondering":
			return true
		}
	}
	return false
}

// invitation is the bot's answer to small talk before any request.
func invitation(greeted, askedHelp bool) string {
	switch {
	case askedHelp && greeted:
		return "Hi! Sure, happy to help. What are you looking for?"
	case askedHelp:
		return "Of course. What would you like to find out?"
	default:
		return "Hello! What can I help you find today?"
	}
}

// cutLead removes from s the first of leads (lower-case word sequences)
// that opens it, keeping the rest of s as written.
func cutLead(s string, leads [][]string) (string, bool) {
	toks := tokens(s)
	low := make([]string, len(toks))
	for i, t := range toks {
		low[i] = strings.ReplaceAll(normTok(t), "'", "") // read as words reads it: "hel'lo" is "hello"
	}
	for _, lead := range leads {
		if len(lead) <= len(low) && equalWords(low[:len(lead)], lead) {
			return strings.Join(toks[len(lead):], " "), true
		}
	}
	return s, false
}

// tokens splits s into its words as written: runs of letters, digits and
// apostrophes, split where words (embed.Words) splits them, so that a lead
// cut here is the lead the request's words begin with ("Hello"00" is
// "Hello", "00").
func tokens(s string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '’'
	}) {
		f = strings.Trim(f, "'’")
		if f != "" {
			out = append(out, f)
		}
	}
	return out
}

// normTok is a token in lower case with a curly apostrophe made straight.
func normTok(t string) string {
	return strings.ReplaceAll(strings.ToLower(t), "’", "'")
}

func equalWords(a, b []string) bool {
	for i := range b {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
