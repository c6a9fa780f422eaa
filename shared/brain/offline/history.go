package offline

import (
	"strings"

	"github.com/duetbot/duet/shared/brain"
)

// history is what the bot has said in a chat, normalised.
type history struct {
	said set
}

// newHistory collects the bot's messages of turns, normalised, each read
// once for all later turns of its chat.
func newHistory(turns []brain.Turn, rc *readCache) history {
	said := set{}
	for _, t := range turns {
		if t.Role == brain.Bot {
			said.add(rc.bot(t.Text).norm)
		}
	}
	return history{said: said}
}

// empty reports whether the bot has said nothing; true for a nil history.
func (h *history) empty() bool { return h == nil || len(h.said) == 0 }

// says reports whether the bot said s, a message as it would send it;
// never for a nil history.
func (h *history) says(s string) bool { return h != nil && h.said.has(normalize(s)) }

// opens reports whether the bot began a message with the words of prefix,
// a part of a message as it would send it; never for a nil history.
func (h *history) opens(prefix string) bool {
	if h == nil {
		return false
	}
	p := normalize(prefix)
	for s := range h.said {
		if strings.HasPrefix(s, p) && (len(s) == len(p) || s[len(p)] == ' ') {
			return true
		}
	}
	return false
}
