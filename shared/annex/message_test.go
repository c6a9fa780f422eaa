package annex

import (
	"fmt"
	"strings"
	"testing"

	"github.com/duetbot/duet/shared/duet"
)

func TestParseRequestShapes(t *testing.T) {
	tests := []struct {
		name      string
		body      string
		convs     int
		history   int
		convID    string
		timestamp string
	}{
		{"minimal", `{"message":{"from":"U2","id":"m1","text":"hi","timestamp":"2024-03-04T09:00:00.123+02:00"}}`, 0, 0, "msg-m1", "2024-03-04T09:00:00.123+02:00"},
		{"[Conversation]", `{"context":[{"from":"U3","id":"c1","text":"x","timestamp":"t"}],"conversation":[{"id":"conv-1","messages":[{"from":"U2","id":"a","text":"q","timestamp":"t"},{"from":"BOT","id":"b","text":"r","timestamp":"t"}]}],"message":{"from":"U2","id":"m1","text":"hi","timestamp":"t"}}`, 1, 3, "conv-1", "t"},
		{"flat [Message]", `{"context":[],"conversation":[{"from":"U2","id":"a","text":"q","timestamp":"t"},{"from":"BOT","id":"b","text":"r","timestamp":"t"}],"message":{"from":"U2","id":"m1","text":"hi","timestamp":"t"}}`, 1, 2, "msg-m1", "t"},
		{"null optionals", `{"context":null,"conversation":null,"users":null,"message":{"from":"U2","id":"m1","text":"hi","timestamp":"t","tagged":null}}`, 0, 0, "msg-m1", "t"},
		{"context duplicates conversation", `{"context":[{"from":"U2","id":"a","text":"q","timestamp":"t"}],"conversation":[{"from":"U2","id":"a","text":"q","timestamp":"t"}],"message":{"from":"U2","id":"m1","text":"hi","timestamp":"t"}}`, 1, 1, "msg-m1", "t"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := ParseRequest([]byte(tt.body))
			if err != nil {
				t.Fatalf("ParseRequest: %v", err)
			}
			if len(req.Conversation) != tt.convs {
				t.Errorf("conversations: got %d, want %d", len(req.Conversation), tt.convs)
			}
			if got := len(req.History()); got != tt.history {
				t.Errorf("history: got %d messages, want %d", got, tt.history)
			}
			if got := req.ConversationID(); got != tt.convID {
				t.Errorf("conversation id: got %q, want %q", got, tt.convID)
			}
			if req.Message.Timestamp != tt.timestamp {
				t.Errorf("timestamp: got %q, want it kept as sent, %q", req.Message.Timestamp, tt.timestamp)
			}
		})
	}
}

func TestParseRequestErrors(t *testing.T) {
	tests := []struct{ body, want string }{
		{`not json`, "request body must be a JSON object"},
		{`{"context":[]}`, "message is required"},
		{`{"message":"hi"}`, "message must be an object"},
		{`{"message":{"from":"U2","text":["hi"]}}`, "message.text must be a string"},
		{`{"context":"x","message":{"from":"U2","text":"hi"}}`, "context must be an array"},
		{`{"conversation":{"id":"c"},"message":{"from":"U2","text":"hi"}}`, "conversation must be an array"},
		{`{"conversation":[1],"message":{"from":"U2","text":"hi"}}`, "conversation[0] must be an object"},
		{`{"conversation":[{"messages":[{"from":5}]}],"message":{"from":"U2","text":"hi"}}`, "conversation[0].messages.from must be a string"},
		{`{"users":[{"id":5}],"message":{"from":"U2","text":"hi"}}`, "users.id must be a string"},
		{`{"users":[5],"message":{"from":"U2","text":"hi"}}`, "users must be an object"},
		{`{"message":{"from":"U2","text":"hi","tagged":"U1"}}`, "message.tagged must be an array"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			_, err := ParseRequest([]byte(tt.body))
			if duet.Code(err) != duet.EINVALID || !strings.Contains(duet.Message(err), tt.want) {
				t.Errorf("ParseRequest(%s): got %v (code %q), want EINVALID containing %q", tt.body, err, duet.Code(err), tt.want)
			}
		})
	}
}

func TestValidateLimits(t *testing.T) {
	long := strings.Repeat("x", MaxIDBytes+1)
	ok := Message{From: "U2", ID: "m1", Text: "hi", Timestamp: "2024-03-04T09:00:00Z"}
	with := func(f func(*Request)) Request {
		r := Request{Message: ok}
		f(&r)
		return r
	}
	tests := []struct {
		name string
		req  Request
		want string // the whole message; "" when valid
	}{
		{"valid", with(func(*Request) {}), ""},
		{"text at the limit", with(func(r *Request) { r.Message.Text = strings.Repeat("é", MaxTextBytes/2) }), ""},
		{"text too long", with(func(r *Request) { r.Message.Text = strings.Repeat("x", MaxTextBytes+1) }), "message.text is longer than 32768 bytes"},
		{"text of ~500 KB", with(func(r *Request) { r.Message.Text = strings.Repeat("x", 500_000) }), "message.text is longer than 32768 bytes"},
		{"empty text", with(func(r *Request) { r.Message.Text = "" }), "message.text is empty"},
		{"blank text", with(func(r *Request) { r.Message.Text = " \t\n" }), "message.text is empty"},
		{"id at the limit", with(func(r *Request) { r.Message.ID = long[1:] }), ""},
		{"id of 1,100 characters", with(func(r *Request) { r.Message.ID = strings.Repeat("i", 1100) }), "message.id is longer than 256 bytes"},
		{"timestamp", with(func(r *Request) { r.Message.Timestamp = long }), "message.timestamp is longer than 256 bytes"},
		{"from", with(func(r *Request) { r.Message.From = long }), "message.from is longer than 256 bytes"},
		{"tagged id", with(func(r *Request) { r.Message.Tagged = []string{"U1", long} }), "message.tagged[1] is longer than 256 bytes"},
		{"too many tagged", with(func(r *Request) { r.Message.Tagged = make([]string, MaxTagged+1) }), fmt.Sprintf("message.tagged has more than %d ids", MaxTagged)},
		{"conversation id", with(func(r *Request) { r.Conversation = Conversations{{ID: long}} }), "conversation[0].id is longer than 256 bytes"},
		{"conversation message id", with(func(r *Request) {
			r.Conversation = Conversations{{ID: "c", Messages: []Message{ok, {From: "U3", ID: long}}}}
		}), "conversation[0].messages[1].id is longer than 256 bytes"},
		{"context timestamp", with(func(r *Request) { r.Context = []Message{{From: "U3", Timestamp: long}} }), "context[0].timestamp is longer than 256 bytes"},
		{"user id", with(func(r *Request) { r.Users = []User{{ID: long, Username: "ben"}} }), "users[0].id is longer than 256 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.req.Validate()
			if tt.want == "" {
				if err != nil {
					t.Errorf("Validate: got %v, want nil", err)
				}
				return
			}
			if duet.Code(err) != duet.EINVALID || duet.Message(err) != tt.want {
				t.Errorf("Validate: got %v (code %q), want EINVALID %q", err, duet.Code(err), tt.want)
			}
		})
	}
}
