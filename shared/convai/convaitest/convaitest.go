// Package convaitest holds the fakes that tests drive a convai.Engine
// with, written once: a settable Clock, the Echo brain and an Outbox that
// records what the engine sends.
package convaitest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/convai"
)

// Clock is a settable clock for stores and engines under test, safe for
// concurrent use.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock returns a clock standing at t.
func NewClock(t time.Time) *Clock { return &Clock{t: t} }

// Now returns the clock's time; pass it where a func() time.Time is wanted.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// Echo is a deterministic brain.Replier and brain.Evaluator whose replies
// say which message they answer: "re <turns>: <partner's message>",
// "about <context>" to the context alone, "farewell" when closing. It
// rates a message by its number of words and scores a chat 5, 6 and its
// number of turns.
type Echo struct{}

var (
	_ brain.Replier   = Echo{}
	_ brain.Evaluator = Echo{}
)

// Parrot is Echo with one reply for every message, whatever it is asked:
// the worst brain for the engine's never-repeat rule.
type Parrot struct{ Echo }

// Reply always says the same thing.
func (Parrot) Reply(context.Context, brain.Request) (string, error) {
	return "That is interesting, tell me more.", nil
}

// Reply echoes the partner's last message.
func (Echo) Reply(_ context.Context, r brain.Request) (string, error) {
	if r.Closing {
		return "farewell", nil
	}
	if last, ok := r.LastPartner(); ok {
		return fmt.Sprintf("re %d: %s", len(r.Turns), last), nil
	}
	return "about " + r.Context, nil
}

// Rate returns the number of words of the partner's last message.
func (Echo) Rate(_ context.Context, r brain.Request) (int, error) {
	last, _ := r.LastPartner()
	return len(strings.Fields(last)), nil
}

// Final returns quality 5, breadth 6 and the number of turns as engagement.
func (Echo) Final(_ context.Context, r brain.Request) (brain.Scores, error) {
	return brain.Scores{Quality: 5, Breadth: 6, Engagement: len(r.Turns)}, nil
}

// Message is one message an Outbox delivered.
type Message struct {
	ChatID int64
	Text   string
}

// Outbox is a convai.Sender that records what it delivers; while its error
// is set it delivers nothing and returns that error. Safe for concurrent
// use.
type Outbox struct {
	mu   sync.Mutex
	sent []Message
	err  error
}

var _ convai.Sender = (*Outbox)(nil)

// Send records the message, or returns the error set with Fail.
func (o *Outbox) Send(_ context.Context, chatID int64, text string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.err != nil {
		return o.err
	}
	o.sent = append(o.sent, Message{ChatID: chatID, Text: text})
	return nil
}

// Fail makes every later Send return err; nil makes them succeed again.
func (o *Outbox) Fail(err error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.err = err
}

// Messages returns what was delivered so far, in order.
func (o *Outbox) Messages() []Message {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]Message(nil), o.sent...)
}

// Of returns the texts delivered to chat id so far, in order.
func (o *Outbox) Of(id int64) []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	var texts []string
	for _, m := range o.sent {
		if m.ChatID == id {
			texts = append(texts, m.Text)
		}
	}
	return texts
}

// Texts returns the texts delivered so far, to any chat, in order.
func (o *Outbox) Texts() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	texts := make([]string, len(o.sent))
	for i, m := range o.sent {
		texts[i] = m.Text
	}
	return texts
}
