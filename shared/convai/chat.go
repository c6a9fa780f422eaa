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

// Limits that keep a stored chat far below DynamoDB's 400 KB item size.
const (
	maxStoredTurns = 48   // the oldest turns are dropped past this
	maxContextLen  = 8192 // characters of context kept
	maxTurnLen     = MaxTextLen
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
	// LastUpdateID is the last processed non-zero update_id, for de-duplication.
	LastUpdateID int64 `dynamodbav:"last_update_id"`
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
	return &n
}

// request is what the brain sees of the chat.
func (c *Chat) request() brain.Request {
	return brain.Request{Context: c.Context, Turns: c.Turns}
}

func (c *Chat) addTurn(role brain.Role, text string) {
	c.Turns = append(c.Turns, brain.Turn{Role: role, Text: truncate(text, maxTurnLen)})
	if over := len(c.Turns) - maxStoredTurns; over > 0 {
		c.Turns = append(c.Turns[:0:0], c.Turns[over:]...)
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
