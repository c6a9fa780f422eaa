package offline

import (
	"slices"
	"strings"

	"github.com/duetbot/duet/shared/brain"
)

// history is what the bot has said in a chat, normalised.
type history struct {
	said []string
}

// newHistory collects the bot's messages of turns, normalised, each read
// once for all later turns of its chat.
func newHistory(turns []brain.Turn, rc *readCache) history {
	h := history{said: make([]string, 0, len(turns))}
	for _, t := range turns {
		if t.Role == brain.Bot {
			h.add(rc.bot(t.Text).norm)
		}
	}
	return h
}

// add records that the bot said norm, a normalised message.
func (h *history) add(norm string) { h.said = append(h.said, norm) }

// empty reports whether the bot has said nothing; true for a nil history.
func (h *history) empty() bool { return h == nil || len(h.said) == 0 }

// says reports whether the bot said s, a message as it would send it;
// never for a nil history.
func (h *history) says(s string) bool { return h != nil && slices.Contains(h.said, normalize(s)) }

// opens reports whether the bot began a message with the words of prefix,
// a part of a message as it would send it; never for a nil history.
func (h *history) opens(prefix string) bool {
	if h == nil {
		return false
	}
	p := normalize(prefix)
	for _, s := range h.said {
		if strings.HasPrefix(s, p) && (len(s) == len(p) || s[len(p)] == ' ') {
			return true
		}
	}
	return false
}
