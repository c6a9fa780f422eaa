package chat

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/transcript"
)

// botMessage is a bot message's inner JSON as the servers read it: a
// reply's text and rating, or the final's scores.
type botMessage struct {
	Text       string          `json:"text"`
	Evaluation json.RawMessage `json:"evaluation"`
}

// show prints the bot's messages of a turn and adds them to the
// transcript.
func (s *Session) show(msgs []string) {
	for _, raw := range msgs {
		if s.opts.JSON {
			fmt.Fprintln(s.opts.Out, compact(raw))
		}
		var m botMessage
		if err := json.Unmarshal([]byte(raw), &m); err != nil {
			if !s.opts.JSON {
				fmt.Fprintf(s.opts.Out, "bot (not the protocol's JSON): %s\n", raw)
			}
			continue
		}
		if m.Text == "/end" {
			var sc brain.Scores
			if json.Unmarshal(m.Evaluation, &sc) == nil {
				if s.cur != nil {
					s.cur.Final = &sc
					s.turn(transcript.Turn{Command: cmdEnd, Final: &sc})
				}
				if !s.opts.JSON {
					fmt.Fprintf(s.opts.Out, "bot ended the chat: %s\n", s.finalText(sc))
				}
			}
			continue
		}
		var rating int
		rated := json.Unmarshal(m.Evaluation, &rating) == nil && len(m.Evaluation) > 0
		if !s.opts.JSON {
			line := "bot: " + m.Text
			if rated && s.pending {
				line += fmt.Sprintf("   [your line: %d/10]", rating)
			}
			fmt.Fprintln(s.opts.Out, line)
		}
		if s.cur != nil {
			if !s.pending {
				s.turn(transcript.Turn{}) // a message the partner did not ask for
			}
			t := &s.cur.Turns[len(s.cur.Turns)-1]
			t.Bot = m.Text
			if rated && t.Partner != "" {
				t.Rating = rating
			}
		}
		s.pending = false
	}
}

// finalText says a final's scores.
func (s *Session) finalText(sc brain.Scores) string {
	out := fmt.Sprintf("quality %d, breadth %d, engagement %d (of 10)", sc.Quality, sc.Breadth, sc.Engagement)
	if sc.Score != 0 {
		lo, hi := 1, 5
		if s.live != nil && s.live.Judge() != nil {
			lo, hi = s.live.Judge().Min, s.live.Judge().Max
		}
		out += fmt.Sprintf("; the dialogue %d of %d..%d", sc.Score, lo, hi)
	}
	if sc.Profile != nil {
		out += fmt.Sprintf("; you played profile_%d", *sc.Profile)
		if s.live != nil && s.live.Judge() != nil && *sc.Profile >= 0 && *sc.Profile < len(s.live.Judge().Profiles) {
			out += fmt.Sprintf(" (%s)", strings.Join(s.live.Judge().Profiles[*sc.Profile], " "))
		}
	}
	return out
}

// compact is raw on one line: compacted when it is JSON, as it is.
func compact(raw string) string {
	var b bytes.Buffer
	if json.Compact(&b, []byte(raw)) == nil {
		return b.String()
	}
	return strings.ReplaceAll(raw, "\n", `\n`)
}
