package storetest

import (
	"errors"
	"log/slog"
	"testing"
	"time"

	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/convai/convaitest"
)

func (su suite) engine(t *testing.T) {
	ctx := su.ctx
	clock, s := su.setup(t)
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
}
