package convai

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"slices"
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

// Handle processes one server message: it stores the partner's message with
// the bot's answer as the session's next record (one conditional write),
// delivers it in sequence order, and advances the head (a second write). A
// duplicate of an accepted update delivers only what no live sender holds.
//
// Errors with code duet.EINVALID or duet.ENOTFOUND mean the message can never
// be processed (it is dropped); duet.EUNAVAILABLE means a retry may succeed,
// and a retry is safe.
func (e *Engine) Handle(ctx context.Context, u Update) error {
	ctx, cancel := e.budget(ctx)
	defer cancel()
	cmd := Parse(u.Text)
	sum := textSum(u.Text)
	owner := newOwner()
	for range saveAttempts {
		chat, err := e.load(ctx, u.ChatID)
		if err != nil {
			return err
		}
		s := chat.current()
		if dup := s.seen(u.UpdateID, sum); s.exists() && (cmd.Kind == Start && s.seenStart(u.UpdateID, sum) || cmd.Kind != Start && dup) {
			e.log().InfoContext(ctx, "duplicate update", "chat", u.ChatID, "update_id", u.UpdateID)
			return e.deliver(ctx, s, owner)
		}
		rec, err := e.apply(ctx, s, u, cmd)
		if err != nil {
			return err
		}
		rec.Sum, rec.At, rec.Lease = sum, e.now(), e.lease(ctx, owner)
		switch err := e.Store.Append(ctx, u.ChatID, rec); {
		case errors.Is(err, duet.ErrConflict):
			e.log().InfoContext(ctx, "chat changed concurrently, retrying", "chat", u.ChatID)
			continue
		case err != nil:
			return duet.Wrap(duet.EUNAVAILABLE, err, "store message")
		}
		if rec.Session == s.number {
			s.add(*rec)
		} else { // a /start: the chat's newest session is rec's
			chat.Records = append(chat.Records, *rec)
			s = chat.current()
		}
		return e.deliver(ctx, s, owner)
	}
	return duet.Errorf(duet.EUNAVAILABLE, "chat %d kept changing concurrently", u.ChatID)
}

// load returns the chat, empty when nothing is stored.
func (e *Engine) load(ctx context.Context, id int64) (*Chat, error) {
	c, err := e.Store.Load(ctx, id)
	switch {
	case errors.Is(err, duet.ErrNotFound):
		return &Chat{ID: id}, nil
	case err != nil:
		return nil, duet.Wrap(duet.EUNAVAILABLE, err, "load chat")
	}
	return c, nil
}

// apply returns the record message u adds to session s.
func (e *Engine) apply(ctx context.Context, s *session, u Update, cmd Command) (*Record, error) {
	if cmd.Kind == Start {
		rec := &Record{Session: s.number + 1, Seq: 0, Kind: StartRecord, UpdateID: u.UpdateID, Context: truncateBytes(cmd.Arg, maxContextLen)}
		if cmd.Begin {
			next := &session{chatID: u.ChatID, number: rec.Session, sent: -1, records: []Record{*rec}}
			next.start = &next.records[0]
			if err := e.answer(ctx, next, rec, next.request(), false); err != nil {
				return nil, err
			}
		}
		return rec, nil
	}
	if !s.exists() {
		return nil, duet.Errorf(duet.ENOTFOUND, "no chat %d: it needs /start first", u.ChatID)
	}
	if s.status() != Open {
		return nil, duet.Errorf(duet.ENOTFOUND, "chat %d has ended", u.ChatID)
	}
	if n := len(s.unsent()); n >= Window-1 {
		return nil, duet.Errorf(duet.EUNAVAILABLE, "chat %d has %d replies waiting to be delivered", u.ChatID, n)
	}
	rec := &Record{Session: s.number, Seq: s.nextSeq(), Kind: TurnRecord, UpdateID: u.UpdateID, PartnerTurns: s.partnerTurns()}
	switch cmd.Kind {
	case Begin:
		if s.botSpoke() || s.partnerTurns() > 0 {
			return nil, duet.Errorf(duet.EINVALID, "chat %d: /begin after the chat began", u.ChatID)
		}
		return rec, e.answer(ctx, s, rec, s.request(), false)
	case End:
		rec.Kind = EndRecord
		req := s.request()
		req.Judge = cmd.Judge
		if cmd.JudgeErr != nil {
			e.log().WarnContext(ctx, "malformed evaluation request; answering for 1..5 without candidates",
				"chat", u.ChatID, "err", cmd.JudgeErr)
		}
		return rec, e.final(ctx, rec, req)
	}
	if cmd.Arg == "" {
		return nil, duet.Errorf(duet.EINVALID, "chat %d: empty message", u.ChatID)
	}
	rec.Partner = truncate(cmd.Arg, maxTurnLen)
	rec.PartnerTurns++
	req := s.request()
	req.Turns = append(req.Turns, brain.Turn{Role: brain.Partner, Text: rec.Partner})
	req.Closing = rec.PartnerTurns >= orDefault(e.MaxTurns, DefaultMaxTurns) || (!e.StayOnGoodbye && IsGoodbye(cmd.Arg))
	rating, err := e.Evaluator.Rate(ctx, req)
	if err != nil {
		return nil, duet.Wrap(duet.EUNAVAILABLE, err, "rate message")
	}
	rec.Rating = brain.Clamp(rating)
	return rec, e.answer(ctx, s, rec, req, req.Closing)
}

// answer puts the bot's reply to req in rec, and the final evaluation when
// the chat ends with it (closing, or the Replier decided so).
func (e *Engine) answer(ctx context.Context, s *session, rec *Record, req brain.Request, closing bool) error {
	text, end, err := e.reply(ctx, req)
	if err != nil {
		return err
	}
	rec.Bot = text
	if !closing && !end {
		return nil
	}
	req.Turns = append(req.Turns, brain.Turn{Role: brain.Bot, Text: text})
	return e.final(ctx, rec, req)
}

// final puts the whole-chat evaluation in rec, made valid for the
// server's evaluation request req.Judge. It is computed once, before the
// record is stored: a retried delivery resends the stored scores, so the
// request itself need not be kept.
func (e *Engine) final(ctx context.Context, rec *Record, req brain.Request) error {
	scores, err := e.Evaluator.Final(ctx, req)
	if err != nil {
		return duet.Wrap(duet.EUNAVAILABLE, err, "score chat")
	}
	scores = SettleFinal(scores, req.Judge)
	rec.Final = &scores
	return nil
}

// reply asks the Replier for the bot's next message, and whether it ends
// the chat. A reply that reads as a protocol command is never sent as one.
func (e *Engine) reply(ctx context.Context, req brain.Request) (string, bool, error) {
	var text string
	var end bool
	var err error
	if en, ok := e.Replier.(brain.Ender); ok {
		text, end, err = en.ReplyEnd(ctx, req)
	} else {
		text, err = e.Replier.Reply(ctx, req)
	}
	if err != nil {
		return "", false, duet.Wrap(duet.EUNAVAILABLE, err, "compose reply")
	}
	// Only a text with a slash can read as a command: most replies skip
	// the checks' regular expressions.
	if strings.Contains(text, "/") {
		if e.Fallback != nil && IsCommand(text) {
			e.log().WarnContext(ctx, "the reply engine answered with a protocol command; using the fallback")
			if text, err = e.Fallback.Reply(ctx, req); err != nil {
				return "", false, duet.Wrap(duet.EUNAVAILABLE, err, "compose reply")
			}
		}
		text = Defuse(text)
	}
	if strings.TrimSpace(text) == "" {
		return "", false, duet.Errorf(duet.EINTERNAL, "compose reply: the reply engine returned no text")
	}
	return truncate(text, MaxTextLen), end, nil
}

// deliver sends the session's undelivered records in sequence order, as
// owner. A record leased to a live other sender is left to it: deliver
// waits until that sender is done, has given up or its lease expired, and
// then goes on (or takes over), so that it returns nil only when the
// session has nothing undelivered.
func (e *Engine) deliver(ctx context.Context, s *session, owner string) error {
	_, err := e.send(ctx, s, owner, true)
	return err
}

// send is deliver, also counting the records it delivered; unless wait is
// set, it leaves at once when a live other sender holds the next record.
func (e *Engine) send(ctx context.Context, s *session, owner string, wait bool) (int, error) {
	poll := firstPoll
	done := 0
	for {
		unsent := s.unsent()
		if len(unsent) == 0 {
			return done, nil
		}
		r := unsent[0]
		now := e.now()
		if r.Lease.Held(owner, now) {
			if !wait {
				return done, nil // its holder delivers it, and what follows
			}
			if err := sleep(ctx, poll); err != nil {
				return done, e.giveUp(ctx, s, owner, -1, fmt.Errorf("waiting for the earlier reply: %w", err))
			}
			poll = min(poll*2, maxPoll)
			next, err := e.reload(ctx, s)
			if err != nil || next == nil {
				return done, err
			}
			s = next
			continue
		}
		var buf [2]string
		msgs := r.appendMessages(buf[:0])
		part := 0
		if r.Seq == s.sent+1 {
			part = min(s.part, len(msgs))
		}
		if r.Lease.Owner != owner && len(msgs) > part {
			l := e.lease(ctx, owner)
			switch err := e.Store.Claim(ctx, s.chatID, r.Session, r.Seq, l, now); {
			case errors.Is(err, duet.ErrConflict), errors.Is(err, duet.ErrNotFound):
				next, err := e.reload(ctx, s)
				if err != nil || next == nil {
					return done, err
				}
				s = next
				continue
			case err != nil:
				return done, duet.Wrap(duet.EUNAVAILABLE, fmt.Errorf("%w: %w", ErrUndelivered, err), "claim reply of chat %d", s.chatID)
			}
			r.Lease = l
			s.setLease(r.Seq, l)
		}
		for ; part < len(msgs); part++ {
			err := e.Sender.Send(ctx, s.chatID, msgs[part])
			if err == nil {
				continue
			}
			if !Rejected(err) {
				return done, e.giveUp(ctx, s, owner, part, err)
			}
			e.log().WarnContext(ctx, "dropped a message the server refused for good", "chat", s.chatID, "err", err)
		}
		if len(msgs) > 0 {
			done++
		}
		rctx, cancel := recording(ctx)
		next, err := e.commit(rctx, s, &r)
		cancel()
		if err != nil {
			// Delivered but not recorded: the lease keeps every other sender
			// off this record until it expires.
			e.log().ErrorContext(ctx, "record delivery", "chat", s.chatID, "seq", r.Seq, "err", err)
			return done, nil
		}
		if next == nil {
			return done, nil
		}
		s = next
	}
}

// reload loads the chat again; it returns nil when a new session began.
func (e *Engine) reload(ctx context.Context, s *session) (*session, error) {
	chat, err := e.load(ctx, s.chatID)
	if err != nil {
		return nil, err
	}
	next := chat.current()
	if next.number != s.number {
		return nil, nil
	}
	return next, nil
}

// commit advances the head past r, which was delivered, and returns the
// session as it then stands (nil: nothing more of it to deliver here).
func (e *Engine) commit(ctx context.Context, s *session, r *Record) (*session, error) {
	wait := firstPoll
	for {
		h := s.head
		if h.Session != r.Session || h.Version == 0 {
			h = Head{ChatID: s.chatID, Session: r.Session, Status: Open, Sent: -1, Version: s.head.Version}
		}
		if h.Sent >= r.Seq {
			return s, nil // recorded by someone else
		}
		now := e.now()
		h.Sent, h.Part, h.Pending = r.Seq, 0, time.Time{}
		if r.sends() {
			h.SentAt = now
		}
		if r.Partner != "" && r.At.After(h.PartnerAt) {
			h.PartnerAt = r.At
		}
		if h.PartnerAt.IsZero() {
			h.PartnerAt = r.At
		}
		if r.UpdateID != 0 {
			// A copy: h.Recent shares its array with the session's head.
			h.Recent = append(h.Recent[:len(h.Recent):len(h.Recent)], recentKey(r.UpdateID, r.Sum))
			if over := len(h.Recent) - maxRecent; over > 0 {
				h.Recent = h.Recent[over:]
			}
		}
		if r.Ends() {
			h.Status = Ended
		}
		prev := h.Version
		h.Version++
		err := e.Store.Commit(ctx, h, prev)
		if err == nil {
			s.head, s.sent, s.part = h, h.Sent, 0
			return s, nil
		}
		if !errors.Is(err, duet.ErrConflict) {
			// The same write again: a failed one changed nothing, or the
			// retry's conflict says that it did.
			if sleep(ctx, wait) != nil {
				return nil, err
			}
			wait = min(wait*2, time.Second)
			continue
		}
		next, lerr := e.reload(ctx, s)
		if lerr != nil {
			if sleep(ctx, wait) != nil {
				return nil, fmt.Errorf("%w (then: %w)", err, lerr)
			}
			continue
		}
		if next == nil {
			return nil, nil
		}
		s = next
	}
}

// giveUp records that owner stops delivering: the messages of the
// session's next record already sent (part, when owner was sending it; -1
// otherwise) and a Pending mark for the sweeper; it frees owner's leases so
// that a retry may take over at once. It works on fresh reads, briefly
// retrying, since the store may be what failed.
func (e *Engine) giveUp(ctx context.Context, s *session, owner string, part int, cause error) error {
	cctx, cancel := recording(ctx)
	defer cancel()
	first := s.sent + 1
	for _, r := range s.unsent() {
		if r.Lease.Owner == owner {
			if err := e.Store.Claim(cctx, s.chatID, r.Session, r.Seq, Lease{Owner: owner}, e.now()); err != nil {
				e.log().WarnContext(ctx, "release lease", "chat", s.chatID, "seq", r.Seq, "err", err)
			}
		}
	}
	for cur := s; cctx.Err() == nil; {
		if cur.number != s.number || cur.sent+1 != first && part >= 0 || len(cur.unsent()) == 0 {
			break // someone else went on meanwhile
		}
		h := cur.head
		if h.Session != cur.number || h.Version == 0 {
			// The session's first record failed: its head starts here, so
			// that the sweeper finds it.
			h = Head{ChatID: cur.chatID, Session: cur.number, Status: Open, Sent: -1, PartnerAt: cur.idleSince(), Version: cur.head.Version}
		}
		if !h.Pending.IsZero() && part < 0 {
			break
		}
		if part >= 0 {
			h.Part = part
		}
		if h.Pending.IsZero() {
			h.Pending = e.now()
		}
		prev := h.Version
		h.Version++
		err := e.Store.Commit(cctx, h, prev)
		if err == nil {
			break
		}
		e.log().WarnContext(ctx, "record failed delivery", "chat", s.chatID, "err", err)
		if !errors.Is(err, duet.ErrConflict) && sleep(cctx, 20*time.Millisecond) != nil {
			break
		}
		chat, err := e.load(cctx, s.chatID)
		if err != nil {
			continue
		}
		cur = chat.current()
	}
	return duet.Wrap(duet.EUNAVAILABLE, fmt.Errorf("%w: %w", ErrUndelivered, cause), "send to chat %d", s.chatID)
}

// Rejected reports whether err says the server will never accept the
// message (Telegram's 400 "chat not found", 403 "bot was blocked", a ConvAI
// server's 400 after the chat's end): the Sender's error has a method
// Permanent() bool that returns true.
func Rejected(err error) bool {
	var p interface{ Permanent() bool }
	return errors.As(err, &p) && p.Permanent()
}

// ErrUndelivered is in the chain of every error after which the update is
// stored but its answer not yet delivered: retry with Deliver, not Handle,
// when the update has no id to recognise it by.
var ErrUndelivered = errors.New("answer stored but not delivered")

// Deliver sends whatever chat id holds undelivered and no live sender
// holds, in order.
func (e *Engine) Deliver(ctx context.Context, id int64) error {
	ctx, cancel := e.budget(ctx)
	defer cancel()
	chat, err := e.load(ctx, id)
	if err != nil {
		return err
	}
	return e.deliver(ctx, chat.current(), newOwner())
}

// SweepResult counts what one Sweep did.
type SweepResult struct {
	Ended     int // idle chats ended with the final evaluation
	Delivered int // chats whose stuck messages were delivered
	Failed    int // chats left for the next sweep
}

// Sweep delivers replies that senders gave up on more than OutboxGrace ago
// and ends chats idle longer than IdleTimeout, each exactly once. A chat
// with anything undelivered is never ended as idle, and a chat whose stuck
// reply a sweep delivers is not ended in the same sweep. Its cost grows
// with the number of such chats, not with the number of chats.
func (e *Engine) Sweep(ctx context.Context) (SweepResult, error) {
	now := e.now()
	var res SweepResult
	var mu sync.Mutex
	touched := map[int64]bool{}
	count := func(field *int, id int64) {
		mu.Lock()
		defer mu.Unlock()
		if field != nil {
			*field++
		}
		touched[id] = true
	}

	stuck, err := e.Store.Undelivered(ctx, now.Add(-orDefault(e.OutboxGrace, DefaultOutboxGrace)))
	if err != nil {
		return res, duet.Wrap(duet.EUNAVAILABLE, err, "query undelivered chats")
	}
	e.each(ctx, stuck, func(id int64) {
		delivered, err := e.unstick(ctx, id)
		switch {
		case err != nil:
			e.log().WarnContext(ctx, "sweep: deliver", "chat", id, "err", err)
			count(&res.Failed, id)
		case delivered:
			count(&res.Delivered, id)
		default:
			count(nil, id)
		}
	})

	idle, err := e.Store.Idle(ctx, now.Add(-orDefault(e.IdleTimeout, DefaultIdleTimeout)))
	if err != nil {
		return res, duet.Wrap(duet.EUNAVAILABLE, err, "query idle chats")
	}
	idle = slices.DeleteFunc(idle, func(id int64) bool { return touched[id] })
	e.each(ctx, idle, func(id int64) {
		switch delivered, err := e.endIdle(ctx, id); {
		case errors.Is(err, errNotIdle):
		case err != nil:
			e.log().WarnContext(ctx, "sweep: end idle chat", "chat", id, "err", err)
			count(&res.Failed, id)
		case delivered:
			count(&res.Delivered, id)
		default:
			count(&res.Ended, id)
		}
	})
	return res, nil
}

// unstick delivers what chat id holds undelivered, or clears a stale
// Pending mark. It reports whether it sent anything.
func (e *Engine) unstick(ctx context.Context, id int64) (bool, error) {
	ctx, cancel := e.budget(ctx)
	defer cancel()
	chat, err := e.load(ctx, id)
	if err != nil {
		return false, err
	}
	s := chat.current()
	if len(s.unsent()) > 0 {
		n, err := e.send(ctx, s, newOwner(), false)
		return n > 0, err
	}
	if h := s.head; h.Version > 0 && !h.Pending.IsZero() {
		h.Pending = time.Time{}
		prev := h.Version
		h.Version++
		if err := e.Store.Commit(ctx, h, prev); err != nil && !errors.Is(err, duet.ErrConflict) {
			return false, err
		}
	}
	return false, nil
}

var errNotIdle = errors.New("chat is not idle")

// endIdle ends chat id with its final evaluation if it is still idle and
// has nothing undelivered; a stuck reply is delivered instead (reported
// by the bool), and the chat is then not idle.
func (e *Engine) endIdle(ctx context.Context, id int64) (bool, error) {
	ctx, cancel := e.budget(ctx)
	defer cancel()
	chat, err := e.load(ctx, id)
	if err != nil {
		return false, err
	}
	s := chat.current()
	if !s.exists() || s.status() != Open {
		return false, errNotIdle
	}
	if len(s.unsent()) > 0 {
		n, err := e.send(ctx, s, newOwner(), false)
		if err == nil && n == 0 {
			err = errNotIdle // its sender is still at it
		}
		return n > 0, err
	}
	if !s.idleSince().Before(e.now().Add(-orDefault(e.IdleTimeout, DefaultIdleTimeout))) {
		return false, errNotIdle
	}
	owner := newOwner()
	rec := &Record{Session: s.number, Seq: s.nextSeq(), Kind: EndRecord, PartnerTurns: s.partnerTurns(), At: e.now()}
	if err := e.final(ctx, rec, s.request()); err != nil {
		return false, err
	}
	rec.Lease = e.lease(ctx, owner)
	if err := e.Store.Append(ctx, id, rec); err != nil {
		if errors.Is(err, duet.ErrConflict) {
			return false, errNotIdle // a message arrived while we swept
		}
		return false, fmt.Errorf("store final: %w", err)
	}
	chat.Records = append(chat.Records, *rec)
	return false, e.deliver(ctx, chat.current(), owner)
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
