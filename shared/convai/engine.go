package convai

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/duet"
)

// Update is one server message for one chat, whatever transport brought it.
type Update struct {
	// UpdateID is the transport's id; 0 means unknown (the 2017 server sends
	// 0 for every update), and de-duplication is then skipped.
	UpdateID int64
	ChatID   int64
	Text     string
}

// Store keeps chats. Implementations: package store/memstore (in-process)
// and store/dynamo (DynamoDB); both pass the suite in store/storetest.
type Store interface {
	// Get returns the chat with a consistent read, or an error wrapping
	// duet.ErrNotFound when there is none or it has expired.
	Get(ctx context.Context, id int64) (*Chat, error)
	// Save writes c if the stored version is still prev (prev 0: no chat,
	// or an expired one), else returns an error wrapping duet.ErrConflict.
	// c.Version must be prev+1.
	Save(ctx context.Context, c *Chat, prev int64) error
	// Idle returns the ids of open chats whose last activity is before t.
	Idle(ctx context.Context, before time.Time) ([]int64, error)
	// Undelivered returns the ids of chats holding messages stored before t
	// and not yet delivered.
	Undelivered(ctx context.Context, before time.Time) ([]int64, error)
}

// Sender delivers one message (the inner JSON as the message text) to a chat.
type Sender interface {
	Send(ctx context.Context, chatID int64, text string) error
}

// Defaults for the Engine's zero fields.
const (
	DefaultMaxTurns    = 20
	DefaultIdleTimeout = 5 * time.Minute
	// DefaultOutboxGrace is how long a stored reply may wait before the
	// sweeper delivers it: longer than any request may take, so that the
	// sweeper does not race a handler that is still sending.
	DefaultOutboxGrace = 45 * time.Second
	sweepWorkers       = 8
	saveAttempts       = 3
)

// Engine runs ConvAI chats: one Handle per server message, one Sweep per
// tick of the idle-chat schedule. Its fields are set once; it is safe for
// concurrent use.
type Engine struct {
	Store     Store
	Sender    Sender
	Replier   brain.Replier
	Evaluator brain.Evaluator
	// MaxTurns is how many partner messages the bot answers before it
	// ends the chat itself.
	MaxTurns int
	// IdleTimeout is the partner silence after which Sweep ends a chat.
	IdleTimeout time.Duration
	// OutboxGrace is how long Sweep leaves a stored reply to its handler.
	OutboxGrace time.Duration
	Now         func() time.Time
	Log         *slog.Logger
}

func (e *Engine) now() time.Time {
	if e.Now != nil {
		return e.Now().UTC()
	}
	return time.Now().UTC()
}

func (e *Engine) log() *slog.Logger {
	if e.Log != nil {
		return e.Log
	}
	return slog.Default()
}

func orDefault[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

// Handle processes one server message: it stores the partner's turn with the
// bot's answer in one conditional write, delivers the answer, and records the
// delivery in a second write. A duplicate of an answered update sends
// nothing; a duplicate of one whose answer was not delivered delivers it.
//
// Errors with code duet.EINVALID or duet.ENOTFOUND mean the message can never
// be processed (it is dropped); duet.EUNAVAILABLE means a retry may succeed,
// and a retry is safe.
func (e *Engine) Handle(ctx context.Context, u Update) error {
	cmd := Parse(u.Text)
	for range saveAttempts {
		chat, err := e.Store.Get(ctx, u.ChatID)
		if err != nil && !errors.Is(err, duet.ErrNotFound) {
			return duet.Wrap(duet.EUNAVAILABLE, err, "load chat")
		}
		if chat != nil && chat.seen(u.UpdateID) {
			e.log().InfoContext(ctx, "duplicate update", "chat", u.ChatID, "update_id", u.UpdateID)
			return e.flush(ctx, chat)
		}
		next, err := e.apply(ctx, chat, u, cmd)
		if err != nil {
			return err
		}
		prev := int64(0)
		if chat != nil {
			prev = chat.Version
		}
		next.Version = prev + 1
		switch err := e.Store.Save(ctx, next, prev); {
		case errors.Is(err, duet.ErrConflict):
			e.log().InfoContext(ctx, "chat changed concurrently, retrying", "chat", u.ChatID)
			continue
		case err != nil:
			return duet.Wrap(duet.EUNAVAILABLE, err, "save chat")
		}
		skip := 0
		if cmd.Kind != Start { // a new chat starts with a new outbox
			skip = e.waiting(chat)
		}
		return e.deliver(ctx, next, next.Outbox[skip:])
	}
	return duet.Errorf(duet.EUNAVAILABLE, "chat %d kept changing concurrently", u.ChatID)
}

// waiting returns how many messages at the head of chat's outbox belong to
// a handler still delivering them (they are younger than OutboxGrace): this
// handler leaves those alone and sends only its own. Older ones were left
// by a failed attempt, and it delivers them first, in order.
func (e *Engine) waiting(chat *Chat) int {
	if chat == nil || len(chat.Outbox) == 0 {
		return 0
	}
	if e.now().Sub(chat.OutboxSince) >= orDefault(e.OutboxGrace, DefaultOutboxGrace) {
		return 0
	}
	return len(chat.Outbox)
}

// apply returns the chat after message u, with the bot's messages queued.
func (e *Engine) apply(ctx context.Context, chat *Chat, u Update, cmd Command) (*Chat, error) {
	now := e.now()
	if cmd.Kind == Start {
		next := &Chat{ID: u.ChatID, Status: Open, Context: truncateBytes(cmd.Arg, maxContextLen), StartedAt: now}
		if chat != nil { // a new chat on the same id still knows the old updates
			next.LastUpdateID, next.RecentUpdates = chat.LastUpdateID, chat.RecentUpdates
		}
		e.touch(next, u, now)
		if cmd.Begin {
			if err := e.speakFirst(ctx, next, now); err != nil {
				return nil, err
			}
		}
		return next, nil
	}
	if chat == nil {
		return nil, duet.Errorf(duet.ENOTFOUND, "no chat %d: it needs /start first", u.ChatID)
	}
	if chat.Status != Open {
		return nil, duet.Errorf(duet.ENOTFOUND, "chat %d has ended", u.ChatID)
	}
	next := chat.Clone()
	e.touch(next, u, now)
	switch cmd.Kind {
	case Begin:
		if next.botSpoke() || next.PartnerTurns > 0 {
			return nil, duet.Errorf(duet.EINVALID, "chat %d: /begin after the chat began", u.ChatID)
		}
		return next, e.speakFirst(ctx, next, now)
	case End:
		return next, e.end(ctx, next, now)
	}
	if cmd.Arg == "" {
		return nil, duet.Errorf(duet.EINVALID, "chat %d: empty message", u.ChatID)
	}
	next.addTurn(brain.Partner, cmd.Arg)
	next.PartnerTurns++
	closing := next.PartnerTurns >= orDefault(e.MaxTurns, DefaultMaxTurns) || IsGoodbye(cmd.Arg)
	req := next.request()
	req.Closing = closing
	rating, err := e.Evaluator.Rate(ctx, req)
	if err != nil {
		return nil, duet.Wrap(duet.EUNAVAILABLE, err, "rate message")
	}
	rating = brain.Clamp(rating)
	text, err := e.reply(ctx, req)
	if err != nil {
		return nil, err
	}
	next.Ratings = append(next.Ratings, rating)
	next.addTurn(brain.Bot, text)
	next.queue(EncodeReply(text, rating), now)
	if closing {
		return next, e.end(ctx, next, now)
	}
	return next, nil
}

func (e *Engine) touch(c *Chat, u Update, now time.Time) {
	c.LastActivity = now
	c.remember(u.UpdateID)
}

func (e *Engine) speakFirst(ctx context.Context, c *Chat, now time.Time) error {
	text, err := e.reply(ctx, c.request())
	if err != nil {
		return err
	}
	c.addTurn(brain.Bot, text)
	c.queue(EncodeReply(text, 0), now)
	return nil
}

func (e *Engine) reply(ctx context.Context, req brain.Request) (string, error) {
	text, err := e.Replier.Reply(ctx, req)
	if err != nil {
		return "", duet.Wrap(duet.EUNAVAILABLE, err, "compose reply")
	}
	if strings.TrimSpace(text) == "" {
		return "", duet.Errorf(duet.EINTERNAL, "compose reply: the reply engine returned no text")
	}
	return truncate(text, MaxTextLen), nil
}

// end closes c and queues the final evaluation.
func (e *Engine) end(ctx context.Context, c *Chat, now time.Time) error {
	scores, err := e.Evaluator.Final(ctx, c.request())
	if err != nil {
		return duet.Wrap(duet.EUNAVAILABLE, err, "score chat")
	}
	c.Status = Ended
	c.addTurn(brain.Bot, "/end")
	c.queue(EncodeFinal(scores), now)
	return nil
}

// flush delivers c's whole outbox in order and records the delivery: the
// caller takes over whatever is waiting there.
func (e *Engine) flush(ctx context.Context, c *Chat) error {
	return e.deliver(ctx, c, c.Outbox)
}

// deliver sends msgs, the tail of c's outbox, in order and removes from the
// stored outbox those that went out. When the chat changed meanwhile, the
// removal is retried on a fresh read, so that nothing delivered stays queued
// to be delivered twice. A message the server refuses for good (see
// Rejected) is dropped rather than retried for the life of the session.
func (e *Engine) deliver(ctx context.Context, c *Chat, msgs []string) error {
	done := 0
	var sendErr error
	for _, msg := range msgs {
		if sendErr = e.Sender.Send(ctx, c.ID, msg); sendErr != nil {
			if !Rejected(sendErr) {
				break
			}
			e.log().WarnContext(ctx, "dropped a message the server refused for good", "chat", c.ID, "err", sendErr)
			sendErr = nil
		}
		done++
	}
	if done > 0 {
		if err := e.markDelivered(ctx, c, msgs[:done]); err != nil {
			// Delivered but not recorded. Answering with an error would
			// make the server retry, and the retry deliver again; the
			// sweeper may still resend it once, but nothing is lost.
			e.log().WarnContext(ctx, "record delivery", "chat", c.ID, "err", err)
		}
	}
	if sendErr != nil {
		return duet.Wrap(duet.EUNAVAILABLE, fmt.Errorf("%w: %w", ErrUndelivered, sendErr), "send to chat %d", c.ID)
	}
	return nil
}

// Rejected reports whether err says the server will never accept the
// message (Telegram's 400 "chat not found", 403 "bot was blocked", a ConvAI
// server's 400 after the chat's end): the Sender's error has a method
// Permanent() bool that returns true.
func Rejected(err error) bool {
	var p interface{ Permanent() bool }
	return errors.As(err, &p) && p.Permanent()
}

// markDelivered removes delivered from c's stored outbox.
func (e *Engine) markDelivered(ctx context.Context, c *Chat, delivered []string) error {
	cur := c
	for range saveAttempts {
		next := cur.Clone()
		next.Outbox = without(next.Outbox, delivered)
		if len(next.Outbox) == len(cur.Outbox) {
			return nil // someone else recorded it already
		}
		if len(next.Outbox) == 0 {
			next.Outbox, next.OutboxSince = nil, time.Time{}
		}
		next.Version = cur.Version + 1
		err := e.Store.Save(ctx, next, cur.Version)
		if !errors.Is(err, duet.ErrConflict) {
			return err
		}
		if cur, err = e.Store.Get(ctx, c.ID); err != nil {
			return err
		}
	}
	return duet.Errorf(duet.EUNAVAILABLE, "chat %d kept changing concurrently", c.ID)
}

// without returns outbox less the first occurrence of each of msgs.
func without(outbox, msgs []string) []string {
	out := append([]string(nil), outbox...)
	for _, m := range msgs {
		for i, o := range out {
			if o == m {
				out = append(out[:i], out[i+1:]...)
				break
			}
		}
	}
	return out
}

// ErrUndelivered is in the chain of every error after which the update is
// stored but its answer not yet delivered: retry with Deliver, not Handle,
// when the update has no id to recognise it by.
var ErrUndelivered = errors.New("answer stored but not delivered")

// Deliver sends whatever chat id holds undelivered, in order.
func (e *Engine) Deliver(ctx context.Context, id int64) error {
	c, err := e.Store.Get(ctx, id)
	if errors.Is(err, duet.ErrNotFound) {
		return nil
	}
	if err != nil {
		return duet.Wrap(duet.EUNAVAILABLE, err, "load chat")
	}
	return e.flush(ctx, c)
}

// SweepResult counts what one Sweep did.
type SweepResult struct {
	Ended     int // idle chats ended with the final evaluation
	Delivered int // chats whose stored messages were delivered
	Failed    int // chats left for the next sweep
}

// Sweep delivers messages stuck longer than OutboxGrace and ends chats
// idle longer than IdleTimeout, each exactly once: a chat that changes while
// the sweep runs is left alone (its conditional write fails). Its cost grows
// with the number of such chats, not with the number of chats.
func (e *Engine) Sweep(ctx context.Context) (SweepResult, error) {
	now := e.now()
	idleCutoff := now.Add(-orDefault(e.IdleTimeout, DefaultIdleTimeout))
	var res SweepResult
	var mu sync.Mutex
	count := func(field *int) { mu.Lock(); *field++; mu.Unlock() }

	stuck, err := e.Store.Undelivered(ctx, now.Add(-orDefault(e.OutboxGrace, DefaultOutboxGrace)))
	if err != nil {
		return res, duet.Wrap(duet.EUNAVAILABLE, err, "query undelivered chats")
	}
	e.each(ctx, stuck, func(id int64) {
		c, err := e.Store.Get(ctx, id)
		if err != nil {
			if !errors.Is(err, duet.ErrNotFound) {
				e.log().WarnContext(ctx, "sweep: load chat", "chat", id, "err", err)
				count(&res.Failed)
			}
			return
		}
		if len(c.Outbox) == 0 {
			return
		}
		if err := e.flush(ctx, c); err != nil {
			e.log().WarnContext(ctx, "sweep: deliver", "chat", id, "err", err)
			count(&res.Failed)
			return
		}
		count(&res.Delivered)
	})

	idle, err := e.Store.Idle(ctx, idleCutoff)
	if err != nil {
		return res, duet.Wrap(duet.EUNAVAILABLE, err, "query idle chats")
	}
	e.each(ctx, idle, func(id int64) {
		switch err := e.endIdle(ctx, id, idleCutoff); {
		case err == nil:
			count(&res.Ended)
		case errors.Is(err, errNotIdle):
		default:
			e.log().WarnContext(ctx, "sweep: end idle chat", "chat", id, "err", err)
			count(&res.Failed)
		}
	})
	return res, nil
}

var errNotIdle = errors.New("chat is not idle")

func (e *Engine) endIdle(ctx context.Context, id int64, cutoff time.Time) error {
	c, err := e.Store.Get(ctx, id)
	if errors.Is(err, duet.ErrNotFound) {
		return errNotIdle
	}
	if err != nil {
		return fmt.Errorf("load: %w", err)
	}
	if c.Status != Open || !c.LastActivity.Before(cutoff) || len(c.Outbox) > 0 {
		return errNotIdle
	}
	next := c.Clone()
	if err := e.end(ctx, next, e.now()); err != nil {
		return err
	}
	next.Version = c.Version + 1
	if err := e.Store.Save(ctx, next, c.Version); err != nil {
		if errors.Is(err, duet.ErrConflict) {
			return errNotIdle // a message arrived while we swept
		}
		return fmt.Errorf("save: %w", err)
	}
	return e.flush(ctx, next)
}

// each runs fn for every id with bounded concurrency.
func (e *Engine) each(ctx context.Context, ids []int64, fn func(int64)) {
	sem := make(chan struct{}, sweepWorkers)
	var wg sync.WaitGroup
	for _, id := range ids {
		if ctx.Err() != nil {
			break
		}
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			fn(id)
		}()
	}
	wg.Wait()
}
