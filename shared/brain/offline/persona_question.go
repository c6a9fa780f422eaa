package offline

import (
	"strings"
)

// greets reports a message that only says hello.
func greets(t *text) bool {
	if len(t.words) == 0 || len(t.words) > 3 {
		return false
	}
	for _, w := range t.words {
		if !greetingWords.has(w.low) {
			return false
		}
	}
	return true
}

var greetingWords = newSet("hi hello hey hiya yo there man dude everyone all good morning evening afternoon")

// asksHowAreYou reports a greeting question ("how are you?", "how's it
// going?").
func asksHowAreYou(t *text) bool {
	n := " " + t.norm
	return strings.Contains(n, " how are you") || strings.Contains(n, " how r u") ||
		strings.Contains(n, " how are u") || strings.Contains(n, " how is it going") ||
		strings.Contains(n, " how's it going") || strings.Contains(n, " how you doing") ||
		strings.Contains(n, " what's up") || strings.Contains(n, " how're you") ||
		strings.Contains(n, " how are ya") ||
		(t.question && (strings.Contains(n, "how about you") || strings.HasSuffix(n, "and you")) &&
			(strings.Contains(n, "good") || strings.Contains(n, "fine") || strings.Contains(n, "well") || strings.Contains(n, "great")))
}

// answer returns the fact that best answers question q, or -1: the fact
// that shares most categories and content words with it.
func (pr *profile) answer(q *text) int {
	// Only the name of a category asks about all of it: "do you have
	// pets?" is answered by the horses, "do you like fish?" is not.
	cats := category(0)
	for _, w := range q.words {
		if categoryNames.has(w.low) {
			cats |= categoryOf(w.low)
		}
	}
	for _, qc := range questionCategories {
		if strings.Contains(q.norm, qc.phrase) {
			cats |= qc.cat
		}
	}
	// The verb after "you": "do you have…" is best answered by "i have…".
	verb := ""
	for i := 0; i+1 < len(q.words); i++ {
		if q.words[i].low == "you" {
			verb = verbClass(q.words[i+1].low)
			break
		}
	}
	best, bestScore := -1, 0
	for i, f := range pr.facts {
		score := 0
		for c := f.cats & cats; c != 0; c &= c - 1 {
			score += 2
		}
		if score > 0 && verb != "" && f.verb == verb {
			score++
		}
		for st := range q.topics {
			if f.stems.has(st) {
				score++
			}
		}
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	return best
}

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
	// "do you like alcohol?": the thing liked is the question's last word.
	if n := len(q.words); n >= 4 {
		if w := q.words[n-1]; w.content && !w.generic && !verbish(w.low) && !w.proper {
			return []string{"I don't mind " + w.low + ", I guess.", firstLetterUpper(w.low) + "? Not something I think about much."}
		}
	}
	return nil
}

// evasions answer common questions about the bot that a profile rarely
// covers, without committing it to anything.
var evasions = []struct {
	asks  string // in the normalised question, spaces around
	leads []string
}{
	{" how old ", []string{"Old enough to know better!", "Older than I look, ha!"}},
	{" you a bot ", []string{"Ha, why do you ask?", "What makes you ask that?"}},
	{" you a robot ", []string{"Ha, why do you ask?", "What makes you ask that?"}},
	{" you human ", []string{"Ha, why do you ask?", "What makes you ask that?"}},
	{" male or female ", []string{"Does it matter? Let's keep it a mystery.", "I'd rather keep that a mystery."}},
	{" or a guy ", []string{"Does it matter? Let's keep it a mystery.", "I'd rather keep that a mystery."}},
	{" or a girl ", []string{"Does it matter? Let's keep it a mystery.", "I'd rather keep that a mystery."}},
	{" who are you ", []string{"Just someone who likes a good chat.", "Someone who enjoys meeting new people."}},
	{" your job ", []string{"Nothing too exciting, honestly.", "Oh, nothing worth talking about."}},
	{" do for a living ", []string{"Nothing too exciting, honestly.", "Oh, nothing worth talking about."}},
	{" your hobby ", []string{"Oh, a bit of this and that.", "Nothing special, a bit of everything."}},
	{" your hobbies ", []string{"Oh, a bit of this and that.", "Nothing special, a bit of everything."}},
	{" how was your day ", []string{"Pretty relaxed, thanks!", "Not bad at all, thanks!"}},
	{" how is your day ", []string{"Pretty relaxed, thanks!", "Not bad at all, thanks!"}},
	{" how's your day ", []string{"Pretty relaxed, thanks!", "Not bad at all, thanks!"}},
	{" where do you live ", []string{"Nowhere too exciting, honestly.", "Oh, a quiet little place."}},
	{" where are you from ", []string{"Nowhere too exciting, honestly.", "Oh, a quiet little place."}},
	{" what are you up to ", []string{"Not much, just chatting with you!", "Just relaxing and chatting."}},
	{" what are you doing ", []string{"Not much, just chatting with you!", "Just relaxing and chatting."}},
	{" what's up ", []string{"Not much, just chatting with you!", "Just relaxing and chatting."}},
	{" are you married ", []string{"Ha, that's a personal one!", "Let's just say it's complicated."}},
	{" girlfriend ", []string{"Ha, that's a personal one!", "Let's just say it's complicated."}},
	{" boyfriend ", []string{"Ha, that's a personal one!", "Let's just say it's complicated."}},
	// Last, after "where are you from".
	{" where are you ", []string{"At home, taking it easy.", "Just at home, relaxing."}},
}
