package storetest

import (
	"slices"
	"testing"
	"time"

	"github.com/duetbot/duet/shared/convai"
)

// Idle and Undelivered answer to the nanosecond, whatever resolution
// a store's index has, oldest first, and never with an ended or
// expired chat.
func (su suite) idleAndUndelivered(t *testing.T) {
	base, ctx := su.base, su.ctx
	clock, s := su.setup(t)
	// Inside a 5-minute span, not on its edge.
	before := base.Add(2*time.Hour + 7*time.Minute + 30*time.Second)
	clock.Advance(before.Add(10 * time.Minute).Sub(clock.Now()))
	open := func(id int64, partnerAt, sentAt, pending time.Time) {
		mustCommit(t, s, &convai.Head{ChatID: id, Session: 1, Status: convai.Open, PartnerAt: partnerAt, SentAt: sentAt, Pending: pending, Version: 1}, 0)
	}
	var zero time.Time
	open(1, before.Add(-time.Nanosecond), zero, zero)                                   // idle, the newest
	open(2, before, zero, zero)                                                         // idle since before: not before it
	open(3, before.Add(-3*time.Minute), before.Add(time.Second), zero)                  // the bot spoke after before
	open(4, before.Add(-40*time.Minute), zero, zero)                                    // idle, the oldest
	open(5, before.Add(-4*time.Minute-59*time.Second), zero, zero)                      // idle, in before's span
	open(6, before.Add(-2*time.Minute), zero, before.Add(-2*time.Minute))               // undelivered
	open(7, before.Add(-time.Minute), zero, before.Add(time.Nanosecond))                // pending since after before
	open(8, clock.Now().Add(-ttl-time.Second), zero, zero)                              // expired
	open(9, clock.Now().Add(-ttl-time.Second), zero, clock.Now().Add(-ttl-time.Second)) // expired, pending
	mustCommit(t, s, &convai.Head{ChatID: 10, Session: 1, Status: convai.Ended, PartnerAt: before.Add(-10 * time.Minute), Version: 1}, 0)

	idle, err := s.Idle(ctx, before)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int64{4, 5, 1}; !slices.Equal(idle, want) {
		t.Errorf("Idle(before): got %v, want %v", idle, want)
	}
	undelivered, err := s.Undelivered(ctx, before)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int64{6}; !slices.Equal(undelivered, want) {
		t.Errorf("Undelivered(before): got %v, want %v", undelivered, want)
	}
	// A nanosecond later, chat 2 is idle too.
	if idle, err = s.Idle(ctx, before.Add(time.Nanosecond)); err != nil || !slices.Equal(idle, []int64{4, 5, 1, 2}) {
		t.Errorf("Idle(before+1ns): got %v, %v; want [4 5 1 2]", idle, err)
	}
}

func (su suite) index(t *testing.T) {
	base := su.base
	_, s := su.setup(t)
	cutoff := base.Add(-5 * time.Minute)
	heads := map[int64]*convai.Head{
		1:  openHead(1, base.Add(-10*time.Minute)),    // idle
		2:  openHead(2, cutoff.Add(-time.Nanosecond)), // just idle
		3:  openHead(3, cutoff),                       // at the cutoff: not idle
		4:  openHead(4, base.Add(-time.Minute)),       // recent
		5:  openHead(5, base.Add(-10*time.Minute)),    // ended
		6:  openHead(6, base.Add(-10*time.Minute)),    // pending
		7:  openHead(7, base.Add(-ttl-time.Minute)),   // expired
		8:  openHead(8, base.Add(-10*time.Minute)),    // delivered lately
		9:  openHead(9, base.Add(-10*time.Minute)),    // ended, pending
		10: openHead(-10, base.Add(-10*time.Minute)),  // negative id
	}
	heads[5].Status = convai.Ended
	heads[6].Pending = base.Add(-time.Minute)
	heads[8].SentAt = base.Add(-time.Minute)
	heads[9].Status, heads[9].Pending = convai.Ended, base.Add(-10*time.Minute)
	for _, h := range heads {
		mustCommit(t, s, h, 0)
	}
	wantIDs(t, "Idle", s.Idle, cutoff, 1, 2, -10)
	wantIDs(t, "Undelivered", s.Undelivered, base.Add(-30*time.Second), 6, 9)
	wantIDs(t, "Undelivered", s.Undelivered, base.Add(-5*time.Minute), 9)
}

func (su suite) indexTransitions(t *testing.T) {
	base := su.base
	_, s := su.setup(t)
	at := base.Add(-10 * time.Minute)
	h := openHead(9, at)
	steps := []struct {
		name              string
		change            func(*convai.Head)
		idle, undelivered bool
	}{
		{"open, delivered", func(*convai.Head) {}, true, false},
		{"a sender gave up", func(h *convai.Head) { h.Pending = at }, false, true},
		{"delivered by the sweeper", func(h *convai.Head) { h.Pending, h.SentAt = time.Time{}, base }, false, false},
		{"ended", func(h *convai.Head) { h.Status, h.SentAt = convai.Ended, at }, false, false},
	}
	for i, step := range steps {
		step.change(h)
		h.Version = int64(i + 1)
		mustCommit(t, s, h, int64(i))
		var idle, undelivered []int64
		if step.idle {
			idle = []int64{9}
		}
		if step.undelivered {
			undelivered = []int64{9}
		}
		wantIDs(t, step.name+": Idle", s.Idle, base.Add(-time.Minute), idle...)
		wantIDs(t, step.name+": Undelivered", s.Undelivered, base, undelivered...)
	}
}
