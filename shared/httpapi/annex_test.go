package httpapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/duetbot/duet/shared/annex"
	"github.com/duetbot/duet/shared/duet"
	"github.com/duetbot/duet/shared/httpapi"
	"github.com/duetbot/duet/shared/store/memstore"
)

const testKey = "test-caller-key"

// failingAnnexStore is an annex.Store whose writes fail.
type failingAnnexStore struct{ *memstore.Annex }

func (failingAnnexStore) SaveExchange(context.Context, annex.Exchange) error {
	return errors.New("dynamodb: throttled")
}

// refusingAnnexStore is an annex.Store that refuses every exchange as
// invalid, the way the DynamoDB store reports a ValidationException.
type refusingAnnexStore struct{ *memstore.Annex }

func (refusingAnnexStore) SaveExchange(context.Context, annex.Exchange) error {
	return duet.Wrap(duet.EINVALID, errors.New("ValidationException: Item size has exceeded the maximum allowed size"), "the message is too large to record")
}

func newAnnex(t *testing.T, store annex.Store) *httpapi.Annex {
	t.Helper()
	p, err := annex.NewPersona(context.Background(), annex.PersonaData{Name: "Ada", ID: "U1", Pairs: []annex.Pair{
		{Prompt: "Should we deploy on Friday?", Answer: "Short answer: no. Friday deploys mean weekend pages."},
		{Prompt: "Postgres or DynamoDB?", Answer: "Honestly, Postgres. Boring tech wins."},
	}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	e, err := annex.NewEngine(p, store)
	if err != nil {
		t.Fatal(err)
	}
	h, err := httpapi.NewAnnex(testKey, e, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func event(method, key, body string) events.APIGatewayV2HTTPRequest {
	ev := events.APIGatewayV2HTTPRequest{Headers: map[string]string{"content-type": "application/json"}, Body: body}
	if key != "" {
		ev.Headers["x-caller-key"] = key
	}
	ev.RequestContext.HTTP.Method = method
	return ev
}

func TestNewAnnexRefusesEmptyKey(t *testing.T) {
	p, _ := annex.NewPersona(context.Background(), annex.PersonaData{Name: "Ada"}, nil)
	e, _ := annex.NewEngine(p, memstore.NewAnnex())
	if _, err := httpapi.NewAnnex("", e, nil); err == nil {
		t.Fatal("NewAnnex with an empty key: got nil error, want a refusal")
	}
}

func TestAnnexContract(t *testing.T) {
	valid := `{"context":[],"message":{"from":"U2","id":"m1","text":"@ada should we deploy on Friday?","timestamp":"2024-03-04T09:00:00Z"}}`
	tests := []struct {
		name      string
		method    string
		key       string
		body      string
		status    int
		errSubstr string // in the JSON error, when status is not 200
	}{
		{"valid", "POST", testKey, valid, 200, ""},
		{"missing key", "POST", "", valid, 401, "X-CALLER-KEY"},
		{"wrong key", "POST", "wrong-key", valid, 401, "X-CALLER-KEY"},
		{"key prefix", "POST", testKey[:5], valid, 401, "X-CALLER-KEY"},
		{"GET", "GET", testKey, "", 405, "POST"},
		{"PUT", "PUT", testKey, valid, 405, "POST"},
		{"malformed JSON", "POST", testKey, `{"message": {`, 400, "JSON"},
		{"not an object", "POST", testKey, `[1,2]`, 400, "JSON object"},
		{"missing message", "POST", testKey, `{"context":[]}`, 400, "message is required"},
		{"null message", "POST", testKey, `{"context":[],"message":null}`, 400, "message is required"},
		{"text not a string", "POST", testKey, `{"context":[],"message":{"from":"U2","id":"m1","text":42,"timestamp":"t"}}`, 400, "message.text must be a string"},
		{"text missing", "POST", testKey, `{"context":[],"message":{"from":"U2","id":"m1"}}`, 400, "message.text must be a string"},
		{"context not an array", "POST", testKey, `{"context":{"a":1},"message":{"from":"U2","text":"hi"}}`, 400, "context must be an array"},
		{"from missing", "POST", testKey, `{"message":{"text":"hi"}}`, 400, "message.from is required"},
		{"too large", "POST", testKey, `{"context":[],"message":{"from":"U2","text":"` + strings.Repeat("x", 1<<20) + `"}}`, 413, "larger than"},
		{"conversation as [Conversation]", "POST", testKey, `{"context":[],"conversation":[{"id":"c1","messages":[{"from":"U2","id":"m0","text":"Postgres or DynamoDB?","timestamp":"2024-03-04T08:00:00Z"},{"from":"BOT","id":"m0b","text":"Honestly, Postgres.","timestamp":"2024-03-04T08:00:01Z"}]}],"message":{"from":"U2","id":"m1","text":"and for the audit log?","timestamp":"2024-03-04T09:00:00Z"}}`, 200, ""},
		{"empty text", "POST", testKey, `{"message":{"from":"U2","id":"m1","text":"","timestamp":"t"}}`, 400, "message.text is empty"},
		{"blank text", "POST", testKey, `{"message":{"from":"U2","id":"m1","text":" \n\t ","timestamp":"t"}}`, 400, "message.text is empty"},
		{"text of ~500 KB", "POST", testKey, `{"message":{"from":"U2","id":"m1","text":"` + strings.Repeat("x", 500_000) + `","timestamp":"t"}}`, 400, "message.text is longer than 32768 bytes"},
		{"id of 1,100 characters", "POST", testKey, `{"message":{"from":"U2","id":"` + strings.Repeat("i", 1100) + `","text":"hi","timestamp":"t"}}`, 400, "message.id is longer than 256 bytes"},
		{"long timestamp", "POST", testKey, `{"message":{"from":"U2","id":"m1","text":"hi","timestamp":"` + strings.Repeat("9", 300) + `"}}`, 400, "message.timestamp is longer than 256 bytes"},
		{"long conversation id", "POST", testKey, `{"conversation":[{"id":"` + strings.Repeat("c", 300) + `","messages":[]}],"message":{"from":"U2","id":"m1","text":"hi","timestamp":"t"}}`, 400, "conversation[0].id is longer than 256 bytes"},
		{"users not objects", "POST", testKey, `{"users":[1],"message":{"from":"U2","id":"m1","text":"hi","timestamp":"t"}}`, 400, "users must be an object"},
		{"absent optionals, unknown fields, empty tagged", "POST", testKey, `{"message":{"from":"U2","id":"m1","text":"hello","timestamp":"2024-03-04T09:00:00+02:00","tagged":[],"extra":true},"whatever":1}`, 200, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store := memstore.NewAnnex()
			resp, err := newAnnex(t, store).Handle(context.Background(), event(tt.method, tt.key, tt.body))
			if err != nil {
				t.Fatalf("Handle: %v", err)
			}
			if resp.StatusCode != tt.status {
				t.Fatalf("status: got %d, want %d (body %s)", resp.StatusCode, tt.status, resp.Body)
			}
			if got := resp.Headers["Content-Type"]; got != "application/json" {
				t.Errorf("Content-Type: got %q, want application/json", got)
			}
			var body map[string]any
			if err := json.Unmarshal([]byte(resp.Body), &body); err != nil {
				t.Fatalf("body %q: %v", resp.Body, err)
			}
			if tt.status != http.StatusOK {
				if msg, _ := body["error"].(string); !strings.Contains(msg, tt.errSubstr) {
					t.Errorf("error: got %q, want it to contain %q", msg, tt.errSubstr)
				}
				if store.Count() != 0 {
					t.Errorf("stored: got %d exchanges, want none", store.Count())
				}
				return
			}
			msg, _ := body["message"].(string)
			if strings.TrimSpace(msg) == "" || strings.Contains(msg, "@") {
				t.Errorf("message: got %q, want non-empty text without @mentions", msg)
			}
			if store.Count() != 1 {
				t.Errorf("stored: got %d exchanges, want 1", store.Count())
			}
		})
	}
}

// TestAnnexLearnsFromRequest checks what the bot says, not only that it
// answers: a pair the request itself teaches comes back, in either shape of
// the conversation field, and the person's mentions come back defused.
func TestAnnexLearnsFromRequest(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"conversation as [Message]",
			`{"context":[],"conversation":[{"from":"U2","id":"m0","text":"Which editor do you use?","timestamp":"2024-03-04T08:00:00Z"},{"from":"BOT","id":"m0b","text":"Vim, obviously.","timestamp":"2024-03-04T08:00:01Z"}],"message":{"from":"U3","id":"m1","text":"Which editor do you use these days?","timestamp":"2024-03-04T09:00:00Z"}}`,
			"Vim, obviously."},
		{"conversation as [Conversation]",
			`{"conversation":[{"id":"c1","messages":[{"from":"U2","id":"m0","text":"Which editor do you use?","timestamp":"2024-03-04T08:00:00Z"},{"from":"BOT","id":"m0b","text":"Vim, obviously.","timestamp":"2024-03-04T08:00:01Z"}]}],"message":{"from":"U3","id":"m1","text":"Which editor do you use these days?","timestamp":"2024-03-04T09:00:00Z"}}`,
			"Vim, obviously."},
		{"mentions in a learned answer",
			`{"context":[{"from":"U2","id":"c1","text":"Who owns the billing service?","timestamp":"2024-03-04T08:00:00Z"},{"from":"BOT","id":"c2","text":"Ask <@U02BEN>, cc:@chloe; \"@ben\" and [@dev] know, or @@ada and @Ægir.","timestamp":"2024-03-04T08:00:01Z"}],"message":{"from":"U3","id":"m1","text":"Who owns the billing service now?","timestamp":"2024-03-04T09:00:00Z"}}`,
			`Ask U02BEN, cc:chloe; "ben" and [dev] know, or ada and Ægir.`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store := memstore.NewAnnex()
			resp, err := newAnnex(t, store).Handle(context.Background(), event("POST", testKey, tt.body))
			if err != nil {
				t.Fatal(err)
			}
			var body map[string]string
			if err := json.Unmarshal([]byte(resp.Body), &body); err != nil || resp.StatusCode != http.StatusOK {
				t.Fatalf("got %d %s, want 200 and a JSON message", resp.StatusCode, resp.Body)
			}
			if body["message"] != tt.want {
				t.Errorf("message: got %q, want %q", body["message"], tt.want)
			}
			if store.Count() != 1 {
				t.Errorf("stored: got %d exchanges, want 1", store.Count())
			}
		})
	}
}

func TestAnnexStoreFailure(t *testing.T) {
	h := newAnnex(t, failingAnnexStore{memstore.NewAnnex()})
	resp, err := h.Handle(context.Background(), event("POST", testKey, `{"context":[],"message":{"from":"U2","id":"m1","text":"Friday deploy?","timestamp":"t"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || !strings.Contains(resp.Body, `"message"`) {
		t.Errorf("got %d %s; want the reply (200) when the exchange cannot be stored: recording is best effort", resp.StatusCode, resp.Body)
	}
	if strings.Contains(resp.Body, "throttled") {
		t.Errorf("body %s leaks the internal error", resp.Body)
	}
}

func TestAnnexStoreRefusal(t *testing.T) {
	h := newAnnex(t, refusingAnnexStore{memstore.NewAnnex()})
	resp, err := h.Handle(context.Background(), event("POST", testKey, `{"context":[],"message":{"from":"U2","id":"m1","text":"Friday deploy?","timestamp":"t"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || !strings.Contains(resp.Body, `"message"`) || strings.Contains(resp.Body, "ValidationException") {
		t.Errorf("got %d %s, want the reply (200) although the store refused the record, without internals", resp.StatusCode, resp.Body)
	}
}
