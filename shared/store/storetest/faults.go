package storetest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/convai/convaitest"
	"github.com/duetbot/duet/shared/telegram"
)

// FaultConfig sizes a RunFaults run.
type FaultConfig struct {
	Chats    int // concurrent chats
	Messages int // partner messages per chat, between /start and /end
}

// RunFaults races the delivery guarantees on stores newStore makes: two
// engines (two instances) share one store; every chat's updates reach them
// as Telegram delivers them — in order, one at a time, redelivered after
// any non-2xx, sometimes twice at once or again later; a fake Bot API
// answers 429 and 500, hangs, drops connections; the store pauses now and
// then; both engines sweep all along. Every chat must end with exactly one
// reply per message, in order, then one final, nothing lost or duplicated —
// but for the one named case: the Bot API recorded a message and its
// sender never read the answer, or could not record that it did, which
// may leave one adjacent copy.
func RunFaults(t *testing.T, cfg FaultConfig, newStore func(t *testing.T) convai.Store) {
	api := newFaultyBotAPI(t)
	client, err := telegram.New(api.srv.URL, "123:fault", telegram.WithHTTPClient(&http.Client{Transport: api}),
		telegram.WithRequestTimeout(250*time.Millisecond),
		telegram.WithBackoff(5*time.Millisecond, 50*time.Millisecond), telegram.WithMaxAttempts(2),
		telegram.WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatal(err)
	}
	store := &pausingStore{Store: newStore(t)}
	engines := make([]*convai.Engine, 2)
	for i := range engines {
		engines[i] = &convai.Engine{
			Store: store, Sender: client, Replier: convaitest.Echo{}, Evaluator: convaitest.Echo{},
			MaxTurns: 1000, IdleTimeout: time.Hour, OutboxGrace: 300 * time.Millisecond,
			DeliveryTimeout: 1500 * time.Millisecond, Log: slog.New(engineLog{api}),
		}
	}

	ctx, stop := context.WithCancel(context.Background())
	var bg sync.WaitGroup
	var swept atomic.Int64
	bg.Go(func() { store.pauseNowAndThen(ctx) })
	for _, e := range engines {
		bg.Go(func() {
			for sleepOrDone(ctx, 100*time.Millisecond) {
				res, err := e.Sweep(ctx)
				if err != nil && ctx.Err() == nil {
					t.Logf("sweep: %v", err)
				}
				if res.Ended > 0 {
					t.Errorf("a sweep ended %d chats early", res.Ended)
				}
				swept.Add(int64(res.Delivered))
			}
		})
	}

	var dupNow, dupLate, redelivered atomic.Int64
	var chats sync.WaitGroup
	base := rand.Int64N(1 << 40)
	for c := range cfg.Chats {
		chats.Go(func() {
			id := -(base + int64(c)) // negative, like group chats
			rng := rand.New(rand.NewPCG(uint64(c), 7))
			api.expect(id)
			texts := []string{"/start a context for chat " + fmt.Sprint(id)}
			for m := range cfg.Messages {
				texts = append(texts, fmt.Sprintf("chat %d message %d", id, m))
			}
			texts = append(texts, "/end")
			for i, text := range texts {
				u := convai.Update{UpdateID: int64(c*1000 + i + 1), ChatID: id, Text: text}
				deliver := func(e *convai.Engine) error { return e.Handle(context.Background(), u) }
				for attempt := 0; ; attempt++ {
					e := engines[rng.IntN(2)]
					var err error
					if rng.IntN(5) == 0 { // the same update twice at once
						dupNow.Add(1)
						var wg sync.WaitGroup
						var other error
						wg.Go(func() { other = deliver(engines[0]) })
						err = deliver(engines[1])
						wg.Wait()
						err = errors.Join(err, other)
					} else {
						err = deliver(e)
					}
					if err == nil {
						break
					}
					if attempt > 200 {
						t.Errorf("chat %d: update %d never succeeded: %v", id, u.UpdateID, err)
						return
					}
					redelivered.Add(1)
					time.Sleep(20 * time.Millisecond)
				}
				if rng.IntN(10) == 0 { // again, later
					dupLate.Add(1)
					_ = deliver(engines[rng.IntN(2)])
				}
			}
		})
	}
	chats.Wait()

	// Let the sweepers deliver what senders gave up on.
	want := cfg.Messages + 1
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) && !api.complete(want) {
		time.Sleep(50 * time.Millisecond)
	}
	stop()
	bg.Wait()

	t.Logf("faults: %s; store pauses %d; duplicates at once %d, later %d; redeliveries %d; delivered by sweeps %d",
		api.summary(), store.pauses.Load(), dupNow.Load(), dupLate.Load(), redelivered.Load(), swept.Load())
	for _, id := range api.check(t, want) {
		if c, err := store.Store.Load(context.Background(), id); err == nil {
			t.Logf("chat %d as received: %s", id, api.transcript(id))
			t.Logf("chat %d as stored: head %+v", id, c.Head)
			for _, r := range c.Records {
				t.Logf("  record %d.%d %s %q lease %s until %s", r.Session, r.Seq, r.Kind, r.Partner, r.Lease.Owner, r.Lease.Until.Format(time.StampMilli))
			}
			for _, line := range api.logOf(id) {
				t.Logf("  log: %s", line)
			}
		}
	}
}

// engineLog is the engines' log: it keeps their warnings and errors by
// chat, for the report of a chat that fails, and tells the Bot API of each
// delivery a sender could not record (the store failed until the sender's
// time ran out): that sender's copy, the last the chat received, may be
// sent again once its lease expires — the named duplicate's other form
// (docs/delivery.md's "died between sending and recording it"). The engines add
// no attributes or groups of their own.
type engineLog struct{ api *faultyBotAPI }

func (engineLog) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelWarn }

func (h engineLog) Handle(_ context.Context, r slog.Record) error {
	var chat int64
	line := r.Level.String() + " " + r.Message
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "chat" && a.Value.Kind() == slog.KindInt64 {
			chat = a.Value.Int64()
		}
		line += " " + a.String()
		return true
	})
	h.api.logged(chat, line, r.Level >= slog.LevelError && r.Message == "record delivery")
	return nil
}

func (h engineLog) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h engineLog) WithGroup(string) slog.Handler      { return h }

// sleepOrDone waits d and reports true, or false once ctx is done.
func sleepOrDone(ctx context.Context, d time.Duration) bool {
	select {
	case <-ctx.Done():
		return false
	case <-time.After(d):
		return true
	}
}

// pausingStore fails every call while paused, as a store unreachable for
// a moment does.
type pausingStore struct {
	convai.Store
	paused atomic.Bool
	pauses atomic.Int64
}

var errPaused = errors.New("store unreachable (paused by the test)")

func (s *pausingStore) pauseNowAndThen(ctx context.Context) {
	for sleepOrDone(ctx, 200*time.Millisecond) {
		s.paused.Store(true)
		s.pauses.Add(1)
		sleepOrDone(ctx, 40*time.Millisecond)
		s.paused.Store(false)
	}
}

func (s *pausingStore) check() error {
	if s.paused.Load() {
		time.Sleep(2 * time.Millisecond)
		return errPaused
	}
	return nil
}

func (s *pausingStore) Load(ctx context.Context, id int64) (*convai.Chat, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	return s.Store.Load(ctx, id)
}

func (s *pausingStore) Append(ctx context.Context, id int64, r *convai.Record) error {
	if err := s.check(); err != nil {
		return err
	}
	return s.Store.Append(ctx, id, r)
}

func (s *pausingStore) Claim(ctx context.Context, id, session, seq int64, l convai.Lease, now time.Time) error {
	if err := s.check(); err != nil {
		return err
	}
	return s.Store.Claim(ctx, id, session, seq, l, now)
}

func (s *pausingStore) Commit(ctx context.Context, h convai.Head, prev int64) error {
	if err := s.check(); err != nil {
		return err
	}
	return s.Store.Commit(ctx, h, prev)
}
