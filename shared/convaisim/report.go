package convaisim

import (
	"fmt"
	"io"
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
}

// ViolationCount is the number of violations in all chats and outside them.
func (r Report) ViolationCount() int {
	n := len(r.Violations)
	for _, c := range r.Chats {
		n += len(c.Violations)
	}
	return n
}

// OK reports whether the bot broke no rule.
func (r Report) OK() bool { return r.ViolationCount() == 0 }

// WriteTranscripts writes every chat's messages and violations.
func (r Report) WriteTranscripts(w io.Writer) error {
	for _, c := range r.Chats {
		if _, err := fmt.Fprintf(w, "=== chat %d (%s) ===\n", c.ID, c.Script); err != nil {
			return err
		}
		for _, l := range c.Transcript {
			fmt.Fprintf(w, "%s: %s\n", l.From, l.Text)
		}
		for _, v := range c.Violations {
			fmt.Fprintf(w, "  VIOLATION: %s\n", v)
		}
		fmt.Fprintln(w)
	}
	return nil
}

// WriteSummary writes the counts, the violations outside chats, and the
// verdict.
func (r Report) WriteSummary(w io.Writer) error {
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
	for _, id := range s.order {
		c := s.chats[id]
		r.Chats = append(r.Chats, ChatReport{
			ID:         id,
			Script:     c.script.Name,
			Transcript: append([]Line(nil), c.lines...),
			Violations: append([]string(nil), c.violations...),
			Ended:      c.final,
		})
	}
	return r
}
