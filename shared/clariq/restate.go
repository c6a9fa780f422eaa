package clariq

import (
	"slices"
	"strings"
)

// The closing line says what the bot now understands the need to be, in
// its own words: the request's subject without its phrasing ("tell me
// about …"), spoken to the partner, and what each answer added or ruled out.

// requestLeads open a request and say only that it is one; what follows
// them is the subject.
var requestLeads = wordLists(`i would like to know more about|i would like to know about|i'd like to know more about|i'd like to know about
|i want to know more about|i want to know about|i want to learn more about|i want to learn about|i would like to learn about
|tell me more about|tell me information about|tell me about|tell about|tell me
|find me information about|find me information on|find information about|find information on|find information from|find more information about
|find me info on|find info on|find me|fine me|find|search for|show me|give me information on|give me information about|give me
|i'm looking for information on|i'm looking for information about|i'm looking for|i am looking for information on|i am looking for|looking for
|i'm interested in|i am interested in|interested in|what should i know about|information about|information on|info on|more about|about`)

// askLeads open a request that is a question; the subject follows.
var askLeads = wordLists(`what is|what are|what was|what were|who is|who was|who are|what's|who's`)

// questionLeads open a bank question; what follows is the facet it asks about.
var questionLeads = wordLists(`would you like me to tell you about|would you like me to tell you|do you want me to tell you about|do you want me to tell you
|would you like me to|do you want me to|do you need to know about|do you need to know|do you need information on|would you like to know more about|would you like to know about|would you like to know|would you like information on|would you like information about|would you like
|are you looking for information on|are you looking for information about|are you looking for a|are you looking for an|are you looking for|are you interested in learning about|are you interested in
|do you want to know more about|do you want to know about|do you want to know|do you want information on|do you want to|do you want|do you need|do you mean|is this about|are you referring to|are you asking about|is it|are you`)

// answerLeads open an answer with a yes or no and carry no need themselves.
var answerLeads = wordLists(`yes i do and|yes i do|yes please|yes and|yes also|yes but|yes|yeah|yep|sure|no i don't|no thanks|no just|no but|no|nope|nah|not really|not|neither|and also|also|and|just|but|maybe`)

// unsure are answers that neither agree nor say what else is wanted.
var unsure = []string{"not sure", "don't know", "dont know", "don know", "no idea", "whatever", "doesn't matter", "i guess", "either one"}

// unsureAnswer reports an answer that does not know what it wants.
func unsureAnswer(answer string) bool {
	low := " " + strings.Join(words(answer), " ") + " "
	for _, u := range unsure {
		if strings.Contains(low, " "+u+" ") {
			return true
		}
	}
	return false
}

// yesNo are the first words of a bank question that can be answered yes
// or no, so that a bare yes or no says something about its facet.
var yesNo = map[string]bool{"are": true, "is": true, "do": true, "does": true, "did": true, "would": true, "will": true,
	"can": true, "could": true, "should": true, "have": true, "has": true, "were": true, "was": true}

func wordLists(s string) [][]string {
	var out [][]string
	for _, l := range strings.Split(s, "|") {
		if ws := strings.Fields(l); len(ws) > 0 {
			out = append(out, ws)
		}
	}
	return out
}

// restateRequest is the need of the request, spoken to the partner:
// "you'd like to know about raspberry pi".
func restateRequest(request string) string {
	request = strings.ReplaceAll(strings.ReplaceAll(request, `"`, ""), "“", "")
	if subject, ok := cutLead(request, askLeads); ok && subject != "" {
		return "you'd like to know about " + toPartner(subject)
	}
	if subject, ok := cutLead(request, requestLeads); ok && subject != "" {
		return "you're after " + toPartner(subject)
	}
	if rest, ok := cutLead(request, [][]string{{"how", "to"}, {"how", "do", "i"}, {"how", "can", "i"}}); ok && rest != "" {
		return "you want to know the way to " + toPartner(rest)
	}
	toks := tokens(request)
	if len(toks) > 0 && whWords[normTok(toks[0])] {
		return "you'd like an answer to " + toPartner(strings.Join(toks, " "))
	}
	return "you're after " + toPartner(strings.Join(toks, " "))
}

// facet is what a bank question asks about ("would you like to know about
// raspberry pi camera" → "raspberry pi camera").
func facet(question string) string {
	if f, ok := cutLead(question, questionLeads); ok && f != "" {
		return f
	}
	return strings.Join(tokens(question), " ")
}

// answerPart is what one answer tells of the need: the answer in the bot's
// words when it says more than yes or no, else the facet of the question
// it agreed to or turned down.
func answerPart(question, answer string) string {
	if unsureAnswer(answer) {
		return ""
	}
	rest, _ := cutLead(answer, answerLeads)
	rest = strings.TrimSpace(rest)
	if len(terms(rest)) > 0 {
		return toPartner(rest)
	}
	if qw := words(question); len(qw) == 0 || !yesNo[qw[0]] {
		return ""
	}
	if negative(answer) {
		return "not " + facet(question)
	}
	return "in particular " + facet(question)
}

// closing is the bot's last line: the need as the request and the answers
// shaped it, never the request quoted back.
func closing(d Dialogue) string {
	if len(words(d.Request)) == 0 {
		return "Thanks for chatting. Goodbye!"
	}
	need := restateRequest(d.Request)
	var parts []string
	for i, a := range d.Answers {
		q := ""
		if i < len(d.Questions) {
			q = d.Questions[i]
		}
		if p := answerPart(q, a); p != "" && !slices.Contains(parts, p) {
			parts = append(parts, p)
		}
	}
	switch {
	case len(d.Answers) == 0:
		return "Your request is clear: " + need + ". I'll look for that. Goodbye!"
	case len(parts) == 0:
		return "Got it — " + need + ". I'll look for that. Goodbye!"
	}
	return "Got it — " + need + ": " + strings.Join(parts, "; ") + ". I'll look for that. Goodbye!"
}

// partnerWords turn the partner's first person into the bot's second.
var partnerWords = map[string]string{
	"i": "you", "me": "you", "my": "your", "mine": "yours", "myself": "yourself", "am": "are",
	"i'm": "you're", "i've": "you've", "i'd": "you'd", "i'll": "you'll", "we": "you", "our": "your", "im": "you're", "id": "you'd",
}

// toPartner rewrites a phrase of the partner's for the bot to say back.
func toPartner(s string) string {
	toks := tokens(strings.NewReplacer(`"`, "", "“", "", "”", "").Replace(s))
	for i, t := range toks {
		if w, ok := partnerWords[normTok(t)]; ok {
			toks[i] = w
		} else if normTok(t) == "was" && i > 0 && normTok(toks[i-1]) == "you" {
			toks[i] = "were"
		}
	}
	return strings.Join(toks, " ")
}
