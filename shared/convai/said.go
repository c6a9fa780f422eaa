package convai

import (
	"context"
	"hash/fnv"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/duetbot/duet/shared/brain"
)

// The bot never sends the same reply twice in a session, however long:
// the head keeps a hash of every reply delivered (Head.Said, 12 bits
// each, bounded by MaxSaid), the records of the Window hold the newest
// replies and those stored but not yet delivered, and a reply found among
// them is asked for again. This holds for every brain, whatever it
// remembers of the chat: a brain sees only the Window's turns.

// retries is how often a repeated reply is asked for again before the
// fallback, then a stock reply, stands in.
const retries = 2

// replyHash identifies a reply for the rule: the FNV-1a hash of its text
// in lower case with spacing collapsed (normalReply, so that "Hi  there"
// repeats "hi there"), folded to 12 bits (HashBits): a byte and a half a
// reply keep a 20-turn chat's consistent read within one 4 KB unit
// (TestCostPerMessage). A collision, one reply in 200 at 20 turns, only
// costs asking once more. It hashes the words as it finds them rather
// than building the normal form first, which was a third of the webhook
// path's CPU per message (BenchmarkWebhookLoad, docs/performance.md).
func replyHash(text string) uint16 {
	h := fnv.New32a()
	var buf [64]byte // most words fit: no allocation
	sep := ""
	for word := range strings.FieldsSeq(text) {
		b := append(buf[:0], sep...)
		for _, c := range word {
			b = utf8.AppendRune(b, unicode.ToLower(c))
		}
		h.Write(b)
		sep = " "
	}
	sum := h.Sum32()
	return uint16(sum^sum>>12^sum>>24) & (1<<HashBits - 1)
}

// HashBits is the width of the reply hashes in Head.Said.
const HashBits = 12

// said reports whether the bot already gave reply text in session s:
// delivered (its head's Said) or stored (its records, compared whole). A
// hash in Said that a record of another text explains is a collision seen
// through, not a repeat: within the Window no reply is changed for a
// collision (TestFaults caught one run in three when it was); past it
// about one in 200 is asked for again. The newest delivered record is
// compared whole whatever Said holds, since heads written before Said
// held every delivered reply lack its hash.
func (s *session) said(text string) bool {
	h := replyHash(text)
	inSaid := s.head.Session == s.number && slices.Contains(s.head.Said, h)
	explained := false
	for i := range s.records {
		r := &s.records[i]
		if r.Bot == "" || !inSaid && r.Seq < s.sent {
			continue // no reply, or delivered and so in Said were it text
		}
		if replyHash(r.Bot) == h {
			if sameReply(r.Bot, text) {
				return true
			}
			explained = true
		}
	}
	return inSaid && !explained
}

// sameReply reports whether a and b are the same reply to the rule: equal
// in lower case with spacing collapsed. It runs only when their hashes
// match.
func sameReply(a, b string) bool {
	return normalReply(a) == normalReply(b)
}

// normalReply is text as the rule compares replies: in lower case, with
// spacing collapsed.
func normalReply(text string) string {
	return strings.Join(strings.Fields(strings.ToLower(text)), " ")
}

// withSaid returns said with the hash of reply, the reply of the record
// being delivered, added newest last, at most MaxSaid; said itself is
// never modified.
func withSaid(said []uint16, reply string) []uint16 {
	if reply == "" {
		return said
	}
	h := replyHash(reply)
	if slices.Contains(said, h) {
		return said
	}
	out := append(slices.Clone(said), h)
	return out[max(len(out)-MaxSaid, 0):]
}

// unrepeated returns a reply to req that session s has not given, text
// being one it has. The brain is asked again with each repeat shown as an
// earlier message of the bot's (what the brains already avoid saying
// again), then the fallback is, and last a stock reply stands in.
func (e *Engine) unrepeated(ctx context.Context, s *session, req brain.Request, text string, end bool) (string, bool, error) {
	e.log().InfoContext(ctx, "the reply engine repeated an earlier reply; asking again", "chat", s.chatID)
	repliers := []brain.Replier{}
	for range retries {
		repliers = append(repliers, e.Replier)
	}
	if e.Fallback != nil {
		repliers = append(repliers, e.Fallback)
	}
	for _, r := range repliers {
		req.Turns = append([]brain.Turn{{Role: brain.Bot, Text: text}}, req.Turns...)
		next, nextEnd, err := e.reply(ctx, r, req)
		if err != nil {
			continue // the next one, or the stock
		}
		if !s.said(next) {
			return next, nextEnd, nil
		}
		text = next
	}
	for _, stock := range stockReplies {
		if !s.said(stock) {
			return stock, end, nil
		}
	}
	// A session longer than the stock with all of it used: two stock
	// replies make 600 more, more than a session holds (MaxSaid + Window).
	for _, a := range stockReplies {
		for _, b := range stockReplies {
			if stock := a + " " + b; a != b && !s.said(stock) {
				return stock, end, nil
			}
		}
	}
	return stockReplies[0], end, nil
}

// stockReplies stand in when neither brain finds a reply the session has
// not had: short, open, and fit to follow most messages.
var stockReplies = []string{
	"Tell me more about that.",
	"What makes you say so?",
	"How did that come about?",
	"Interesting. What happened next?",
	"And how do you feel about it?",
	"What else do you enjoy doing?",
	"I had not thought of it that way.",
	"Go on, I'm listening.",
	"Why do you think that is?",
	"What would you do differently?",
	"That is new to me. Say more?",
	"Do you often think about that?",
	"What got you interested in it?",
	"Who else knows about this?",
	"Has it always been like that?",
	"What do your friends think?",
	"Where did you first hear of it?",
	"When did that start?",
	"Would you recommend it?",
	"What is the best part of it?",
	"And the hardest part?",
	"Is there a story behind that?",
	"How would you explain it to a child?",
	"What surprised you most?",
	"What are you looking forward to?",
}
