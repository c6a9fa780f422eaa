// Package poller runs the ConvAI bot over getUpdates instead of a webhook:
// it long-polls the server and hands each chat's updates to the engine in
// order, many chats at once.
package poller

import (
	"context"
	"errors"
	"hash/maphash"
	"log/slog"
	"time"

	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/duet"
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
	// Backoff is the first wait after a failure; it doubles up to 30 s.
	Backoff time.Duration
	// MinInterval is the least time between two getUpdates calls that
	// brought nothing. Servers that ignore the long-poll timeout (the 2017
	// ConvAI server answers [] at once) would otherwise be called in a
	// tight loop.
	MinInterval time.Duration
	Log         *slog.Logger
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
	if p.Log == nil {
		p.Log = slog.Default()
	}
}

// Run polls until ctx is done, then waits for the updates in hand and
// returns ctx's error.
func (p *Poller) Run(ctx context.Context) error {
	p.defaults()
	queues := make([]chan convai.Update, p.Workers)
	done := make(chan struct{})
	for i := range queues {
		queues[i] = make(chan convai.Update, 64)
		go func() {
			defer func() { done <- struct{}{} }()
			for u := range queues[i] {
				p.process(context.WithoutCancel(ctx), u)
			}
		}()
	}
	seed := maphash.MakeSeed()
	var offset int64
	wait := p.Backoff
	for ctx.Err() == nil {
		started := time.Now()
		updates, err := p.Source.GetUpdates(ctx, offset, p.Timeout)
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			p.Log.Warn("getUpdates failed", "err", err, "retry_in", wait)
			sleep(ctx, wait)
			wait = min(wait*2, 30*time.Second)
			continue
		}
		wait = p.Backoff
		if len(updates) == 0 {
			sleep(ctx, p.MinInterval-time.Since(started))
			continue
		}
		for _, u := range updates {
			if u.UpdateID != 0 {
				offset = max(offset, u.UpdateID+1)
			}
			// The webhook's rule (telegram.ParseUpdate): Telegram never
			// uses chat id 0, so a zero id means the chat was missing.
			if u.Message == nil || u.Message.Chat.ID == 0 {
				continue
			}
			cu := convai.Update{UpdateID: u.UpdateID, ChatID: u.Message.Chat.ID, Text: u.Message.Text}
			queues[maphash.Comparable(seed, cu.ChatID)%uint64(len(queues))] <- cu
		}
	}
	for _, q := range queues {
		close(q)
	}
	for range queues {
		<-done
	}
	return ctx.Err()
}

// process handles one update, retrying what a retry can fix: the whole
// update when nothing was stored, only the delivery when the answer was.
func (p *Poller) process(ctx context.Context, u convai.Update) {
	wait := p.Backoff
	deliverOnly := false
	for attempt := 0; ; attempt++ {
		var err error
		if deliverOnly {
			err = p.Engine.Deliver(ctx, u.ChatID)
		} else {
			err = p.Engine.Handle(ctx, u)
		}
		switch duet.Code(err) {
		case "":
			return
		case duet.EINVALID, duet.ENOTFOUND:
			p.Log.Info("dropped update", "chat", u.ChatID, "reason", err)
			return
		}
		if attempt >= p.Retries {
			p.Log.Error("giving up on update; the sweeper retries stored answers", "chat", u.ChatID, "err", err)
			return
		}
		deliverOnly = deliverOnly || errors.Is(err, convai.ErrUndelivered)
		p.Log.Warn("update failed, retrying", "chat", u.ChatID, "err", err, "retry_in", wait)
		sleep(ctx, wait)
		wait = min(wait*2, 30*time.Second)
	}
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
