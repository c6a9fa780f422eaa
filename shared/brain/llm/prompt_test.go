package llm

import (
	"strings"
	"testing"

	"github.com/duetbot/duet/shared/brain"
)

func TestReplyPromptClosing(t *testing.T) {
	req := brain.Request{Context: "A wasp on your wrist.", Turns: []brain.Turn{{Role: brain.Partner, Text: "Bye!"}}}
	if got := replyPrompt(req).System; strings.Contains(got, "last message") {
		t.Errorf("prompt of an ongoing chat asks to take leave:\n%s", got)
	}
	req.Closing = true
	if got := replyPrompt(req).System; !strings.Contains(got, "last message") || !strings.Contains(got, "Take leave") {
		t.Errorf("prompt of a closing reply does not ask to take leave:\n%s", got)
	}
}
