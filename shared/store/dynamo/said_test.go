package dynamo_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"testing"

	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/convai/convaitest"
	"github.com/duetbot/duet/shared/store/dynamo"
)

// TestNeverRepeatsOnDynamoDB: the hashes of the replies sent ride in the
// chat's head through DynamoDB, so that 25 near-identical messages, far
// past the Window of records a Load returns, never get a reply twice.
func TestNeverRepeatsOnDynamoDB(t *testing.T) {
	c := client(t)
	store := dynamo.New(c, freshTable(t, c))
	out := &convaitest.Outbox{}
	e := &convai.Engine{Store: store, Sender: out, Replier: convaitest.Parrot{}, Evaluator: convaitest.Echo{},
		MaxTurns: 30, Log: slog.New(slog.DiscardHandler)}
	ctx := context.Background()
	if err := e.Handle(ctx, convai.Update{UpdateID: 1, ChatID: 9, Text: "/start"}); err != nil {
		t.Fatal(err)
	}
	for i := range 25 {
		if err := e.Handle(ctx, convai.Update{UpdateID: int64(i + 2), ChatID: 9, Text: "do you like skiing?"}); err != nil {
			t.Fatalf("message %d: %v", i+1, err)
		}
	}
	seen := map[string]int{}
	for i, m := range out.Of(9) {
		var r convai.Reply
		if err := json.Unmarshal([]byte(m), &r); err != nil {
			t.Fatalf("reply %d %q: %v", i+1, m, err)
		}
		if first, dup := seen[r.Text]; dup {
			t.Errorf("reply %d repeats reply %d: %q", i+1, first+1, r.Text)
		}
		seen[r.Text] = i
	}
	if len(seen) != 25 {
		t.Errorf("%d distinct replies, want 25", len(seen))
	}
	chat, err := store.Load(ctx, 9)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(chat.Head.Said); n != 25 {
		t.Errorf("the head holds %d reply hashes, want 25, one for each reply", n)
	}
}
