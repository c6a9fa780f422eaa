package convai

import (
	"context"
	"hash/fnv"
	"slices"
	"strings"

	"github.com/duetbot/duet/shared/brain"
)

// The bot never sends the same reply twice in a session, however long:
// the head keeps a hash of every reply delivered before the newest
// (Head.Said, 12 bits each, bounded by MaxSaid), the records of the
// Window hold the newest and those stored but not yet delivered, and a
// reply found among them is asked for again. This holds for every brain, whatever it remembers of
// the chat: a brain sees only the Window's turns.

// retries is how often a repeated reply is asked for again before the
// fallback, then a stock reply, stands in.
const retries = 2

// replyHash identifies a reply for the rule: the FNV-1a hash of its text
// in lower case with spacing collapsed (so that "Hi  there" repeats "hi
// there"), folded to 12 bits (HashBits): a byte and a half a reply keep a
// 20-turn chat's consistent read within one 4 KB unit
// (TestCostPerMessage). A collision, one reply in 200 at 20 turns, only
// costs asking once more.
func replyHash(text string) uint16 {
	h := fnv.New32a()
	h.Write([]byte(normalReply(text)))
	sum := h.Sum32()
	return uint16(sum^sum>>12^sum>>24) & (1<<HashBits - 1)
}

// hash returns replyHash(text), remembered for the session: said and
// saidBefore hash the same few stored replies for every message, and again
// for every reply asked for anew. Remembering them takes the webhook path
// (BenchmarkWebhookLoad/brain=offline, -cpu 1) from 54-58 to 46-47 µs of
// CPU per message, 164 to 125 allocations.
func (s *session) hash(text string) uint16 {
	if h, ok := s.hashes[text]; ok {
		return h
	}
	if s.hashes == nil {
		s.hashes = make(map[string]uint16)
	}
	h := replyHash(text)
	s.hashes[text] = h
	return h
}

// HashBits is the width of the reply hashes in Head.Said.
const HashBits = 12

// said reports whether the bot already gave reply text in session s:
// stored (its records, compared whole) or delivered earlier (its head's
// Said). A hash in Said that a record of another text explains is a
// collision seen through, not a repeat: within the Window no reply is
// changed for a collision (TestFaults caught one run in three when it
// was); past it about one in 200 is asked for again.
func (s *session) said(text string) bool {
	h := s.hash(text)
	explained := false
	for i := range s.records {
		if r := &s.records[i]; r.Bot != "" && s.hash(r.Bot) == h {
			if sameReply(r.Bot, text) {
				return true
			}
			explained = true
		}
	}
	return !explained && s.head.Session == s.number && slices.Contains(s.head.Said, h)
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

// saidBefore returns said with the hashes it lacks of the session's
// replies older than seq, the record being delivered, newest last, at most
// MaxSaid; said itself is never modified. Those are the replies a later
// Load may no longer return: the newest record stored is at most Window-1
// past the newest delivered (see apply), so seq's own stays in the Window
// until the next delivery adds it (which keeps a 20-turn chat's head a
// hash smaller than adding it now would).
func (s *session) saidBefore(said []uint16, seq int64) []uint16 {
	out := said
	for i := range s.records {
		r := &s.records[i]
		if r.Seq >= seq || r.Bot == "" {
			continue
		}
		if h := s.hash(r.Bot); !slices.Contains(out, h) {
			if len(out) == len(said) {
				out = slices.Clone(said)
			}
			out = append(out, h)
		}
	}
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
