package offline

import (
	"github.com/duetbot/duet/shared/brain"
)

// history is what the bot has said in a chat, normalised.
type history struct {
	said bag // in order of first appearance, for opened
}

// newHistory collects the bot's messages of turns, normalised. With a
// cache, each message is normalised once, not once per later turn of its
// chat.
func newHistory(turns []brain.Turn, cache *botCache) *history {
	if cache != nil {
		h := &history{}
		for _, t := range turns {
			if t.Role == brain.Bot {
				if h.said.list == nil {
					h.said.list = make([]string, 0, len(turns)/2+1)
				}
				h.said.add(cache.get(t.Text).norm)
			}
		}
		return h
	}
	// The bot's messages are normalised into one buffer, so that the
	// history costs one allocation rather than one per message: the
	// entries are slices of it.
	size, n := 0, 0
	for _, t := range turns {
		if t.Role == brain.Bot {
			size += len(t.Text)
			n++
		}
	}
	h := &history{}
	if n == 0 {
		return h
	}
	b := make([]byte, 0, size) // the normal form is rarely longer
	ends := make([]int, 0, n)
	for _, t := range turns {
		if t.Role == brain.Bot {
			b = appendNormalized(b, t.Text)
			ends = append(ends, len(b))
		}
	}
	all, start := string(b), 0
	h.said.list = make([]string, 0, n)
	for _, end := range ends {
		h.said.add(all[start:end])
		start = end
	}
	return h
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
	if h == nil {
		return false
	}
	var buf [normScratch]byte
	return h.said.hasBytes(appendNormalized(buf[:0], s))
}

// opens reports whether the bot began a message with the words of part,
// a message part as the bot would send it (normalised on the stack).
func (h *history) opens(part string) bool {
	var buf [normScratch]byte
	prefix := appendNormalized(buf[:0], part)
	for _, s := range h.said.list {
		if len(s) >= len(prefix) && s[:len(prefix)] == string(prefix) &&
			(len(s) == len(prefix) || s[len(prefix)] == ' ') {
			return true
		}
	}
	return false
}
