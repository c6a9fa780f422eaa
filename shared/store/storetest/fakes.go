package storetest

import (
	"context"
	"fmt"
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

// Brain is a deterministic brain.Replier and brain.Evaluator: it replies
// with the number of turns so far and rates everything 5.
type Brain struct{}

var (
	_ brain.Replier   = Brain{}
	_ brain.Evaluator = Brain{}
)

// Reply returns a text naming how many turns the chat has.
func (Brain) Reply(_ context.Context, req brain.Request) (string, error) {
	return fmt.Sprintf("reply after %d turns", len(req.Turns)), nil
}

// Rate returns 5.
func (Brain) Rate(context.Context, brain.Request) (int, error) { return 5, nil }

// Final returns 5 for every score.
func (Brain) Final(context.Context, brain.Request) (brain.Scores, error) {
	return brain.Scores{Quality: 5, Breadth: 5, Engagement: 5}, nil
}

// Message is one message a Sender delivered.
type Message struct {
	ChatID int64
	Text   string
}

// Sender is a convai.Sender that records what it delivers; while its error
// is set it delivers nothing and returns that error. Safe for concurrent use.
type Sender struct {
	mu   sync.Mutex
	sent []Message
	err  error
}

var _ convai.Sender = (*Sender)(nil)

// Send records the message, or returns the error set with Fail.
func (s *Sender) Send(_ context.Context, chatID int64, text string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return s.err
	}
	s.sent = append(s.sent, Message{ChatID: chatID, Text: text})
	return nil
}

// Fail makes every later Send return err; nil makes them succeed again.
func (s *Sender) Fail(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.err = err
}

// Messages returns what was delivered so far, in order.
func (s *Sender) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.sent...)
}
