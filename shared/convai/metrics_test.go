package convai_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/duetbot/duet/shared/metrics"
)

// refusal is a Bot API answer that will never change (Telegram's 403 "bot
// was blocked by the user").
type refusal struct{}

func (refusal) Error() string   { return "Forbidden: bot was blocked by the user" }
func (refusal) Permanent() bool { return true }

// TestMetrics drives each path a metric counts: accepted messages, a
// duplicate, replies sent, given up on a failing and a refusing Bot API,
// the reply latency, and chats ended by the partner, the bot and the
// sweeper.
func TestMetrics(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	tally := &metrics.Tally{}
	f.engine.Metrics = tally
	sum := func(n metrics.Name, dims ...metrics.Dimension) float64 { return tally.Sum(n, dims...) }
	want := func(step string, n metrics.Name, v float64, dims ...metrics.Dimension) {
		t.Helper()
		if got := sum(n, dims...); got != v {
			t.Errorf("%s: %s%v = %v, want %v", step, n, dims, got, v)
		}
	}

	mustHandle(t, f, 1, 1, "/start a quiet chat")
	mustHandle(t, f, 1, 2, "hello there")
	want("a message", metrics.PartnerMessages, 2)
	want("a message", metrics.RepliesSent, 1)
	if got := sum(metrics.ReplyLatency); got <= 0 {
		t.Errorf("a message: ReplyLatency = %v, want its reply's latency", got)
	}
	latency := sum(metrics.ReplyLatency)

	mustHandle(t, f, 1, 2, "hello there")
	want("a duplicate", metrics.DuplicatesDropped, 1)
	want("a duplicate", metrics.PartnerMessages, 2)
	want("a duplicate", metrics.RepliesSent, 1)

	f.out.Fail(errors.New("502 Bad Gateway"))
	if err := f.handle(t, 1, 3, "how are you?"); err == nil {
		t.Fatal("Handle with the Bot API down: no error")
	}
	want("the Bot API down", metrics.RepliesGivenUp, 1, metrics.Reason(metrics.GivenUpBotAPI))
	want("the Bot API down", metrics.PartnerMessages, 3)
	if sum(metrics.ReplyLatency) != latency {
		t.Error("the Bot API down: a latency was recorded for a reply not delivered")
	}

	f.out.Fail(refusal{})
	if err := f.engine.Deliver(ctx, 1); err != nil {
		t.Fatalf("Deliver to a refusing Bot API: %v", err)
	}
	want("a refused send", metrics.RepliesGivenUp, 1, metrics.Reason(metrics.GivenUpRefused))
	f.out.Fail(nil)

	mustHandle(t, f, 1, 4, "/end")
	want("/end", metrics.ChatsEnded, 1, metrics.EndedBy(metrics.EndedByPartner))

	mustHandle(t, f, 2, 1, "/start a long chat")
	for i := range int64(5) { // MaxTurns: the bot ends the chat with the fifth
		mustHandle(t, f, 2, 2+i, "one more thing")
	}
	want("the turn limit", metrics.ChatsEnded, 1, metrics.EndedBy(metrics.EndedByBot))

	mustHandle(t, f, 3, 1, "/start an idle chat")
	mustHandle(t, f, 3, 2, "anyone there?")
	f.clock.Advance(10 * time.Minute)
	if _, err := f.engine.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	want("an idle chat", metrics.ChatsEnded, 1, metrics.EndedBy(metrics.EndedBySweeper))
	want("in all", metrics.RepliesGivenUp, 0, metrics.Reason(metrics.GivenUpStore))
	if got := tally.Total(metrics.RepliesSent); got < 10 {
		t.Errorf("RepliesSent = %v in all, want every reply and final", got)
	}
}
