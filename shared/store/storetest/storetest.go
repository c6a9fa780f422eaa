package storetest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
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
	su := suite{
		newStore: newStore,
		// Near the real time, so that a real table's TTL deletion does not race
		// the test, with nanoseconds so that their loss shows.
		base: time.Now().UTC().Truncate(time.Second).Add(123456789 * time.Nanosecond),
		ctx:  context.Background(),
	}
	t.Run("LoadMissing", su.loadMissing)
	t.Run("ZeroTTL", su.zeroTTL)
	t.Run("IdleAndUndelivered", su.idleAndUndelivered)
	t.Run("RoundTrip", su.roundTrip)
	t.Run("RecordsWithoutHead", su.recordsWithoutHead)
	t.Run("Window", su.window)
	t.Run("AppendConflict", su.appendConflict)
	t.Run("ConcurrentAppends", su.concurrentAppends)
	t.Run("Claim", su.claim)
	t.Run("ConcurrentClaims", su.concurrentClaims)
	t.Run("CommitVersions", su.commitVersions)
	t.Run("ConcurrentCommits", su.concurrentCommits)
	t.Run("Expired", su.expired)
	t.Run("Index", su.index)
	t.Run("IndexTransitions", su.indexTransitions)
	t.Run("Engine", su.engine)
}

// suite is what every subtest of Run shares.
type suite struct {
	newStore NewStore
	base     time.Time // the clock's start
	ctx      context.Context
}

// setup returns a clock standing at base and a fresh store reading it.
func (su suite) setup(t *testing.T) (*convaitest.Clock, convai.Store) {
	t.Helper()
	clock := convaitest.NewClock(su.base)
	return clock, su.newStore(t, clock.Now, ttl)
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
