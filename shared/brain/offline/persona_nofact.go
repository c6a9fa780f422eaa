package offline

import (
	"slices"
	"strings"
)

// noFactLeads answer a question about something the profile does not
// cover without committing the bot: "what's your favourite food?" gets
// "Hard to pick a favourite food, honestly."; "do you like music?" gets
// "I don't mind music, I guess."
func noFactLeads(q *text, yesNo bool) []string {
	for i, w := range q.words {
		if (w.low == "favorite" || w.low == "favourite") && i+1 < len(q.words) && q.words[i+1].content {
			thing := q.words[i+1].low
			return []string{"Hard to pick a favourite " + thing + ", honestly.", "I don't really have a favourite " + thing + "."}
		}
	}
	padded := " " + q.norm + " "
	for _, e := range evasions {
		if strings.Contains(padded, e.asks) {
			return e.leads
		}
	}
	if !yesNo || !strings.Contains(q.norm, "you like") && !strings.Contains(q.norm, "you enjoy") && !strings.Contains(q.norm, "you love") {
		return nil
	}
	// "do you like alcohol?": the thing liked ends the question, and is
	// all the words after the verb of liking when they are few ("hot
	// sauce", "travelling by plane"); "do you like to read?" likes a
	// doing, "reading".
	n := len(q.words)
	if n < 4 {
		return nil
	}
	if w := q.words[n-1]; !w.content || w.generic || verbish(w.low) || w.proper {
		return nil
	}
	from := n - 1
	for i := n - 2; i >= 0 && !likeVerbs.has(q.words[i].low); i-- {
		from = i
	}
	if slices.ContainsFunc(q.words[from:], func(w word) bool { return whWords.has(w.low) }) {
		return nil // "do you like where you live?"
	}
	if from == 0 || n-from > 4 || slices.ContainsFunc(q.words[from:], func(w word) bool { return persons.has(w.low) }) {
		from = n - 1
		if q.words[n-2].low == "the" || q.words[n-2].low == "to" {
			from = n - 2 // "do you like going to the beach?", "do you like to read?"
		}
	}
	var ws []string
	for _, w := range q.words[from:] {
		if w.low == "your" {
			w.low = "my" // "do you like your neighbourhood?"
		}
		ws = append(ws, w.low)
	}
	if ws[0] == "to" && len(ws) > 1 {
		ws = append([]string{gerund(ws[1])}, ws[2:]...)
	}
	thing := strings.Join(ws, " ")
	return []string{"I don't mind " + thing + ", I guess.", firstLetterUpper(thing) + "? Not something I think about much."}
}

// persons are the persons a thing liked may not name in a reply: "do you
// like hanging out with them?" is answered by its last word alone.
var persons = newSet("i me my we us our you yourself he him his she her they them their")

// evasions answer common questions about the bot that a profile rarely
// covers, without committing it to anything.
var evasions = []struct {
	asks  string // in the normalised question, spaces around
	leads []string
}{
	{" how old are you ", []string{"Old enough to know better!", "Older than I look, ha!"}},
	{" how old r u ", []string{"Old enough to know better!", "Older than I look, ha!"}},
	{" your age ", []string{"Old enough to know better!", "Older than I look, ha!"}},
	{" you a bot ", []string{"Ha, why do you ask?", "What makes you ask that?"}},
	{" you a robot ", []string{"Ha, why do you ask?", "What makes you ask that?"}},
	{" you human ", []string{"Ha, why do you ask?", "What makes you ask that?"}},
	{" male or female ", []string{"Does it matter? Let's keep it a mystery.", "I'd rather keep that a mystery."}},
	{" or a guy ", []string{"Does it matter? Let's keep it a mystery.", "I'd rather keep that a mystery."}},
	{" or a girl ", []string{"Does it matter? Let's keep it a mystery.", "I'd rather keep that a mystery."}},
	{" who are you ", []string{"Just someone who likes a good chat.", "Someone who enjoys meeting new people."}},
	{" your job ", []string{"I'd rather talk about something more fun than work!", "Work? Let's save that for later."}},
	{" do for a living ", []string{"I'd rather talk about something more fun than work!", "Work? Let's save that for later."}},
	{" your hobby ", []string{"Oh, a bit of this and that.", "Nothing special, a bit of everything."}},
	{" your hobbies ", []string{"Oh, a bit of this and that.", "Nothing special, a bit of everything."}},
	{" how was your day ", []string{"Pretty relaxed, thanks!", "Not bad at all, thanks!"}},
	{" how is your day ", []string{"Pretty relaxed, thanks!", "Not bad at all, thanks!"}},
	{" how's your day ", []string{"Pretty relaxed, thanks!", "Not bad at all, thanks!"}},
	{" where do you live ", []string{"I'd rather not say exactly where, to be honest.", "Ha, I keep that one to myself."}},
	{" where are you from ", []string{"I'd rather not say exactly where, to be honest.", "Ha, I keep that one to myself."}},
	{" what are you up to ", []string{"Not much, just chatting with you!", "Just relaxing and chatting."}},
	{" what are you doing ", []string{"Not much, just chatting with you!", "Just relaxing and chatting."}},
	{" what's up ", []string{"Not much, just chatting with you!", "Just relaxing and chatting."}},
	{" are you married ", []string{"Ha, that's a personal one!", "I'll keep that one private, if you don't mind."}},
	{" girlfriend ", []string{"Ha, that's a personal one!", "I'll keep that one private, if you don't mind."}},
	{" boyfriend ", []string{"Ha, that's a personal one!", "I'll keep that one private, if you don't mind."}},
	// Last, after "where are you from".
	{" where are you ", []string{"Right here, chatting with you!", "Ha, somewhere with a keyboard!"}},
}
