package convai_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"testing"

	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/convai/convaitest"
	"github.com/duetbot/duet/shared/store/memstore"
)

// counting replies with how many partner messages the chat has had, as its
// request tells them: those in Turns and those Omitted before them.
type counting struct{ convaitest.Echo }

func (counting) Reply(_ context.Context, r brain.Request) (string, error) {
	n := r.Omitted
	for _, t := range r.Turns {
		if t.Role == brain.Partner {
			n++
		}
	}
	return fmt.Sprintf("partner messages so far: %d", n), nil
}

// TestRequestCountsOmittedTurns: however long the chat, a brain's request
// accounts for every partner message, those in its Turns (the Window) and
// those older than them (Omitted), none twice.
func TestRequestCountsOmittedTurns(t *testing.T) {
	out := &convaitest.Outbox{}
	e := &convai.Engine{Store: memstore.New(), Sender: out, Replier: counting{}, Evaluator: convaitest.Echo{},
		MaxTurns: 100, Log: slog.New(slog.DiscardHandler)}
	ctx := context.Background()
	if err := e.Handle(ctx, convai.Update{UpdateID: 1, ChatID: 3, Text: "/start a wasp on your wrist"}); err != nil {
		t.Fatal(err)
	}
	const messages = 3 * convai.Window
	for i := 1; i <= messages; i++ {
		if err := e.Handle(ctx, convai.Update{UpdateID: int64(i + 1), ChatID: 3, Text: fmt.Sprintf("message %d", i)}); err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
	}
	sent := out.Of(3)
	if len(sent) < messages {
		t.Fatalf("sent %d messages, want at least %d", len(sent), messages)
	}
	for i, m := range sent[len(sent)-messages:] {
		var r convai.Reply
		if err := json.Unmarshal([]byte(m), &r); err != nil {
			t.Fatalf("reply %d %q: %v", i+1, m, err)
		}
		if want := fmt.Sprintf("partner messages so far: %d", i+1); r.Text != want {
			t.Errorf("reply to message %d: %q, want %q", i+1, r.Text, want)
		}
	}
}
