// Package poller runs the ConvAI bot over getUpdates instead of a webhook:
// it long-polls the server and hands each chat's updates to the engine in
// order, many chats at once.
package poller

import (
	"context"
	"errors"
	"hash/maphash"
	"log/slog"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/duet"
	"github.com/duetbot/duet/shared/retry"
	"github.com/duetbot/duet/shared/telegram"
)

// Source is what the poller needs of a Bot API client.
type Source interface {
	GetUpdates(ctx context.Context, offset int64, timeout time.Duration) ([]telegram.Update, error)
}

// Engine is what the poller needs of the chat engine.
type Engine interface {
	Handle(ctx context.Context, u convai.Update) error
	Deliver(ctx context.Context, chatID int64) error
}

var _ Engine = (*convai.Engine)(nil)

// Poller long-polls Source and feeds Engine.
type Poller struct {
	Source Source
	Engine Engine
	// Timeout is the long-poll timeout sent to getUpdates (at least 1 s:
	// the 2018 router answers [] at once to 0).
	Timeout time.Duration
	// Workers is how many chats are processed at once.
	Workers int
	// Retries is how often a failed update is retried before it is dropped.
	Retries int
	// Backoff is the first wait after a failure; it doubles up to 30 s,
	// jittered (retry.Backoff).
	Backoff time.Duration
	// MinInterval is the least time between two getUpdates calls that
	// brought nothing. Servers that ignore the long-poll timeout (the 2017
	// ConvAI server answers [] at once) would otherwise be called in a
	// tight loop.
	MinInterval time.Duration
	// StopGrace is how long Run, once its context is done, keeps handling
	// the updates it received (default 3 s): the ConvAI servers' reads are
	// destructive, so they cannot be fetched again. No failed update is
	// retried then. Past StopGrace Run returns even if one is still
	// running: the engine stored its answer under a lease, so the sweeper
	// or the next run delivers it. Updates not yet started are dropped
	// (Telegram redelivers them: their offset was never acknowledged).
	StopGrace time.Duration
	Log       *slog.Logger
}

func (p *Poller) defaults() {
	if p.Timeout < time.Second {
		p.Timeout = 25 * time.Second
	}
	if p.Workers <= 0 {
		p.Workers = 16
	}
	if p.Retries <= 0 {
		p.Retries = 5
	}
	if p.Backoff <= 0 {
		p.Backoff = 500 * time.Millisecond
	}
	if p.MinInterval <= 0 {
		p.MinInterval = 300 * time.Millisecond
	}
	if p.StopGrace <= 0 {
		p.StopGrace = 3 * time.Second
	}
	if p.Log == nil {
		p.Log = slog.Default()
	}
}

// Run polls until ctx is done, then stops promptly: a long poll or a retry
// wait is cut short, and the updates in hand get StopGrace to finish.
// It returns ctx's error.
func (p *Poller) Run(ctx context.Context) error {
	p.defaults()
	// Handlers run in work, which outlives ctx by StopGrace, so that a reply
	// being sent when the signal comes can still be sent and recorded.
	work, stopWork := context.WithCancel(context.WithoutCancel(ctx))
	defer stopWork()
	queues := make([]chan convai.Update, p.Workers)
	var wg sync.WaitGroup
	var dropped atomic.Int64
	for i := range queues {
		queues[i] = make(chan convai.Update, 64)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for u := range queues[i] {
				if work.Err() != nil {
					dropped.Add(1)
					continue
				}
				p.process(ctx, work, u)
			}
		}()
	}
	seed := maphash.MakeSeed()
	var offset int64
	lastSeen := false // the update with the largest id there is was handled
	backoff := p.backoff()
	failures := 0
poll:
	for ctx.Err() == nil {
		started := time.Now()
		updates, err := p.Source.GetUpdates(ctx, offset, p.Timeout)
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			failures++
			wait := backoff.Delay(failures)
			p.Log.WarnContext(ctx, "getUpdates failed", "err", err, "retry_in", wait)
			_ = retry.Sleep(ctx, wait)
			continue
		}
		failures = 0
		if len(updates) == 0 {
			_ = retry.Sleep(ctx, p.MinInterval-time.Since(started))
			continue
		}
		fresh := 0
		for _, u := range updates {
			switch {
			case u.UpdateID == math.MaxInt64 && lastSeen:
				continue
			case u.UpdateID == math.MaxInt64:
				// No offset acknowledges it (id+1 would overflow): handle
				// it once, then skip it each time the server repeats it.
				p.Log.ErrorContext(ctx, "update_id is the largest int64: no offset can acknowledge it, so the server will repeat it; handled once, its repeats skipped",
					"update_id", u.UpdateID)
				lastSeen = true
				offset = math.MaxInt64
			case u.UpdateID != 0:
				offset = max(offset, u.UpdateID+1)
			}
			fresh++
			// The webhook's rule (telegram.ParseUpdate): Telegram never
			// uses chat id 0, so a zero id means the chat was missing.
			if u.Message == nil || u.Message.Chat.ID == 0 {
				continue
			}
			cu := convai.Update{UpdateID: u.UpdateID, ChatID: u.Message.Chat.ID, Text: u.Message.Text}
			select {
			case queues[maphash.Comparable(seed, cu.ChatID)%uint64(len(queues))] <- cu:
			case <-ctx.Done():
				break poll
			}
		}
		if fresh == 0 {
			_ = retry.Sleep(ctx, p.MinInterval-time.Since(started))
		}
	}
	for _, q := range queues {
		close(q)
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	grace := time.NewTimer(p.StopGrace)
	defer grace.Stop()
	select {
	case <-done:
	case <-grace.C:
		p.Log.WarnContext(ctx, "stopping with updates still being handled; their stored answers go out on the next run or sweep", "grace", p.StopGrace)
	}
	stopWork()
	if n := dropped.Load(); n > 0 {
		p.Log.InfoContext(ctx, "stopping: dropped updates not yet handled", "count", n)
	}
	return ctx.Err()
}

// backoff spaces the retries of a failing getUpdates or update.
func (p *Poller) backoff() retry.Backoff {
	return retry.Backoff{Base: p.Backoff, Max: max(30*time.Second, p.Backoff)}
}

// process handles one update in work, retrying what a retry can fix: the
// whole update when nothing was stored, only the delivery when the answer
// was. Once stop is done it retries no more.
func (p *Poller) process(stop, work context.Context, u convai.Update) {
	backoff := p.backoff()
	deliverOnly := false
	for attempt := 0; ; attempt++ {
		var err error
		if deliverOnly {
			err = p.Engine.Deliver(work, u.ChatID)
		} else {
			err = p.Engine.Handle(work, u)
		}
		switch duet.Code(err) {
		case "":
			return
		case duet.EINVALID, duet.ENOTFOUND:
			p.Log.InfoContext(work, "dropped update", "chat", u.ChatID, "reason", err)
			return
		}
		if attempt >= p.Retries || stop.Err() != nil {
			p.Log.ErrorContext(work, "giving up on update; the sweeper retries stored answers", "chat", u.ChatID, "err", err)
			return
		}
		deliverOnly = deliverOnly || errors.Is(err, convai.ErrUndelivered)
		wait := backoff.Delay(attempt + 1)
		p.Log.WarnContext(work, "update failed, retrying", "chat", u.ChatID, "err", err, "retry_in", wait)
		if retry.Sleep(stop, wait) != nil {
			p.Log.ErrorContext(work, "stopping: not retrying update; the sweeper retries stored answers", "chat", u.ChatID, "err", err)
			return
		}
	}
}
