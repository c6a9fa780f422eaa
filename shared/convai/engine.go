package convai

import (
	"context"
	"crypto/rand"
	"log/slog"
	"time"

	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/metrics"
)

// Update is one server message for one chat, whatever transport brought it.
type Update struct {
	// UpdateID is the transport's id; 0 means unknown (the 2017 server sends
	// 0 for every update), and de-duplication is then skipped.
	UpdateID int64
	ChatID   int64
	Text     string
}

// Store keeps chats as a small head and one record per accepted message.
// Implementations: package store/memstore (in-process) and store/dynamo
// (DynamoDB); both pass the suite in store/storetest.
type Store interface {
	// Load returns, with one consistent read, the chat's head and its newest
	// records: the newest session's start record and its newest Window others.
	// It returns an error wrapping duet.ErrNotFound when the chat has
	// nothing stored (or only expired items).
	Load(ctx context.Context, id int64) (*Chat, error)
	// Append stores r if the chat has no record (r.Session, r.Seq) yet,
	// else returns an error wrapping duet.ErrConflict.
	Append(ctx context.Context, id int64, r *Record) error
	// Claim sets the lease of record (session, seq) to l if its stored
	// lease is free at now, expired, or already l.Owner's; else it returns
	// an error wrapping duet.ErrConflict (duet.ErrNotFound: no such record).
	Claim(ctx context.Context, id, session, seq int64, l Lease, now time.Time) error
	// Commit writes h if the stored head's version is still prev (0: none),
	// else returns an error wrapping duet.ErrConflict. h.Version must be
	// prev+1.
	Commit(ctx context.Context, h Head, prev int64) error
	// Idle returns the ids of chats whose head is open with nothing known
	// pending and idle (Head.IdleSince) since before t: Head.IdleBefore.
	Idle(ctx context.Context, before time.Time) ([]int64, error)
	// Undelivered returns the ids of chats whose head has been Pending
	// since before t: Head.PendingBefore.
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
	// DefaultOutboxGrace is how long a reply a sender gave up on waits
	// before the sweeper delivers it.
	DefaultOutboxGrace = 45 * time.Second
	// DefaultDeliveryTimeout bounds one Handle, reply and delivery included,
	// whether or not its caller is still waiting: inside API Gateway's 30 s.
	DefaultDeliveryTimeout = 20 * time.Second
	// leaseSlack is how long a lease outlives its holder's deadline, so
	// that no one takes over a record whose send may still be in flight.
	leaseSlack = 3 * time.Second
	// cleanupTime is kept after the deadline to record a failed delivery.
	cleanupTime  = time.Second
	firstPoll    = 10 * time.Millisecond
	maxPoll      = 250 * time.Millisecond
	sweepWorkers = 8
	saveAttempts = 8
)

// Engine runs ConvAI chats: one Handle per server message, one Sweep per
// tick of the idle-chat schedule. Its fields are set once; it is safe for
// concurrent use, also by several processes sharing one Store.
//
// Delivery: every accepted message becomes one Record in its session's
// delivery sequence, leased to the handler that wrote it. A sender sends a
// record only while it holds the record's lease and every earlier record of
// the session is delivered; then it advances the head's watermark. A
// duplicate update, a retry or the sweeper delivers only records whose
// lease is free or expired, so a reply goes out once, in order.
type Engine struct {
	Store     Store
	Sender    Sender
	Replier   brain.Replier
	Evaluator brain.Evaluator
	// Fallback writes the reply when Replier's would be a protocol command
	// (a model answering "/end"); nil: the command is defused as text.
	Fallback brain.Replier
	// MaxTurns is how many partner messages the bot answers before it
	// ends the chat itself.
	MaxTurns int
	// StayOnGoodbye keeps the chat open when the partner says goodbye;
	// by default the bot takes leave and ends the chat. `duet rate` sets
	// it to replay dialogues that go on after a goodbye.
	StayOnGoodbye bool
	// IdleTimeout is the silence after which Sweep ends a chat.
	IdleTimeout time.Duration
	// OutboxGrace is how long Sweep leaves a reply a sender gave up on.
	OutboxGrace time.Duration
	// DeliveryTimeout bounds each Handle, independently of its caller.
	DeliveryTimeout time.Duration
	Now             func() time.Time
	Log             *slog.Logger
	// Metrics counts what the engine does (messages, duplicates, replies
	// sent and given up, their latency, chats ended); nil: nothing.
	Metrics metrics.Recorder
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

// budget returns the context Handle works in: not cancelled when its caller
// hangs up, and ending at DeliveryTimeout or cleanupTime before the
// caller's own deadline (a Lambda's), whichever is first.
func (e *Engine) budget(ctx context.Context) (context.Context, context.CancelFunc) {
	deadline := time.Now().Add(orDefault(e.DeliveryTimeout, DefaultDeliveryTimeout))
	if d, ok := ctx.Deadline(); ok && d.Add(-cleanupTime).Before(deadline) {
		deadline = d.Add(-cleanupTime)
	}
	return context.WithDeadline(context.WithoutCancel(ctx), deadline)
}

// lease returns a lease for owner that outlives ctx's deadline by leaseSlack.
func (e *Engine) lease(ctx context.Context, owner string) Lease {
	left := orDefault(e.DeliveryTimeout, DefaultDeliveryTimeout)
	if d, ok := ctx.Deadline(); ok {
		left = time.Until(d)
	}
	return Lease{Owner: owner, Until: e.now().Add(left + leaseSlack)}
}

// recording returns the context in which a sender records what it did: it
// outlives ctx's deadline by cleanupTime — still inside the sender's lease,
// so that no one takes over a record whose delivery is being recorded.
// (Recording in ctx itself while it has cleanupTime left would save a
// context per message, but it gives a slow commit less time, and a
// delivery not recorded is sent again once its lease expires.)
func recording(ctx context.Context) (context.Context, context.CancelFunc) {
	deadline, ok := ctx.Deadline()
	if now := time.Now(); !ok || deadline.Before(now) {
		deadline = now
	}
	return context.WithDeadline(context.WithoutCancel(ctx), deadline.Add(cleanupTime))
}

func newOwner() string { return rand.Text()[:16] }

// sleep waits d or until ctx is done, whichever is first.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
