package convai_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/brain/offline"
	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/convai/convaitest"
	"github.com/duetbot/duet/shared/store/memstore"
)

// TestNeverRepeatsAReply: 25 near-identical partner messages in one chat,
// far past the Window of records a Load returns, never get a reply the
// bot already sent in that chat, whatever the brain (the offline one, or
// one that always says the same).
func TestNeverRepeatsAReply(t *testing.T) {
	for _, tc := range []struct {
		name    string
		replier brain.Replier
	}{
		{"offline", offline.New()},
		{"parrot", convaitest.Parrot{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := &convaitest.Outbox{}
			e := &convai.Engine{Store: memstore.New(), Sender: out, Replier: tc.replier, Evaluator: convaitest.Echo{},
				Fallback: offline.New(), MaxTurns: 30, Log: slog.New(slog.DiscardHandler)}
			ctx := context.Background()
			msgs := []string{"/start your persona: i like to ski. i have a dog."}
			for i := range 25 {
				msgs = append(msgs, "do you like skiing? "+strings.Repeat("?", i%3))
			}
			for i, text := range msgs {
				if err := e.Handle(ctx, convai.Update{UpdateID: int64(i + 1), ChatID: 7, Text: text}); err != nil {
					t.Fatalf("message %d: %v", i, err)
				}
			}
			seen := map[string]int{}
			sent := out.Of(7)
			if len(sent) != 25 {
				t.Fatalf("sent %d messages, want 25 replies", len(sent))
			}
			for i, m := range sent {
				var r convai.Reply
				if err := json.Unmarshal([]byte(m), &r); err != nil {
					t.Fatalf("reply %d %q: %v", i, m, err)
				}
				key := strings.ToLower(strings.Join(strings.Fields(r.Text), " "))
				if first, dup := seen[key]; dup {
					t.Errorf("reply %d repeats reply %d: %q", i+1, first+1, r.Text)
				}
				seen[key] = i
			}
		})
	}
}
