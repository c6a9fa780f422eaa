package main

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/duetbot/duet/shared/brain/offline"
	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/convai/convaitest"
	"github.com/duetbot/duet/shared/store/memstore"
)

// TestScheduledEvent decodes events/sweeper-schedule.json as Lambda does and
// runs one sweep: the idle chat is ended once, the active one is left alone.
func TestScheduledEvent(t *testing.T) {
	b, err := os.ReadFile("../../events/sweeper-schedule.json")
	if err != nil {
		t.Fatal(err)
	}
	var ev events.EventBridgeEvent
	if err := json.Unmarshal(b, &ev); err != nil {
		t.Fatalf("decode event: %v", err)
	}
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	rec := &convaitest.Outbox{}
	brain := offline.New()
	engine := &convai.Engine{
		Store: memstore.New(memstore.WithClock(clock)), Sender: rec, Replier: brain, Evaluator: brain,
		IdleTimeout: 5 * time.Minute, Now: clock, Log: slog.New(slog.DiscardHandler),
	}
	ctx := context.Background()
	for _, u := range []convai.Update{{ChatID: 1, Text: "/start a quiet chat"}, {ChatID: 1, Text: "Hello, how are you today?"}} {
		if err := engine.Handle(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	now = now.Add(4 * time.Minute)
	if err := engine.Handle(ctx, convai.Update{ChatID: 2, Text: "/start a lively chat"}); err != nil {
		t.Fatal(err)
	}
	now = now.Add(2 * time.Minute)

	h := sweeper{engine: engine, log: slog.New(slog.DiscardHandler)}
	res, err := h.Handle(ctx, ev)
	if err != nil {
		t.Fatal(err)
	}
	if res.Ended != 1 {
		t.Fatalf("sweep ended %d chats, want 1", res.Ended)
	}
	sent := rec.Of(1)
	if final, err := convai.Validate(sent[len(sent)-1], true); !final || err != nil {
		t.Errorf("idle chat's last message %s: want a valid /end (%v)", sent[len(sent)-1], err)
	}
	if len(rec.Of(2)) != 0 {
		t.Errorf("active chat got %q, want nothing", rec.Of(2))
	}
	if res, _ := h.Handle(ctx, ev); res.Ended != 0 {
		t.Errorf("second sweep ended %d chats, want 0", res.Ended)
	}
}
