package convai

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/duetbot/duet/shared/duet"
	"github.com/duetbot/duet/shared/metrics"
)

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
		msgs := r.Messages()
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
				metrics.Add(e.Metrics, metrics.RepliesGivenUp, 1, metrics.Reason(metrics.GivenUpStore))
				return done, duet.Wrap(duet.EUNAVAILABLE, fmt.Errorf("%w: %w", ErrUndelivered, err), "claim reply of chat %d", s.chatID)
			}
			r.Lease = l
			s.setLease(r.Seq, l)
		}
		for ; part < len(msgs); part++ {
			err := e.Sender.Send(ctx, s.chatID, msgs[part])
			if err == nil {
				metrics.Add(e.Metrics, metrics.RepliesSent, 1)
				continue
			}
			if !Rejected(err) {
				return done, e.giveUp(ctx, s, owner, part, err)
			}
			e.log().WarnContext(ctx, "dropped a message the server refused for good", "chat", s.chatID, "err", err)
			metrics.Add(e.Metrics, metrics.RepliesGivenUp, 1, metrics.Reason(metrics.GivenUpRefused))
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
			recent := append(slices.Clone(h.Recent), recentKey(r.UpdateID, r.Sum))
			h.Recent = recent[max(len(recent)-maxRecent, 0):]
		}
		h.Said = withSaid(h.Said, r.Bot)
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
	// Both callers stop on the Bot API: a send failed, or the sender of an
	// earlier reply has not finished in time.
	metrics.Add(e.Metrics, metrics.RepliesGivenUp, 1, metrics.Reason(metrics.GivenUpBotAPI))
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
