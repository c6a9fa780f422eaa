package convai

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/duetbot/duet/shared/duet"
	"github.com/duetbot/duet/shared/metrics"
)

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
	metrics.Add(e.Metrics, metrics.ChatsEnded, 1, metrics.EndedBy(metrics.EndedBySweeper))
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
