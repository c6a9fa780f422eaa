package convaisim

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/duetbot/duet/shared/convai"
)

// checkFinal records a valid final and checks it against the evaluation
// request it answers. Callers hold s.mu.
func (s *Server) checkFinal(c *chat, text string) {
	asked := c.expect == expectFinal
	c.expect = expectNothing
	var f convai.Final
	if err := json.Unmarshal([]byte(text), &f); err != nil {
		return // Validate accepted it: cannot happen
	}
	c.scores, c.asked = &f.Evaluation, asked && c.judge != nil
	if s.cfg.Dialect != Dialect2018 {
		return
	}
	j := convai.DefaultJudge // a final the bot sent unasked answers no candidates
	if c.asked {
		j = *c.judge
	}
	if err := convai.CheckJudged(text, j); err != nil {
		c.violate("final for the router: %v", err)
	}
}

// checkReply records a valid reply's rating and applies the router's rules
// to it: the rating must be in msg_evaluation, and a message repeating a
// trigram of the bot's profile is refused (the chat ends after badInARow
// of them in a row). It returns why the message is refused, or "".
// Callers hold s.mu.
func (s *Server) checkReply(c *chat, text string) string {
	// Keys match exactly, as the router (Python) reads them; encoding/json
	// would match struct fields case-insensitively.
	var r map[string]json.RawMessage
	var replyText string
	if json.Unmarshal([]byte(text), &r) != nil || json.Unmarshal(r["text"], &replyText) != nil {
		return "" // Validate accepted it: cannot happen
	}
	ev, hasEval := r["evaluation"]
	var rating int
	if hasEval && json.Unmarshal(ev, &rating) == nil {
		c.ratings = append(c.ratings, rating)
	}
	if s.cfg.Dialect != Dialect2018 {
		return ""
	}
	if _, hasMsg := r["msg_evaluation"]; hasEval && !hasMsg {
		c.violate(`a rated reply without "msg_evaluation": the router reads only that key`)
	}
	bad := profileTrigrams(c.trigrams, replyText)
	if len(bad) == 0 {
		c.bad = 0
		return ""
	}
	c.bad++
	slices.Sort(bad)
	c.violate("a reply repeats %d word trigram(s) of the bot's profile (%q…), %d in a row: the router refuses it",
		len(bad), bad[0], c.bad)
	if c.bad >= badInARow {
		c.cutOff = true
		c.violate("%d replies in a row repeat the bot's profile: the router ends the chat", c.bad)
	}
	return "Error: <class 'convai.exceptions.ProfileTrigramDetectedInMessageError'>: "
}

// abbreviate quotes s, cut to 120 characters, for a violation's text.
func abbreviate(s string) string {
	const n = 120
	if r := []rune(s); len(r) > n {
		return fmt.Sprintf("%q…", string(r[:n]))
	}
	return fmt.Sprintf("%q", s)
}
