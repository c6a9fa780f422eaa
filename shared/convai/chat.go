package convai

import (
	"time"

	"github.com/duetbot/duet/shared/brain"
)

// Status is where a chat is in its life.
type Status string

// The statuses of a chat.
const (
	Open  Status = "open"
	Ended Status = "ended"
)

// Limits that keep a stored chat far below DynamoDB's 400 KB item size,
// counted in bytes since that is what DynamoDB counts: a turn may hold up to
// 4096 characters of up to 4 bytes each.
const (
	maxStoredTurns = 48         // the oldest turns are dropped past this
	maxTurnsBytes  = 256 << 10  // … or past this many bytes of turn text
	maxContextLen  = 8 << 10    // bytes of context kept
	maxTurnLen     = MaxTextLen // characters of one turn kept
	// maxRecentUpdates bounds the update ids kept for de-duplication:
	// Telegram re-delivers only the updates it has not had a 2xx for, a
	// handful at most per chat.
	maxRecentUpdates = 32
)

// Chat is the stored state of one ConvAI chat.
type Chat struct {
	ID      int64  `dynamodbav:"chat_id"`
	Status  Status `dynamodbav:"status"`
	Context string `dynamodbav:"context"`
	// Turns is the dialogue, oldest first, bounded to the last maxStoredTurns.
	Turns []brain.Turn `dynamodbav:"turns"`
	// Ratings holds the bot's evaluation of each partner message.
	Ratings []int `dynamodbav:"ratings"`
	// PartnerTurns counts the partner's messages, including dropped turns.
	PartnerTurns int `dynamodbav:"partner_turns"`
	// LastUpdateID is the highest processed non-zero update_id.
	LastUpdateID int64 `dynamodbav:"last_update_id"`
	// RecentUpdates holds the last maxRecentUpdates non-zero update_ids
	// processed, for de-duplication that survives out-of-order deliveries.
	RecentUpdates []int64 `dynamodbav:"recent_updates"`
	// Outbox holds messages stored but not yet delivered, in order.
	Outbox []string `dynamodbav:"outbox"`
	// OutboxSince is when the oldest message in Outbox was stored.
	OutboxSince time.Time `dynamodbav:"outbox_since"`
	// Version increases by one with every write; writes are conditional on it.
	Version      int64     `dynamodbav:"version"`
	StartedAt    time.Time `dynamodbav:"started_at"`
	LastActivity time.Time `dynamodbav:"last_activity"`
}

// Clone returns a deep copy, so that a failed write never leaves a
// half-changed chat behind.
func (c *Chat) Clone() *Chat {
	n := *c
	n.Turns = append([]brain.Turn(nil), c.Turns...)
	n.Ratings = append([]int(nil), c.Ratings...)
	n.Outbox = append([]string(nil), c.Outbox...)
	n.RecentUpdates = append([]int64(nil), c.RecentUpdates...)
	return &n
}

// request is what the brain sees of the chat.
func (c *Chat) request() brain.Request {
	return brain.Request{Context: c.Context, Turns: c.Turns}
}

func (c *Chat) addTurn(role brain.Role, text string) {
	c.Turns = append(c.Turns, brain.Turn{Role: role, Text: truncate(text, maxTurnLen)})
	drop := max(len(c.Turns)-maxStoredTurns, 0)
	size := 0
	for _, t := range c.Turns[drop:] {
		size += len(t.Text)
	}
	for ; size > maxTurnsBytes && drop < len(c.Turns)-1; drop++ {
		size -= len(c.Turns[drop].Text)
	}
	if drop > 0 {
		c.Turns = append(c.Turns[:0:0], c.Turns[drop:]...)
	}
}

func (c *Chat) queue(msg string, now time.Time) {
	if len(c.Outbox) == 0 {
		c.OutboxSince = now
	}
	c.Outbox = append(c.Outbox, msg)
}

// botSpoke reports whether the bot has said anything yet.
func (c *Chat) botSpoke() bool {
	for _, t := range c.Turns {
		if t.Role == brain.Bot {
			return true
		}
	}
	return false
}

// seen reports whether update id was already processed in this chat.
func (c *Chat) seen(id int64) bool {
	if id == 0 {
		return false
	}
	for _, u := range c.RecentUpdates {
		if u == id {
			return true
		}
	}
	return false
}

func (c *Chat) remember(id int64) {
	if id == 0 {
		return
	}
	c.LastUpdateID = max(c.LastUpdateID, id)
	c.RecentUpdates = append(c.RecentUpdates, id)
	if over := len(c.RecentUpdates) - maxRecentUpdates; over > 0 {
		c.RecentUpdates = append(c.RecentUpdates[:0:0], c.RecentUpdates[over:]...)
	}
}
