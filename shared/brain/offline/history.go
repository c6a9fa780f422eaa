package offline

import (
	"github.com/duetbot/duet/shared/brain"
)

// history is what the bot has said in a chat, normalised.
type history struct {
	said bag // in order of first appearance, for opened
}

// newHistory collects the bot's messages of turns, normalised, each read
// once for all later turns of its chat.
func newHistory(turns []brain.Turn, rc *readCache) history {
	var list []string
	for _, t := range turns {
		if t.Role == brain.Bot {
			list = append(list, rc.bot(t.Text).norm)
		}
	}
	return history{said: newBag(list)}
}

// empty reports whether the bot has said nothing; true for a nil history.
func (h *history) empty() bool { return h == nil || h.said.len() == 0 }

// has reports whether the bot said s, a normalised message; never for a nil
// history.
func (h *history) has(s string) bool { return h != nil && h.said.has(s) }

// says reports whether the bot said s, a message as it would send it:
// has(normalize(s)), with s normalised on the stack, since every candidate
// reply is checked this way.
func (h *history) says(s string) bool {
	var buf [normScratch]byte
	return h.saysNormal(appendNormalized(buf[:0], s))
}

// saysNormal is has for a normalised message held in bytes.
func (h *history) saysNormal(norm []byte) bool {
	return h != nil && h.said.hasBytes(norm)
}

// opensNormal reports whether the bot began a message with the words of
// prefix, a message part normalised (appendNormalized).
func (h *history) opensNormal(prefix []byte) bool {
	if h == nil {
		return false
	}
	for _, s := range h.said.list {
		if len(s) >= len(prefix) && s[:len(prefix)] == string(prefix) &&
			(len(s) == len(prefix) || s[len(prefix)] == ' ') {
			return true
		}
	}
	return false
}
