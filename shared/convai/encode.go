package convai

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/duetbot/duet/shared/brain"
)

// MaxTextLen is the most characters Telegram (and so the ConvAI servers)
// accept in one message's text.
const MaxTextLen = 4096

// Reply is the JSON a bot sends for every message but the last.
type Reply struct {
	Text string `json:"text"`
	// Evaluation rates the partner's last message, 1..10. It is omitted
	// only on the reply to the context (after /begin).
	Evaluation *int `json:"evaluation,omitempty"`
	// MsgEvaluation repeats Evaluation for the 2018 router, which reads
	// only this key (the 2017 server ignores it).
	MsgEvaluation *int `json:"msg_evaluation,omitempty"`
}

// Final is the JSON of the last message of every chat.
type Final struct {
	Text       string       `json:"text"` // always "/end"
	Evaluation brain.Scores `json:"evaluation"`
}

// EncodeReply returns the JSON message of a reply; rating 0 means no
// evaluation. The text is cut so that the whole message, JSON included,
// stays within MaxTextLen characters.
func EncodeReply(text string, rating int) string {
	r := Reply{Text: strings.TrimSpace(text)}
	if rating != 0 {
		rating = brain.Clamp(rating)
		r.Evaluation, r.MsgEvaluation = &rating, &rating
	}
	for {
		msg := mustJSON(r)
		over := utf8.RuneCountInString(msg) - MaxTextLen
		if over <= 0 {
			return msg
		}
		// One character takes up to 6 once escaped (\u00XX): cutting over/6
		// never cuts more than needed, and the loop converges quickly.
		r.Text = truncate(r.Text, utf8.RuneCountInString(r.Text)-max(over/6, 1))
	}
}

// EncodeFinal returns the inner JSON of the last message of a chat: the
// 2017 server's three scores, and the router's score and profile guess as
// SettleFinal left them (a score of 0 is derived from quality in 1..5, so
// that the key is always there; a negative guess is left out).
func EncodeFinal(s brain.Scores) string {
	e := brain.Scores{
		Quality:    brain.Clamp(s.Quality),
		Breadth:    brain.Clamp(s.Breadth),
		Engagement: brain.Clamp(s.Engagement),
		Score:      s.Score,
	}
	if e.Score == 0 {
		e.Score = scaleScore(e.Quality, DefaultJudge.Min, DefaultJudge.Max)
	}
	if s.Profile != nil && *s.Profile >= 0 {
		i := *s.Profile
		e.Profile = &i
	}
	return mustJSON(Final{Text: "/end", Evaluation: e})
}

// SettleFinal returns the evaluator's scores made valid for the request j
// (nil: no request, 1..5 without candidates): the three 2017 scores in
// 1..10; the score in j's range, derived from quality when the evaluator
// gave none; the profile guess a valid index of j's candidates (0 when the
// evaluator made none), and no guess without candidates.
func SettleFinal(s brain.Scores, j *brain.Judge) brain.Scores {
	if j == nil {
		j = &DefaultJudge
	}
	lo, hi := j.Min, max(j.Max, j.Min)
	out := brain.Scores{
		Quality:    brain.Clamp(s.Quality),
		Breadth:    brain.Clamp(s.Breadth),
		Engagement: brain.Clamp(s.Engagement),
	}
	if s.Score == 0 {
		out.Score = scaleScore(out.Quality, lo, hi)
	} else {
		out.Score = min(max(s.Score, lo), hi)
	}
	if n := len(j.Profiles); n > 0 {
		i := 0
		if s.Profile != nil {
			i = min(max(*s.Profile, 0), n-1)
		}
		out.Profile = &i
	}
	return out
}

// scaleScore maps a 1..10 rating linearly onto lo..hi, rounding to nearest.
func scaleScore(q, lo, hi int) int {
	q = brain.Clamp(q)
	return lo + ((q-1)*(hi-lo)*2+9)/18
}

// mustJSON encodes v, which holds only strings and ints, as JSON without
// HTML escaping: what the servers read.
func mustJSON(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // only strings and ints: cannot fail
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// truncateBytes cuts s to at most n bytes, on a character boundary.
func truncateBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// truncate cuts s to at most n characters.
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n])
}
