package offline

import "testing"

// TestNoFactLeads checks the non-committal reply to a question of liking
// the profile does not answer: it names the whole thing asked about, in
// the bot's own person, and never a fragment of it.
func TestNoFactLeads(t *testing.T) {
	for _, c := range []struct{ q, want string }{
		{"do you like hot sauce?", "I don't mind hot sauce, I guess."},
		{"do you like travelling by plane?", "I don't mind travelling by plane, I guess."},
		{"do you like to read?", "I don't mind reading, I guess."},
		{"do you enjoy going to the beach?", "I don't mind going to the beach, I guess."},
		{"do you like your neighbourhood?", "I don't mind my neighbourhood, I guess."},
		{"do you like hanging out with them at concerts?", "I don't mind concerts, I guess."},
		{"do you like music?", "I don't mind music, I guess."},
	} {
		q := analyze(c.q)
		leads := noFactLeads(q, asksYesNo(q))
		if len(leads) == 0 || leads[0] != c.want {
			t.Errorf("%q: got %q, want %q first", c.q, leads, c.want)
		}
	}
}
