package storetest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/duet"
)

// NewStore returns an empty store that reads the time from now and keeps a
// chat for ttl after its last activity. It calls t.Fatal if it cannot, and
// may register cleanups with t.
type NewStore func(t *testing.T, now func() time.Time, ttl time.Duration) convai.Store

// ttl is the session lifetime every subtest's store gets.
const ttl = time.Hour

// Run runs the contract suite against the stores newStore makes, one fresh
// store per subtest.
func Run(t *testing.T, newStore NewStore) {
	// Near the real time, so that a real table's TTL deletion does not race
	// the test, with nanoseconds so that their loss shows.
	base := time.Now().UTC().Truncate(time.Second).Add(123456789 * time.Nanosecond)

	setup := func(t *testing.T) (*Clock, convai.Store) {
		t.Helper()
		clock := NewClock(base)
		return clock, newStore(t, clock.Now, ttl)
	}

	t.Run("GetMissing", func(t *testing.T) {
		_, s := setup(t)
		_, err := s.Get(context.Background(), 42)
		if !errors.Is(err, duet.ErrNotFound) {
			t.Fatalf("Get of a missing chat: got error %v, want duet.ErrNotFound", err)
		}
	})

	t.Run("RoundTrip", func(t *testing.T) {
		_, s := setup(t)
		for _, id := range []int64{1, -100123456789, 1<<40 + 5, math.MaxInt64, math.MinInt64} {
			want := fullChat(id, base)
			mustSave(t, s, want, 0)
			got := mustGet(t, s, id)
			if d := diff(got, want); d != "" {
				t.Errorf("chat %d after Save and Get:\n%s", id, d)
			}
		}
	})

	t.Run("Update", func(t *testing.T) {
		_, s := setup(t)
		c := openChat(7, base)
		mustSave(t, s, c, 0)
		next := mustGet(t, s, 7)
		next.Version = 2
		next.Turns = append(next.Turns, brain.Turn{Role: brain.Partner, Text: "hi"})
		next.PartnerTurns = 1
		next.LastActivity = base.Add(time.Second)
		mustSave(t, s, next, 1)
		if d := diff(mustGet(t, s, 7), next); d != "" {
			t.Errorf("chat after the second Save:\n%s", d)
		}
	})

	t.Run("WrongPrev", func(t *testing.T) {
		_, s := setup(t)
		mustSave(t, s, openChat(7, base), 0)
		for _, tc := range []struct {
			name          string
			id            int64
			version, prev int64
		}{
			{"stale prev", 7, 3, 2},
			{"version not prev+1", 7, 3, 1},
			{"prev on a missing chat", 8, 2, 1},
		} {
			c := openChat(tc.id, base)
			c.Version = tc.version
			if err := s.Save(context.Background(), c, tc.prev); !errors.Is(err, duet.ErrConflict) {
				t.Errorf("%s: Save(version %d, prev %d): got error %v, want duet.ErrConflict", tc.name, tc.version, tc.prev, err)
			}
		}
		if got := mustGet(t, s, 7); got.Version != 1 {
			t.Errorf("after failed saves: got version %d, want 1", got.Version)
		}
	})

	t.Run("CreateOverLive", func(t *testing.T) {
		_, s := setup(t)
		mustSave(t, s, openChat(7, base), 0)
		c := openChat(7, base)
		c.Context = "another"
		if err := s.Save(context.Background(), c, 0); !errors.Is(err, duet.ErrConflict) {
			t.Fatalf("Save with prev 0 over a live chat: got error %v, want duet.ErrConflict", err)
		}
		if got := mustGet(t, s, 7); got.Context != openChat(7, base).Context {
			t.Errorf("context after a failed create: got %q, want the first one", got.Context)
		}
	})

	t.Run("ConcurrentSaves", func(t *testing.T) {
		_, s := setup(t)
		mustSave(t, s, openChat(7, base), 0)
		for _, prev := range []int64{1, 0} {
			id := int64(7)
			if prev == 0 {
				id = 8 // a create race on a chat that does not exist yet
			}
			const writers = 8
			errs := make([]error, writers)
			var wg sync.WaitGroup
			for i := range writers {
				wg.Go(func() {
					c := openChat(id, base)
					c.Context = fmt.Sprintf("writer %d", i)
					c.Version = prev + 1
					errs[i] = s.Save(context.Background(), c, prev)
				})
			}
			wg.Wait()
			winner := -1
			for i, err := range errs {
				switch {
				case err == nil && winner >= 0:
					t.Errorf("prev %d: writers %d and %d both succeeded", prev, winner, i)
				case err == nil:
					winner = i
				case !errors.Is(err, duet.ErrConflict):
					t.Errorf("prev %d: writer %d: got error %v, want nil or duet.ErrConflict", prev, i, err)
				}
			}
			if winner < 0 {
				t.Fatalf("prev %d: no writer succeeded", prev)
			}
			got := mustGet(t, s, id)
			if want := fmt.Sprintf("writer %d", winner); got.Context != want || got.Version != prev+1 {
				t.Errorf("prev %d: stored context %q version %d, want %q version %d", prev, got.Context, got.Version, want, prev+1)
			}
		}
	})

	t.Run("Expired", func(t *testing.T) {
		clock, s := setup(t)
		c := openChat(7, base)
		c.Outbox, c.OutboxSince = []string{"waiting"}, base
		mustSave(t, s, c, 0)
		clock.Advance(ttl - 2*time.Second)
		mustGet(t, s, 7)
		clock.Advance(4 * time.Second)
		if _, err := s.Get(context.Background(), 7); !errors.Is(err, duet.ErrNotFound) {
			t.Fatalf("Get of an expired chat: got error %v, want duet.ErrNotFound", err)
		}
		far := clock.Now().Add(ttl)
		wantIDs(t, "Undelivered", s.Undelivered, far)
		old := openChat(7, base)
		old.Version = 2
		if err := s.Save(context.Background(), old, 1); !errors.Is(err, duet.ErrConflict) {
			t.Errorf("Save with prev 1 over an expired chat: got error %v, want duet.ErrConflict", err)
		}
		fresh := openChat(7, clock.Now())
		fresh.Context = "fresh"
		mustSave(t, s, fresh, 0)
		if got := mustGet(t, s, 7); got.Context != "fresh" {
			t.Errorf("context after re-creating an expired chat: got %q, want %q", got.Context, "fresh")
		}
	})

	t.Run("Idle", func(t *testing.T) {
		_, s := setup(t)
		cutoff := base.Add(-5 * time.Minute)
		idle := openChat(1, base.Add(-10*time.Minute))
		justIdle := openChat(2, cutoff.Add(-time.Nanosecond))
		atCutoff := openChat(3, cutoff)
		recent := openChat(4, base.Add(-time.Minute))
		ended := openChat(5, base.Add(-10*time.Minute))
		ended.Status = convai.Ended
		withOutbox := openChat(6, base.Add(-10*time.Minute))
		withOutbox.Outbox, withOutbox.OutboxSince = []string{"pending"}, withOutbox.LastActivity
		expired := openChat(7, base.Add(-ttl-time.Minute))
		for _, c := range []*convai.Chat{idle, justIdle, atCutoff, recent, ended, withOutbox, expired} {
			mustSave(t, s, c, 0)
		}
		wantIDs(t, "Idle", s.Idle, cutoff, 1, 2)
	})

	t.Run("Undelivered", func(t *testing.T) {
		_, s := setup(t)
		cutoff := base.Add(-45 * time.Second)
		queued := func(id int64, since time.Time) *convai.Chat {
			c := openChat(id, since)
			c.Outbox, c.OutboxSince = []string{"a", "b"}, since
			return c
		}
		old := queued(1, base.Add(-10*time.Minute))
		endedOld := queued(2, base.Add(-10*time.Minute))
		endedOld.Status = convai.Ended
		justOld := queued(3, cutoff.Add(-time.Nanosecond))
		atCutoff := queued(4, cutoff)
		recent := queued(5, base.Add(-10*time.Second))
		none := openChat(6, base.Add(-10*time.Minute))
		expired := queued(7, base.Add(-ttl-time.Minute))
		for _, c := range []*convai.Chat{old, endedOld, justOld, atCutoff, recent, none, expired} {
			mustSave(t, s, c, 0)
		}
		wantIDs(t, "Undelivered", s.Undelivered, cutoff, 1, 2, 3)
	})

	t.Run("EndedDelivered", func(t *testing.T) {
		_, s := setup(t)
		c := openChat(1, base.Add(-10*time.Minute))
		c.Status = convai.Ended
		mustSave(t, s, c, 0)
		wantIDs(t, "Idle", s.Idle, base)
		wantIDs(t, "Undelivered", s.Undelivered, base)
	})

	t.Run("Transitions", func(t *testing.T) {
		_, s := setup(t)
		at := base.Add(-10 * time.Minute)
		c := openChat(9, at)
		c.Outbox, c.OutboxSince = []string{"hello"}, at
		steps := []struct {
			name              string
			change            func(*convai.Chat)
			idle, undelivered bool
		}{
			{"open with outbox", func(*convai.Chat) {}, false, true},
			{"delivered", func(c *convai.Chat) { c.Outbox, c.OutboxSince = nil, time.Time{} }, true, false},
			{"ended with final message", func(c *convai.Chat) {
				c.Status = convai.Ended
				c.Outbox, c.OutboxSince = []string{"final"}, at
			}, false, true},
			{"final delivered", func(c *convai.Chat) { c.Outbox, c.OutboxSince = nil, time.Time{} }, false, false},
		}
		for i, step := range steps {
			step.change(c)
			c.Version = int64(i + 1)
			mustSave(t, s, c, int64(i))
			var idle, undelivered []int64
			if step.idle {
				idle = []int64{9}
			}
			if step.undelivered {
				undelivered = []int64{9}
			}
			wantIDs(t, step.name+": Idle", s.Idle, base, idle...)
			wantIDs(t, step.name+": Undelivered", s.Undelivered, base, undelivered...)
		}
	})

	t.Run("LargeAndNegativeIDs", func(t *testing.T) {
		_, s := setup(t)
		ids := []int64{-1, -1001234567890, 1<<32 + 1, 1<<53 + 7, math.MaxInt64, math.MinInt64}
		for _, id := range ids {
			mustSave(t, s, openChat(id, base.Add(-10*time.Minute)), 0)
			if got := mustGet(t, s, id); got.ID != id {
				t.Errorf("Get(%d): got chat id %d", id, got.ID)
			}
		}
		wantIDs(t, "Idle", s.Idle, base, ids...)
	})

	t.Run("Engine", func(t *testing.T) {
		clock, s := setup(t)
		sender := &Sender{}
		e := &convai.Engine{Store: s, Sender: sender, Replier: Brain{}, Evaluator: Brain{}, Now: clock.Now, Log: slog.New(slog.DiscardHandler)}
		ctx := context.Background()
		handle := func(id int64, u int64, text string) error {
			return e.Handle(ctx, convai.Update{UpdateID: u, ChatID: id, Text: text})
		}
		for _, u := range []struct {
			id     int64
			update int64
			text   string
		}{
			{1, 1, "/start about cats"},
			{1, 2, "hello there"},
			{1, 2, "hello there"}, // a duplicate: no second reply
			{-5, 3, "/start\nabout dogs\n/begin"},
		} {
			if err := handle(u.id, u.update, u.text); err != nil {
				t.Fatalf("Handle(%d, %q): %v", u.id, u.text, err)
			}
		}
		if got := len(sender.Messages()); got != 2 {
			t.Fatalf("messages after /start, a reply and /begin: got %d, want 2", got)
		}

		// A reply stored but not delivered is delivered by the sweeper.
		sender.Fail(errors.New("telegram is down"))
		if err := handle(-5, 4, "and cats?"); err == nil {
			t.Fatal("Handle with a failing sender: got nil error, want one")
		}
		sender.Fail(nil)
		clock.Advance(time.Minute)
		res, err := e.Sweep(ctx)
		if err != nil || res.Delivered != 1 {
			t.Fatalf("Sweep after a failed send: got %+v, %v; want 1 delivered", res, err)
		}
		if got := len(sender.Messages()); got != 3 {
			t.Fatalf("messages after the sweep delivered: got %d, want 3", got)
		}

		// Idle chats are ended with their final evaluation, once.
		clock.Advance(convai.DefaultIdleTimeout + time.Second)
		res, err = e.Sweep(ctx)
		if err != nil || res.Ended != 2 || res.Failed != 0 {
			t.Fatalf("Sweep of idle chats: got %+v, %v; want 2 ended", res, err)
		}
		if got := len(sender.Messages()); got != 5 {
			t.Fatalf("messages after ending both chats: got %d, want 5", got)
		}
		for _, id := range []int64{1, -5} {
			c := mustGet(t, s, id)
			if c.Status != convai.Ended || len(c.Outbox) != 0 {
				t.Errorf("chat %d after the sweep: status %s, %d undelivered; want ended, 0", id, c.Status, len(c.Outbox))
			}
		}
		if res, err = e.Sweep(ctx); err != nil || res != (convai.SweepResult{}) {
			t.Errorf("a second Sweep: got %+v, %v; want nothing done", res, err)
		}
	})
}

// openChat returns an open chat at version 1 whose last activity is at.
func openChat(id int64, at time.Time) *convai.Chat {
	return &convai.Chat{
		ID:           id,
		Status:       convai.Open,
		Context:      "a context",
		StartedAt:    at,
		LastActivity: at,
		Version:      1,
	}
}

// fullChat returns a chat with every field set.
func fullChat(id int64, base time.Time) *convai.Chat {
	return &convai.Chat{
		ID:      id,
		Status:  convai.Open,
		Context: "line one\nline two — ünïcode ✓ \"quoted\"",
		Turns: []brain.Turn{
			{Role: brain.Bot, Text: "Hi! What do you think of cats?"},
			{Role: brain.Partner, Text: "They are fine."},
			{Role: brain.Bot, Text: ""},
		},
		Ratings:      []int{5, 10, 1},
		PartnerTurns: 3,
		LastUpdateID: 1<<40 + 3,
		Outbox:       []string{`{"text":"hello","evaluation":0}`, "second"},
		OutboxSince:  base.Add(-987654321 * time.Nanosecond),
		Version:      1,
		StartedAt:    base.Add(-time.Hour / 2),
		LastActivity: base,
	}
}

func mustSave(t *testing.T, s convai.Store, c *convai.Chat, prev int64) {
	t.Helper()
	if err := s.Save(context.Background(), c, prev); err != nil {
		t.Fatalf("Save(chat %d, version %d, prev %d): %v", c.ID, c.Version, prev, err)
	}
}

func mustGet(t *testing.T, s convai.Store, id int64) *convai.Chat {
	t.Helper()
	c, err := s.Get(context.Background(), id)
	if err != nil {
		t.Fatalf("Get(%d): %v", id, err)
	}
	return c
}

// wantIDs checks that query(before) returns exactly want, in any order.
func wantIDs(t *testing.T, name string, query func(context.Context, time.Time) ([]int64, error), before time.Time, want ...int64) {
	t.Helper()
	got, err := query(context.Background(), before)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	got, want = slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want))
	if !slices.Equal(got, want) {
		t.Errorf("%s(%s): got ids %v, want %v", name, before.Format(time.RFC3339Nano), got, want)
	}
}

// diff describes how got differs from want: times by instant, nil and
// empty lists alike, everything else exactly. It returns "" when they match.
func diff(got, want *convai.Chat) string {
	var d string
	times := []struct {
		name    string
		got, wt time.Time
	}{
		{"OutboxSince", got.OutboxSince, want.OutboxSince},
		{"StartedAt", got.StartedAt, want.StartedAt},
		{"LastActivity", got.LastActivity, want.LastActivity},
	}
	for _, tm := range times {
		if !tm.got.Equal(tm.wt) {
			d += fmt.Sprintf("%s: got %s, want %s\n", tm.name, tm.got.Format(time.RFC3339Nano), tm.wt.Format(time.RFC3339Nano))
		}
	}
	g, w := normal(got), normal(want)
	if !reflect.DeepEqual(g, w) {
		d += fmt.Sprintf("got  %+v\nwant %+v\n", g, w)
	}
	return d
}

// normal returns a copy of c without times and with empty lists nil.
func normal(c *convai.Chat) convai.Chat {
	n := *c.Clone()
	n.OutboxSince, n.StartedAt, n.LastActivity = time.Time{}, time.Time{}, time.Time{}
	if len(n.Turns) == 0 {
		n.Turns = nil
	}
	if len(n.Ratings) == 0 {
		n.Ratings = nil
	}
	if len(n.Outbox) == 0 {
		n.Outbox = nil
	}
	return n
}
