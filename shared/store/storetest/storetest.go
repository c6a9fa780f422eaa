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
	"github.com/duetbot/duet/shared/convai/convaitest"
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
	ctx := context.Background()

	setup := func(t *testing.T) (*convaitest.Clock, convai.Store) {
		t.Helper()
		clock := convaitest.NewClock(base)
		return clock, newStore(t, clock.Now, ttl)
	}

	t.Run("LoadMissing", func(t *testing.T) {
		_, s := setup(t)
		if _, err := s.Load(ctx, 42); !errors.Is(err, duet.ErrNotFound) {
			t.Fatalf("Load of a missing chat: got error %v, want duet.ErrNotFound", err)
		}
	})

	// An unset lifetime (a Config literal without SESSION_TTL) is the
	// store's default, not an expiry at the next second.
	t.Run("ZeroTTL", func(t *testing.T) {
		clock := convaitest.NewClock(base)
		s := newStore(t, clock.Now, 0)
		mustCommit(t, s, &convai.Head{ChatID: 7, Session: 1, Status: convai.Open, PartnerAt: base, Version: 1}, 0)
		clock.Advance(time.Hour)
		mustLoad(t, s, 7)
	})

	// Idle and Undelivered answer to the nanosecond, whatever resolution
	// a store's index has, oldest first, and never with an ended or
	// expired chat.
	t.Run("IdleAndUndelivered", func(t *testing.T) {
		clock, s := setup(t)
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
	})

	t.Run("RoundTrip", func(t *testing.T) {
		_, s := setup(t)
		for _, id := range []int64{1, -100123456789, 1<<40 + 5, math.MaxInt64, math.MinInt64} {
			recs := fullRecords(base)
			for i := range recs {
				mustAppend(t, s, id, &recs[i])
			}
			h := fullHead(id, base)
			mustCommit(t, s, h, 0)
			got := mustLoad(t, s, id)
			if d := diffHead(got.Head, *h); d != "" {
				t.Errorf("chat %d head after Commit and Load:\n%s", id, d)
			}
			if d := diffRecords(got.Records, recs); d != "" {
				t.Errorf("chat %d records after Append and Load:\n%s", id, d)
			}
		}
	})

	t.Run("RecordsWithoutHead", func(t *testing.T) {
		_, s := setup(t)
		r := record(1, 0, base)
		mustAppend(t, s, 3, &r)
		got := mustLoad(t, s, 3)
		if got.Head.Version != 0 || len(got.Records) != 1 {
			t.Errorf("Load before any Commit: head version %d, %d records; want 0 and 1", got.Head.Version, len(got.Records))
		}
	})

	t.Run("Window", func(t *testing.T) {
		_, s := setup(t)
		for seq := range int64(20) {
			r := record(1, seq, base.Add(time.Duration(seq)*time.Second))
			mustAppend(t, s, 5, &r)
		}
		got := seqs(mustLoad(t, s, 5).Records, 1)
		want := []int64{0}
		for seq := int64(20 - convai.Window); seq < 20; seq++ {
			want = append(want, seq)
		}
		if !slices.Equal(got, want) {
			t.Errorf("Load of a 20-record session: got records %v, want the start and the newest %d: %v", got, convai.Window, want)
		}
		// A new session: its start and records come back, oldest first.
		for seq := range int64(3) {
			r := record(2, seq, base.Add(time.Minute))
			mustAppend(t, s, 5, &r)
		}
		if got := seqs(mustLoad(t, s, 5).Records, 2); !slices.Equal(got, []int64{0, 1, 2}) {
			t.Errorf("Load after a new session: got its records %v, want [0 1 2]", got)
		}
	})

	t.Run("AppendConflict", func(t *testing.T) {
		_, s := setup(t)
		r := record(1, 0, base)
		mustAppend(t, s, 7, &r)
		again := record(1, 0, base)
		again.Context = "another"
		if err := s.Append(ctx, 7, &again); !errors.Is(err, duet.ErrConflict) {
			t.Fatalf("Append of an existing record: got error %v, want duet.ErrConflict", err)
		}
		if got := mustLoad(t, s, 7).Records[0].Context; got != r.Context {
			t.Errorf("context after a failed append: got %q, want the first one", got)
		}
	})

	t.Run("ConcurrentAppends", func(t *testing.T) {
		_, s := setup(t)
		const writers = 8
		errs := make([]error, writers)
		var wg sync.WaitGroup
		for i := range writers {
			wg.Go(func() {
				r := record(1, 0, base)
				r.Context = fmt.Sprintf("writer %d", i)
				errs[i] = s.Append(ctx, 8, &r)
			})
		}
		wg.Wait()
		winner := oneWinner(t, errs)
		if got := mustLoad(t, s, 8).Records; len(got) != 1 || got[0].Context != fmt.Sprintf("writer %d", winner) {
			t.Errorf("after racing appends: got %+v, want writer %d's record alone", got, winner)
		}
	})

	t.Run("Claim", func(t *testing.T) {
		_, s := setup(t)
		r := record(1, 1, base)
		r.Lease = convai.Lease{Owner: "a", Until: base.Add(time.Minute)}
		mustAppend(t, s, 9, &r)
		steps := []struct {
			name  string
			lease convai.Lease
			at    time.Time
			want  error
		}{
			{"another owner while live", convai.Lease{Owner: "b", Until: base.Add(2 * time.Minute)}, base, duet.ErrConflict},
			{"the holder renews", convai.Lease{Owner: "a", Until: base.Add(90 * time.Second)}, base, nil},
			{"another owner just before expiry", convai.Lease{Owner: "b", Until: base.Add(3 * time.Minute)}, base.Add(90*time.Second - time.Nanosecond), duet.ErrConflict},
			{"another owner at expiry", convai.Lease{Owner: "b", Until: base.Add(3 * time.Minute)}, base.Add(90 * time.Second), nil},
			{"the old holder after losing it", convai.Lease{Owner: "a", Until: base.Add(4 * time.Minute)}, base.Add(91 * time.Second), duet.ErrConflict},
			{"the holder releases", convai.Lease{Owner: "b"}, base.Add(92 * time.Second), nil},
			{"anyone after a release", convai.Lease{Owner: "c", Until: base.Add(5 * time.Minute)}, base.Add(93 * time.Second), nil},
		}
		for _, st := range steps {
			err := s.Claim(ctx, 9, 1, 1, st.lease, st.at)
			if (st.want == nil) != (err == nil) || (st.want != nil && !errors.Is(err, st.want)) {
				t.Fatalf("%s: Claim got error %v, want %v", st.name, err, st.want)
			}
		}
		if got := mustLoad(t, s, 9).Records[0].Lease; got.Owner != "c" || !got.Until.Equal(base.Add(5*time.Minute)) {
			t.Errorf("lease after the claims: got %+v, want c's", got)
		}
		if err := s.Claim(ctx, 9, 1, 2, convai.Lease{Owner: "a"}, base); !errors.Is(err, duet.ErrNotFound) {
			t.Errorf("Claim of a missing record: got error %v, want duet.ErrNotFound", err)
		}
	})

	t.Run("ConcurrentClaims", func(t *testing.T) {
		_, s := setup(t)
		r := record(1, 1, base)
		mustAppend(t, s, 10, &r)
		const claimers = 8
		errs := make([]error, claimers)
		var wg sync.WaitGroup
		for i := range claimers {
			wg.Go(func() {
				errs[i] = s.Claim(ctx, 10, 1, 1, convai.Lease{Owner: fmt.Sprint(i), Until: base.Add(time.Minute)}, base)
			})
		}
		wg.Wait()
		winner := oneWinner(t, errs)
		if got := mustLoad(t, s, 10).Records[0].Lease.Owner; got != fmt.Sprint(winner) {
			t.Errorf("lease owner after racing claims: got %q, want %d", got, winner)
		}
	})

	t.Run("CommitVersions", func(t *testing.T) {
		_, s := setup(t)
		h := openHead(7, base)
		mustCommit(t, s, h, 0)
		for _, tc := range []struct {
			name          string
			version, prev int64
		}{
			{"stale prev", 3, 2},
			{"version not prev+1", 3, 1},
			{"create over a live head", 1, 0},
		} {
			next := openHead(7, base)
			next.Version, next.Sent = tc.version, 99
			if err := s.Commit(ctx, *next, tc.prev); !errors.Is(err, duet.ErrConflict) {
				t.Errorf("%s: Commit(version %d, prev %d): got error %v, want duet.ErrConflict", tc.name, tc.version, tc.prev, err)
			}
		}
		if got := mustLoad(t, s, 7).Head; got.Version != 1 || got.Sent != h.Sent {
			t.Errorf("after failed commits: got version %d sent %d, want 1 and %d", got.Version, got.Sent, h.Sent)
		}
	})

	t.Run("ConcurrentCommits", func(t *testing.T) {
		_, s := setup(t)
		mustCommit(t, s, openHead(7, base), 0)
		const writers = 8
		errs := make([]error, writers)
		var wg sync.WaitGroup
		for i := range writers {
			wg.Go(func() {
				h := openHead(7, base)
				h.Version, h.Sent = 2, int64(i)
				errs[i] = s.Commit(ctx, *h, 1)
			})
		}
		wg.Wait()
		winner := oneWinner(t, errs)
		if got := mustLoad(t, s, 7).Head; got.Sent != int64(winner) || got.Version != 2 {
			t.Errorf("after racing commits: sent %d version %d, want %d and 2", got.Sent, got.Version, winner)
		}
	})

	t.Run("Expired", func(t *testing.T) {
		clock, s := setup(t)
		r := record(1, 0, base)
		mustAppend(t, s, 7, &r)
		h := openHead(7, base)
		h.Pending = base
		mustCommit(t, s, h, 0)
		clock.Advance(ttl - 2*time.Second)
		mustLoad(t, s, 7)
		clock.Advance(4 * time.Second)
		if _, err := s.Load(ctx, 7); !errors.Is(err, duet.ErrNotFound) {
			t.Fatalf("Load of an expired chat: got error %v, want duet.ErrNotFound", err)
		}
		far := clock.Now().Add(ttl)
		wantIDs(t, "Undelivered", s.Undelivered, far)
		if err := s.Claim(ctx, 7, 1, 0, convai.Lease{Owner: "x", Until: far}, clock.Now()); !errors.Is(err, duet.ErrNotFound) {
			t.Errorf("Claim of an expired record: got error %v, want duet.ErrNotFound", err)
		}
		stale := openHead(7, base)
		stale.Version = 2
		if err := s.Commit(ctx, *stale, 1); !errors.Is(err, duet.ErrConflict) {
			t.Errorf("Commit with prev 1 over an expired head: got error %v, want duet.ErrConflict", err)
		}
		fresh := record(1, 0, clock.Now())
		fresh.Context = "fresh"
		mustAppend(t, s, 7, &fresh)
		mustCommit(t, s, openHead(7, clock.Now()), 0)
		if got := mustLoad(t, s, 7); got.Records[0].Context != "fresh" || got.Head.Version != 1 {
			t.Errorf("after re-creating an expired chat: context %q version %d, want fresh and 1", got.Records[0].Context, got.Head.Version)
		}
	})

	t.Run("Index", func(t *testing.T) {
		_, s := setup(t)
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
	})

	t.Run("IndexTransitions", func(t *testing.T) {
		_, s := setup(t)
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
	})

	t.Run("Engine", func(t *testing.T) {
		clock, s := setup(t)
		sender := &convaitest.Outbox{}
		e := &convai.Engine{Store: s, Sender: sender, Replier: convaitest.Echo{}, Evaluator: convaitest.Echo{}, Now: clock.Now, Log: slog.New(slog.DiscardHandler)}
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

		// A reply a sender gave up on is delivered by the sweeper.
		sender.Fail(errors.New("telegram is down"))
		if err := handle(-5, 4, "and cats?"); err == nil {
			t.Fatal("Handle with a failing sender: got nil error, want one")
		}
		sender.Fail(nil)
		clock.Advance(time.Minute)
		res, err := e.Sweep(ctx)
		if err != nil || res.Delivered != 1 || res.Ended != 0 {
			t.Fatalf("Sweep after a failed send: got %+v, %v; want 1 delivered, none ended", res, err)
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
		msgs := sender.Messages()
		if len(msgs) != 5 {
			t.Fatalf("messages after ending both chats: got %d, want 5", len(msgs))
		}
		for _, m := range msgs[3:] {
			if final, err := convai.Validate(m.Text, true); !final || err != nil {
				t.Errorf("chat %d: last message %s is not a valid final (%v)", m.ChatID, m.Text, err)
			}
		}
		for _, id := range []int64{1, -5} {
			if h := mustLoad(t, s, id).Head; h.Status != convai.Ended || !h.Pending.IsZero() {
				t.Errorf("chat %d after the sweep: head %+v; want ended, nothing pending", id, h)
			}
		}
		if res, err = e.Sweep(ctx); err != nil || res != (convai.SweepResult{}) {
			t.Errorf("a second Sweep: got %+v, %v; want nothing done", res, err)
		}
	})
}

// record returns a turn record (the start record for seq 0) at at.
func record(session, seq int64, at time.Time) convai.Record {
	r := convai.Record{Session: session, Seq: seq, Kind: convai.TurnRecord, At: at, PartnerTurns: int(seq),
		Partner: fmt.Sprintf("message %d", seq), Bot: fmt.Sprintf("reply %d", seq), Rating: 5, UpdateID: 100 + seq, Sum: uint64(seq) * 7}
	if seq == 0 {
		r = convai.Record{Session: session, Kind: convai.StartRecord, At: at, Context: "a context", UpdateID: 100}
	}
	return r
}

// fullRecords returns a session's records with every field set.
func fullRecords(base time.Time) []convai.Record {
	return []convai.Record{
		{Session: 3, Seq: 0, Kind: convai.StartRecord, UpdateID: 1<<40 + 3, Sum: math.MaxUint64,
			Context: "line one\nline two — ünïcode ✓ \"quoted\"", Bot: "Hi! What do you think of cats?",
			At: base.Add(-time.Hour / 2), Lease: convai.Lease{Owner: "owner-1", Until: base.Add(-987654321 * time.Nanosecond)}},
		{Session: 3, Seq: 1, Kind: convai.TurnRecord, UpdateID: 7, Sum: 12345, Partner: "They are fine.",
			Bot: "Only fine?", Rating: 10, PartnerTurns: 1, At: base.Add(-time.Minute)},
		{Session: 3, Seq: 2, Kind: convai.EndRecord, PartnerTurns: 1, At: base,
			Final: &brain.Scores{Quality: 1, Breadth: 2, Engagement: 10, Score: 4, Profile: new(int)}},
	}
}

// fullHead returns a head with every field set.
func fullHead(id int64, base time.Time) *convai.Head {
	return &convai.Head{
		ChatID: id, Session: 3, Status: convai.Ended, Sent: 1, Part: 1,
		Recent:    []int64{-5, 1<<62 + 1, 7},
		PartnerAt: base.Add(-time.Minute), SentAt: base, Pending: base.Add(-time.Second),
		Version: 1,
	}
}

// openHead returns an open head at version 1 idle since at.
func openHead(id int64, at time.Time) *convai.Head {
	return &convai.Head{ChatID: id, Session: 1, Status: convai.Open, Sent: 0, PartnerAt: at, Version: 1}
}

func seqs(recs []convai.Record, session int64) []int64 {
	var out []int64
	for _, r := range recs {
		if r.Session == session {
			out = append(out, r.Seq)
		}
	}
	return out
}

// oneWinner checks that exactly one of errs is nil and the others are
// conflicts, and returns the winner's index.
func oneWinner(t *testing.T, errs []error) int {
	t.Helper()
	winner := -1
	for i, err := range errs {
		switch {
		case err == nil && winner >= 0:
			t.Errorf("writers %d and %d both succeeded", winner, i)
		case err == nil:
			winner = i
		case !errors.Is(err, duet.ErrConflict):
			t.Errorf("writer %d: got error %v, want nil or duet.ErrConflict", i, err)
		}
	}
	if winner < 0 {
		t.Fatal("no writer succeeded")
	}
	return winner
}

func mustAppend(t *testing.T, s convai.Store, id int64, r *convai.Record) {
	t.Helper()
	if err := s.Append(context.Background(), id, r); err != nil {
		t.Fatalf("Append(chat %d, record %d.%d): %v", id, r.Session, r.Seq, err)
	}
}

func mustCommit(t *testing.T, s convai.Store, h *convai.Head, prev int64) {
	t.Helper()
	if err := s.Commit(context.Background(), *h, prev); err != nil {
		t.Fatalf("Commit(chat %d, version %d, prev %d): %v", h.ChatID, h.Version, prev, err)
	}
}

func mustLoad(t *testing.T, s convai.Store, id int64) *convai.Chat {
	t.Helper()
	c, err := s.Load(context.Background(), id)
	if err != nil {
		t.Fatalf("Load(%d): %v", id, err)
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

// diffHead describes how got differs from want: times by instant, nil and
// empty lists alike, everything else exactly. It returns "" when they match.
func diffHead(got, want convai.Head) string {
	var d string
	for _, tm := range []struct {
		name    string
		got, wt time.Time
	}{
		{"PartnerAt", got.PartnerAt, want.PartnerAt},
		{"SentAt", got.SentAt, want.SentAt},
		{"Pending", got.Pending, want.Pending},
	} {
		if !tm.got.Equal(tm.wt) {
			d += fmt.Sprintf("%s: got %s, want %s\n", tm.name, tm.got.Format(time.RFC3339Nano), tm.wt.Format(time.RFC3339Nano))
		}
	}
	got.PartnerAt, got.SentAt, got.Pending = time.Time{}, time.Time{}, time.Time{}
	want.PartnerAt, want.SentAt, want.Pending = time.Time{}, time.Time{}, time.Time{}
	if len(got.Recent) == 0 && len(want.Recent) == 0 {
		got.Recent, want.Recent = nil, nil
	}
	if !reflect.DeepEqual(got, want) {
		d += fmt.Sprintf("got  %+v\nwant %+v\n", got, want)
	}
	return d
}

// diffRecords is diffHead for records.
func diffRecords(got, want []convai.Record) string {
	if len(got) != len(want) {
		return fmt.Sprintf("got %d records, want %d", len(got), len(want))
	}
	var d string
	for i := range got {
		g, w := got[i], want[i]
		if !g.At.Equal(w.At) || !g.Lease.Until.Equal(w.Lease.Until) {
			d += fmt.Sprintf("record %d: at %s lease until %s, want %s and %s\n", i, g.At, g.Lease.Until, w.At, w.Lease.Until)
		}
		g.At, w.At, g.Lease.Until, w.Lease.Until = time.Time{}, time.Time{}, time.Time{}, time.Time{}
		if !reflect.DeepEqual(g, w) {
			d += fmt.Sprintf("record %d:\ngot  %+v\nwant %+v\n", i, g, w)
		}
	}
	return d
}
