package clariq

import (
	"context"
	"strings"
	"testing"

	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/brain/offline"
)

// testRanker returns a ranker of the ClariQ bank, or skips.
func testRanker(t testing.TB) *Ranker {
	t.Helper()
	return NewRanker(testBank(t), nil)
}

func TestBrainChat(t *testing.T) {
	b := NewBrain(testRanker(t), offline.New())
	ctx := context.Background()
	tests := []struct {
		name    string
		context string
		turns   []string // alternating, starting with the partner when context is empty
		first   bool     // the bot speaks first (no partner turn yet)
	}{
		{name: "context", context: "I would like to know more about raspberry pi"},
		{name: "bare start", turns: []string{"Tell me about kiwi"}},
		{name: "ambiguous", context: "tell me about memory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := brain.Request{Context: tt.context}
			for i, s := range tt.turns {
				role := brain.Partner
				if tt.context != "" && i%2 == 0 || tt.context == "" && i%2 == 1 {
					role = brain.Bot
				}
				req.Turns = append(req.Turns, brain.Turn{Role: role, Text: s})
			}
			asked := map[string]bool{}
			for n := 0; n < 10; n++ {
				text, end, err := b.ReplyEnd(ctx, req)
				if err != nil {
					t.Fatal(err)
				}
				if text == "" {
					t.Fatal("empty reply")
				}
				t.Logf("bot: %s (end %v)", text, end)
				if end {
					return
				}
				if asked[text] {
					t.Fatalf("asked %q twice", text)
				}
				asked[text] = true
				req.Turns = append(req.Turns, brain.Turn{Role: brain.Bot, Text: text}, brain.Turn{Role: brain.Partner, Text: "no, I want to buy his products"})
			}
			t.Fatal("the chat never ended")
		})
	}
}

// TestBrainUsesAnswers: the reply after the partner answers a question (a
// narrower question, or the closing that restates the need) follows the
// answer.
func TestBrainUsesAnswers(t *testing.T) {
	b := NewBrain(testRanker(t), offline.New())
	base := brain.Request{Context: "Tell me about Obama family tree."}
	q1, _, err := b.ReplyEnd(context.Background(), base)
	if err != nil {
		t.Fatal(err)
	}
	withAnswer := base
	withAnswer.Turns = []brain.Turn{{Role: brain.Bot, Text: q1}, {Role: brain.Partner, Text: "no, I want to know about his children"}}
	q2, end, err := b.ReplyEnd(context.Background(), withAnswer)
	if err != nil {
		t.Fatal(err)
	}
	if !end && q2 == q1 {
		t.Fatalf("asked %q twice", q1)
	}
	// A next question or the closing: either follows the answer.
	if lower := strings.ToLower(q2); !strings.Contains(lower, "child") && !strings.Contains(lower, "kid") && !strings.Contains(lower, "daughter") {
		t.Errorf("reply %q (end %v) does not follow the answer about his children", q2, end)
	}
}
