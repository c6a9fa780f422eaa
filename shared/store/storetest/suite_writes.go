package storetest

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/duet"
)

func (su suite) appendConflict(t *testing.T) {
	base, ctx := su.base, su.ctx
	_, s := su.setup(t)
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
}

func (su suite) concurrentAppends(t *testing.T) {
	base, ctx := su.base, su.ctx
	_, s := su.setup(t)
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
}

func (su suite) claim(t *testing.T) {
	base, ctx := su.base, su.ctx
	_, s := su.setup(t)
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
}

func (su suite) concurrentClaims(t *testing.T) {
	base, ctx := su.base, su.ctx
	_, s := su.setup(t)
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
}

func (su suite) commitVersions(t *testing.T) {
	base, ctx := su.base, su.ctx
	_, s := su.setup(t)
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
}

func (su suite) concurrentCommits(t *testing.T) {
	base, ctx := su.base, su.ctx
	_, s := su.setup(t)
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
}
