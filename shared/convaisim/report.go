package convaisim

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/duetbot/duet/shared/brain"
)

// Line is one message of a transcript.
type Line struct {
	From string // "Server" or "Bot"
	Text string
}

// ChatReport is what happened in one chat.
type ChatReport struct {
	ID         int64
	Script     string
	Transcript []Line
	Violations []string
	// Ended is true when the bot sent a valid final /end evaluation.
	Ended bool
	// Ratings are the bot's valid evaluations of the partner's messages.
	Ratings []int
	// Final is the bot's valid final evaluation, nil without one.
	Final *brain.Scores
	// Judge is the router's evaluation request (Dialect2018), with the
	// partner's true profile at index Truth; Asked says whether the final
	// answered it (rather than ending the chat unasked).
	Judge *brain.Judge
	Truth int
	Asked bool
	// Requested is set when the router sent its evaluation request after
	// the bot had ended the chat itself (answered or not: see Asked).
	Requested bool
}

// ProfileGuessed reports whether the chat's final answered the router's
// request (asked) and, if so, whether it named the partner's profile.
func (c ChatReport) ProfileGuessed() (asked, right bool) {
	if !c.Asked || c.Final == nil || c.Judge == nil {
		return false, false
	}
	return true, c.Final.Profile != nil && *c.Final.Profile == c.Truth
}

// Report is the outcome of a simulation.
type Report struct {
	Dialect Dialect
	Mode    Mode
	Chats   []ChatReport
	// Violations are those tied to no chat (unknown chat, wrong URL).
	Violations     []string
	ServerMessages int
	BotMessages    int
	// Unreachable, when set, says why the bot was never reached: it never
	// called the API and never answered a webhook delivery. The chats'
	// violations then say nothing about the protocol.
	Unreachable string
}

// ViolationCount is the number of violations in all chats and outside them.
func (r Report) ViolationCount() int {
	n := len(r.Violations)
	for _, c := range r.Chats {
		n += len(c.Violations)
	}
	return n
}

// OK reports whether the bot was reached and broke no rule.
func (r Report) OK() bool { return r.Unreachable == "" && r.ViolationCount() == 0 }

// WriteTranscripts writes every chat's messages and violations.
func (r Report) WriteTranscripts(w io.Writer) error {
	for _, c := range r.Chats {
		if _, err := fmt.Fprintf(w, "=== chat %d (%s) ===\n", c.ID, c.Script); err != nil {
			return err
		}
		for _, l := range c.Transcript {
			fmt.Fprintf(w, "%s: %s\n", l.From, l.Text)
		}
		if asked, right := c.ProfileGuessed(); asked {
			guess := "none"
			if p := c.Final.Profile; p != nil {
				guess = fmt.Sprint(*p)
			}
			fmt.Fprintf(w, "  profile guess: %s, the partner played %d (%s)\n", guess, c.Truth, map[bool]string{true: "right", false: "wrong"}[right])
		}
		for _, v := range c.Violations {
			fmt.Fprintf(w, "  VIOLATION: %s\n", v)
		}
		fmt.Fprintln(w)
	}
	return nil
}

// WriteSummary writes the digest of the bot's ratings and finals, the
// violations outside chats, and the verdict.
func (r Report) WriteSummary(w io.Writer) error {
	if r.Unreachable != "" {
		_, err := fmt.Fprintf(w, "%s dialect, %s mode: the bot was unreachable (%s): UNREACHABLE\n", r.Dialect, r.Mode, r.Unreachable)
		return err
	}
	if err := r.WriteDigest(w); err != nil {
		return err
	}
	for _, v := range r.Violations {
		fmt.Fprintf(w, "VIOLATION: %s\n", v)
	}
	failed := 0
	for _, c := range r.Chats {
		if len(c.Violations) > 0 {
			failed++
		}
	}
	verdict := "OK"
	if !r.OK() {
		verdict = "FAIL"
	}
	_, err := fmt.Fprintf(w, "%s dialect, %s mode: %d chats (%d with violations), %d server messages, %d bot messages, %d violations: %s\n",
		r.Dialect, r.Mode, len(r.Chats), failed, r.ServerMessages, r.BotMessages, r.ViolationCount(), verdict)
	return err
}

// WriteDigest writes the spread of the bot's own judgments: its ratings of
// partner messages (min, median, max and a histogram over 1..10), its
// finals' scores, and in the router dialect how often it guessed the
// partner's profile.
func (r Report) WriteDigest(w io.Writer) error {
	var ratings []int
	var q, b, e, sc []int
	asked, right, unanswered := 0, 0, 0
	for _, c := range r.Chats {
		if c.Requested && !c.Asked {
			unanswered++
		}
		ratings = append(ratings, c.Ratings...)
		if f := c.Final; f != nil {
			q, b, e = append(q, f.Quality), append(b, f.Breadth), append(e, f.Engagement)
			if f.Score != 0 {
				sc = append(sc, f.Score)
			}
		}
		if a, ok := c.ProfileGuessed(); a {
			asked++
			if ok {
				right++
			}
		}
	}
	var out strings.Builder
	fmt.Fprintf(&out, "ratings of partner messages: %s\n", spread(ratings))
	if len(ratings) > 0 {
		hist := make([]int, 11)
		for _, v := range ratings {
			hist[min(max(v, 1), 10)]++
		}
		top := slices.Max(hist)
		for v := 1; v <= 10; v++ {
			fmt.Fprintf(&out, "  %2d | %-*s %d\n", v, 40, strings.Repeat("#", (hist[v]*40+top-1)/top), hist[v])
		}
	}
	fmt.Fprintf(&out, "finals: %d; quality %s; breadth %s; engagement %s", len(q), spread(q), spread(b), spread(e))
	if len(sc) > 0 {
		fmt.Fprintf(&out, "; score %s", spread(sc))
	}
	out.WriteString("\n")
	if r.Dialect == Dialect2018 {
		if asked == 0 {
			out.WriteString("profile guesses: none (no final answered the router's evaluation request)\n")
		} else {
			fmt.Fprintf(&out, "profile guesses: %d of %d right (%.0f%%)\n", right, asked, 100*float64(right)/float64(asked))
		}
		if unanswered > 0 {
			fmt.Fprintf(&out, "evaluation requests unanswered: %d (sent after the bot had ended the chat itself; its score counted, no profile guess)\n", unanswered)
		}
	}
	_, err := io.WriteString(w, out.String())
	return err
}

// spread is "min/median/max over n" of vs, or "none".
func spread(vs []int) string {
	if len(vs) == 0 {
		return "none"
	}
	s := slices.Sorted(slices.Values(vs))
	med := float64(s[len(s)/2])
	if len(s)%2 == 0 {
		med = float64(s[len(s)/2-1]+s[len(s)/2]) / 2
	}
	return fmt.Sprintf("min %d, median %g, max %d (n=%d)", s[0], med, s[len(s)-1], len(s))
}

// report snapshots the simulator's state.
func (s *Server) report() Report {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := Report{
		Dialect:        s.cfg.Dialect,
		Mode:           s.cfg.Mode,
		Violations:     append([]string(nil), s.global...),
		ServerMessages: s.serverMsgs,
		BotMessages:    s.botMsgs,
	}
	if !s.contacted {
		r.Unreachable = "it never called getUpdates or sendMessage on the simulator"
		if s.postErr != nil {
			r.Unreachable = fmt.Sprintf("webhook delivery failed: %v", s.postErr)
		}
	}
	for _, id := range s.order {
		c := s.chats[id]
		cr := ChatReport{
			ID:         id,
			Script:     c.script.Name,
			Transcript: append([]Line(nil), c.lines...),
			Violations: append([]string(nil), c.violations...),
			Ended:      c.final,
			Ratings:    append([]int(nil), c.ratings...),
			Judge:      c.judge,
			Truth:      c.truth,
			Asked:      c.asked,
			Requested:  c.requested,
		}
		if c.scores != nil {
			f := *c.scores
			cr.Final = &f
		}
		r.Chats = append(r.Chats, cr)
	}
	return r
}
