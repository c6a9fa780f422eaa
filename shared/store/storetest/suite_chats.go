package storetest

import (
	"errors"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/convai/convaitest"
	"github.com/duetbot/duet/shared/duet"
)

// loadMissing: a chat never stored is not found.
func (su suite) loadMissing(t *testing.T) {
	ctx := su.ctx
	_, s := su.setup(t)
	if _, err := s.Load(ctx, 42); !errors.Is(err, duet.ErrNotFound) {
		t.Fatalf("Load of a missing chat: got error %v, want duet.ErrNotFound", err)
	}
}

// An unset lifetime (a Config literal without SESSION_TTL) is the
// store's default, not an expiry at the next second.
func (su suite) zeroTTL(t *testing.T) {
	base := su.base
	clock := convaitest.NewClock(base)
	s := su.newStore(t, clock.Now, 0)
	mustCommit(t, s, &convai.Head{ChatID: 7, Session: 1, Status: convai.Open, PartnerAt: base, Version: 1}, 0)
	clock.Advance(time.Hour)
	mustLoad(t, s, 7)
}

func (su suite) roundTrip(t *testing.T) {
	base := su.base
	_, s := su.setup(t)
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
}

func (su suite) recordsWithoutHead(t *testing.T) {
	base := su.base
	_, s := su.setup(t)
	r := record(1, 0, base)
	mustAppend(t, s, 3, &r)
	got := mustLoad(t, s, 3)
	if got.Head.Version != 0 || len(got.Records) != 1 {
		t.Errorf("Load before any Commit: head version %d, %d records; want 0 and 1", got.Head.Version, len(got.Records))
	}
}

func (su suite) window(t *testing.T) {
	base := su.base
	_, s := su.setup(t)
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
}

func (su suite) expired(t *testing.T) {
	base, ctx := su.base, su.ctx
	clock, s := su.setup(t)
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
}
