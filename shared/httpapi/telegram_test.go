package httpapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/brain/offline"
	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/convai/convaitest"
	"github.com/duetbot/duet/shared/httpapi"
	"github.com/duetbot/duet/shared/store/memstore"
)

const secret = "test-webhook-secret-123"

// failingStore is a store whose every call fails, like DynamoDB when down.
type failingStore struct{ convai.Store }

func (failingStore) Load(context.Context, int64) (*convai.Chat, error) {
	return nil, errors.New("dynamodb: connection refused")
}

func newWebhook(t testing.TB, store convai.Store, out convai.Sender) *httpapi.Telegram {
	t.Helper()
	return httpapi.NewTelegram(newEngine(store, out), secret, slog.New(slog.DiscardHandler))
}

func newEngine(store convai.Store, out convai.Sender) *convai.Engine {
	b := offline.New()
	return &convai.Engine{Store: store, Sender: out, Replier: b, Evaluator: b, Log: slog.New(slog.DiscardHandler)}
}

func request(body, token, method string) events.APIGatewayV2HTTPRequest {
	req := events.APIGatewayV2HTTPRequest{Body: body, Headers: map[string]string{"content-type": "application/json"}}
	if token != "" {
		req.Headers["x-telegram-bot-api-secret-token"] = token
	}
	req.RequestContext.HTTP.Method = method
	return req
}

func update(id, chat int64, text string) string {
	b, _ := json.Marshal(map[string]any{"update_id": id, "message": map[string]any{
		"message_id": id, "chat": map[string]any{"id": chat, "type": "private"}, "date": 1795255200, "text": text}})
	return string(b)
}

func TestWebhookStatuses(t *testing.T) {
	tests := []struct {
		name       string
		store      convai.Store
		req        events.APIGatewayV2HTTPRequest
		wantStatus int
		wantBody   string
	}{
		{"no secret", nil, request(update(1, 1, "/start x"), "", "POST"), 401, "X-Telegram-Bot-Api-Secret-Token"},
		{"wrong secret", nil, request(update(1, 1, "/start x"), "test-webhook-secret-124", "POST"), 401, "missing or wrong"},
		{"wrong method", nil, request("", secret, "GET"), 405, "POST"},
		{"oversized", nil, request(strings.Repeat("x", 1<<20+1), secret, "POST"), 413, "larger than"},
		{"malformed JSON", nil, request(`{"update_id":`, secret, "POST"), 200, `"ok":true`},
		{"not a message", nil, request(`{"update_id":5,"edited_message":{"chat":{"id":1}}}`, secret, "POST"), 200, `"ok":true`},
		{"unknown chat", nil, request(update(2, 77, "hello"), secret, "POST"), 200, `"ok":true`},
		{"store down", failingStore{}, request(update(3, 1, "hello"), secret, "POST"), 503, "load chat"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store := tt.store
			if store == nil {
				store = memstore.New()
			}
			out := &convaitest.Outbox{}
			resp, err := newWebhook(t, store, out).Handle(context.Background(), tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != tt.wantStatus || !strings.Contains(resp.Body, tt.wantBody) {
				t.Errorf("got %d %s, want %d containing %q", resp.StatusCode, resp.Body, tt.wantStatus, tt.wantBody)
			}
			if strings.Contains(resp.Body, "connection refused") {
				t.Errorf("body %s leaks an internal error", resp.Body)
			}
			if len(out.Texts()) != 0 {
				t.Errorf("sent %q, want nothing", out.Texts())
			}
		})
	}
}

func TestWebhookSendFailureIsRetried(t *testing.T) {
	store, out := memstore.New(), &convaitest.Outbox{}
	h := newWebhook(t, store, out)
	ctx := context.Background()
	if resp, _ := h.Handle(ctx, request(update(1, -5, "/start Cats or dogs?"), secret, "POST")); resp.StatusCode != 200 {
		t.Fatalf("/start: %d %s", resp.StatusCode, resp.Body)
	}
	out.Fail(errors.New("telegram: 502"))
	msg := request(update(2, -5, "Dogs, because they are loyal and fun to walk."), secret, "POST")
	if resp, _ := h.Handle(ctx, msg); resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("with Telegram down: %d %s, want 503 so that Telegram retries", resp.StatusCode, resp.Body)
	}
	out.Fail(nil)
	for range 2 { // Telegram's retry, then a duplicate of it
		if resp, _ := h.Handle(ctx, msg); resp.StatusCode != 200 {
			t.Fatalf("retry: %d %s", resp.StatusCode, resp.Body)
		}
	}
	if len(out.Texts()) != 1 {
		t.Fatalf("sent %d messages after the retry, want exactly 1: %q", len(out.Texts()), out.Texts())
	}
	if _, err := convai.Validate(out.Texts()[0], true); err != nil {
		t.Errorf("reply %s: %v", out.Texts()[0], err)
	}
}

// BenchmarkWebhookMessage measures one partner message through the webhook
// handler: embedded store, offline engine, a sender that records nothing.
// Chats are restarted (untimed) every 10 partner messages, so each timed
// message meets a chat of 0..9 earlier turns, whatever b.N is.
func BenchmarkWebhookMessage(b *testing.B) {
	const chats, turns = 1000, 10
	engine := newEngine(memstore.New(memstore.WithTTL(time.Hour)), discard{})
	h := httpapi.NewTelegram(engine, secret, slog.New(slog.DiscardHandler))
	ctx := context.Background()
	var updateID int64
	send := func(chat int64, text string) {
		updateID++
		resp, _ := h.Handle(ctx, request(update(updateID, chat, text), secret, "POST"))
		if resp.StatusCode != 200 {
			b.Fatal(resp.Body)
		}
	}
	lines := []string{
		"I would stay still and let it fly away.",
		"Have you ever been stung by a wasp?",
		"Honestly I am more scared of bees than wasps.",
		"My cat once chased a wasp around the living room.",
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		chat, turn := int64(i%chats), (i/chats)%turns
		if turn == 0 {
			b.StopTimer()
			send(chat, "/start You're watching TV and a wasp crawls on your wrist. What do you do?")
			b.StartTimer()
		}
		send(chat, fmt.Sprintf("%s (%d)", lines[i%len(lines)], i))
	}
}

type discard struct{}

func (discard) Send(context.Context, int64, string) error { return nil }

// refusal is an error the Bot API gives for good (403 "bot was blocked").
type refusal struct{}

func (refusal) Error() string   { return "telegram error 403: Forbidden: bot was blocked by the user" }
func (refusal) Permanent() bool { return true }

// TestWebhookDropsRefusedMessages: a message the server refuses for good is
// dropped, not retried for the life of the session, and the update is
// answered 200 so that Telegram stops retrying it.
func TestWebhookDropsRefusedMessages(t *testing.T) {
	store, out := memstore.New(), &convaitest.Outbox{}
	h := newWebhook(t, store, out)
	ctx := context.Background()
	if resp, _ := h.Handle(ctx, request(update(1, 8, "/start Cats or dogs?"), secret, "POST")); resp.StatusCode != 200 {
		t.Fatalf("/start: %d %s", resp.StatusCode, resp.Body)
	}
	out.Fail(refusal{})
	if resp, _ := h.Handle(ctx, request(update(2, 8, "Dogs, they are loyal."), secret, "POST")); resp.StatusCode != http.StatusOK {
		t.Fatalf("refused send: %d %s, want 200", resp.StatusCode, resp.Body)
	}
	c, err := store.Load(ctx, 8)
	if err != nil {
		t.Fatal(err)
	}
	if last := c.Records[len(c.Records)-1]; c.Head.Sent != last.Seq || !c.Head.Pending.IsZero() {
		t.Errorf("after a permanent refusal: head %+v, newest record %d; want it counted as sent, nothing pending", c.Head, last.Seq)
	}
}

// emptyBrain is a broken reply engine that answers nothing.
type emptyBrain struct{ *offline.Brain }

func (emptyBrain) Reply(context.Context, brain.Request) (string, error) { return "  ", nil }

// TestWebhookInternalErrorIsNotRetried: a bug fails the same way on every
// retry, so the webhook answers 200 and logs it rather than 5xx.
func TestWebhookInternalErrorIsNotRetried(t *testing.T) {
	b := emptyBrain{offline.New()}
	engine := &convai.Engine{Store: memstore.New(), Sender: &convaitest.Outbox{}, Replier: b, Evaluator: b, Log: slog.New(slog.DiscardHandler)}
	h := httpapi.NewTelegram(engine, secret, slog.New(slog.DiscardHandler))
	ctx := context.Background()
	if resp, _ := h.Handle(ctx, request(update(1, 9, "/start x"), secret, "POST")); resp.StatusCode != 200 {
		t.Fatalf("/start: %d", resp.StatusCode)
	}
	if resp, _ := h.Handle(ctx, request(update(2, 9, "hello there"), secret, "POST")); resp.StatusCode != http.StatusOK {
		t.Errorf("update hitting a bug: %d %s, want 200", resp.StatusCode, resp.Body)
	}
}

// handlerFunc adapts a function to httpapi.Handler.
type handlerFunc func(ctx context.Context, u convai.Update) error

func (f handlerFunc) Handle(ctx context.Context, u convai.Update) error { return f(ctx, u) }

// TestWebhookReservesTimeToAnswer: the engine must be done two seconds
// before the request's own deadline, so that the webhook can still answer.
func TestWebhookReservesTimeToAnswer(t *testing.T) {
	for _, tc := range []struct {
		name    string
		timeout time.Duration // 0: no deadline
	}{{"Lambda deadline", 10 * time.Second}, {"no deadline", 0}} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			var want time.Time
			if tc.timeout > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tc.timeout)
				defer cancel()
				d, _ := ctx.Deadline()
				want = d.Add(-2 * time.Second)
			}
			var got time.Time
			var hasDeadline bool
			h := httpapi.NewTelegram(handlerFunc(func(ctx context.Context, u convai.Update) error {
				got, hasDeadline = ctx.Deadline()
				if u.ChatID != 4 || u.Text != "hello" {
					t.Errorf("got update %+v, want chat 4 saying hello", u)
				}
				return nil
			}), secret, slog.New(slog.DiscardHandler))
			resp, err := h.Handle(ctx, request(update(1, 4, "hello"), secret, "POST"))
			if err != nil || resp.StatusCode != http.StatusOK {
				t.Fatalf("got %d %s, %v; want 200", resp.StatusCode, resp.Body, err)
			}
			if hasDeadline != (tc.timeout > 0) || !got.Equal(want) {
				t.Errorf("engine deadline %v (set: %t), want %v", got, hasDeadline, want)
			}
		})
	}
}
