package offline

import (
	"strings"

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
	var b strings.Builder
	b.Grow(size)
	ends := make([]int, 0, n)
	for _, t := range turns {
		if t.Role == brain.Bot {
			appendNormalized(&b, t.Text)
			ends = append(ends, b.Len())
		}
	}
	all, start := b.String(), 0
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

// opened reports whether the bot began a message with the words of prefix.
func (h *history) opened(prefix string) bool {
	for _, s := range h.said.list {
		if len(s) >= len(prefix) && s[:len(prefix)] == prefix &&
			(len(s) == len(prefix) || s[len(prefix)] == ' ') {
			return true
		}
	}
	return false
}
