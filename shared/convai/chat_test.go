package convai

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/duetbot/duet/shared/brain"
)

// TestChatStaysSmall fills a chat with the largest turns Telegram allows,
// in 4-byte characters: the stored chat must stay far below DynamoDB's
// 400 KB item limit.
func TestChatStaysSmall(t *testing.T) {
	huge := strings.Repeat("😀", MaxTextLen*2)
	c := &Chat{Context: truncateBytes(huge, maxContextLen)}
	for range 100 {
		c.addTurn(brain.Partner, huge)
		c.addTurn(brain.Bot, huge)
	}
	c.queue(EncodeReply(huge, 5), c.StartedAt)
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 300<<10 {
		t.Errorf("stored chat is %d bytes, want at most 300 KiB", len(b))
	}
	if !utf8.ValidString(c.Context) || len(c.Context) > maxContextLen {
		t.Errorf("context is %d bytes (valid UTF-8: %v), want at most %d", len(c.Context), utf8.ValidString(c.Context), maxContextLen)
	}
	if len(c.Turns) == 0 || c.Turns[len(c.Turns)-1].Role != brain.Bot {
		t.Errorf("the newest turns were dropped: %d turns left", len(c.Turns))
	}
}
