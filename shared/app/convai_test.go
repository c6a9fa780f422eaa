package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/duetbot/duet/shared/config"
	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/convai/convaitest"
	"github.com/duetbot/duet/shared/store/dynamo"
	"github.com/duetbot/duet/shared/store/dynamo/dynamotest"
	"github.com/duetbot/duet/shared/store/memstore"
)

// botAPI is a fake Telegram Bot API speaking the real wire format: it
// records each sendMessage and answers {"ok":true,"result":Message}.
type botAPI struct {
	mu   sync.Mutex
	sent []sent
	// limited, while set, answers every sendMessage 429 with a retry_after
	// longer than the client waits, so the send fails retryably at once.
	limited bool
}

type sent struct {
	ChatID int64  `json:"chat_id"`
	Text   string `json:"text"`
}

func (b *botAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req sent
	body, _ := io.ReadAll(r.Body)
	if r.Method != http.MethodPost || r.URL.Path != "/bottest-token/sendMessage" || json.Unmarshal(body, &req) != nil {
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, `{"ok":false,"error_code":400,"description":"Bad Request: wrong path or body"}`)
		return
	}
	b.mu.Lock()
	if b.limited {
		b.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = io.WriteString(w, `{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 3600","parameters":{"retry_after":3600}}`)
		return
	}
	b.sent = append(b.sent, req)
	n := len(b.sent)
	b.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"ok": true, "result": map[string]any{
		"message_id": n, "chat": map[string]any{"id": req.ChatID, "type": "private"}, "date": 1795255200, "text": req.Text}})
}

func (b *botAPI) setLimited(on bool) { b.mu.Lock(); b.limited = on; b.mu.Unlock() }

func (b *botAPI) messages() []sent {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]sent(nil), b.sent...)
}

// TestStoresEmbedded: without SESSIONS_TABLE the stores are the embedded
// ones, bounded as configured, logging their evictions through the
// command's logger (in its format, not the standard library's).
func TestStoresEmbedded(t *testing.T) {
	var logged bytes.Buffer
	log := CLILogger(&logged, slog.LevelInfo)
	cfg := config.Config{SessionTTL: time.Hour, LocalMaxChats: 1, LocalMaxBytes: config.DefaultLocalMaxBytes}
	chats, exchanges, err := Stores(context.Background(), cfg, log)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := chats.(*memstore.Store); !ok {
		t.Errorf("chats store %T, want the embedded memstore without SESSIONS_TABLE", chats)
	}
	if _, ok := exchanges.(*memstore.Annex); !ok {
		t.Errorf("annex store %T, want the embedded one", exchanges)
	}
	e := &convai.Engine{Store: chats, Sender: &convaitest.Outbox{}, Replier: convaitest.Echo{}, Evaluator: convaitest.Echo{}, Log: log}
	for id := range int64(2) {
		if err := e.Handle(context.Background(), convai.Update{ChatID: id + 1, Text: "/start"}); err != nil {
			t.Fatal(err)
		}
	}
	if got := logged.String(); !strings.HasPrefix(got, "time=") || !strings.Contains(got, "level=WARN msg=\"embedded store full") || !strings.Contains(got, "max_chats=1") {
		t.Errorf("logged %q, want the eviction in the CLI logger's format", got)
	}
}

func TestConvAINeedsTableAndToken(t *testing.T) {
	ctx := context.Background()
	if _, err := ConvAI(ctx, config.Config{TelegramBotToken: "x"}, OfflineBrains(), slog.New(slog.DiscardHandler)); err == nil || !strings.Contains(err.Error(), "SESSIONS_TABLE is not set") {
		t.Errorf("ConvAI without a table: %v, want SESSIONS_TABLE is not set", err)
	}
	if _, err := DynamoStore(ctx, config.Config{}); err == nil {
		t.Error("DynamoStore without a table: no error")
	}
	cfg := config.Config{SessionsTable: "t", DynamoDBEndpoint: "http://127.0.0.1:1", TelegramAPIURL: "http://127.0.0.1:1"}
	if _, err := ConvAI(ctx, cfg, OfflineBrains(), slog.New(slog.DiscardHandler)); err == nil || !strings.Contains(err.Error(), "TELEGRAM_BOT_TOKEN") {
		t.Errorf("ConvAI without a token: %v, want an error naming TELEGRAM_BOT_TOKEN", err)
	}
}

// TestConvAIOnDynamo is the deployed webhook function's wiring: app.ConvAI
// with DynamoDB (DYNAMODB_ENDPOINT: moto or dynalite) and the real
// Telegram client against a fake Bot API. Exactly one reply per message,
// in order; a redelivered update and Engine.Deliver send nothing more;
// a Stores pair on the table shares it.
func TestConvAIOnDynamo(t *testing.T) {
	ctx := context.Background()
	engine, api, cfg := engineOnDynamo(t, "app-wiring")
	updates := []convai.Update{
		{UpdateID: 1, ChatID: 7, Text: "/start i like to ride horses.\ni help tend the fields."},
		{UpdateID: 2, ChatID: 7, Text: "hi! do you have any pets?"},
		{UpdateID: 3, ChatID: 7, Text: "i have two cats. what do you do all day?"},
		{UpdateID: 3, ChatID: 7, Text: "i have two cats. what do you do all day?"}, // redelivered
	}
	for _, u := range updates {
		if err := engine.Handle(ctx, u); err != nil {
			t.Fatalf("update %d: %v", u.UpdateID, err)
		}
	}
	if err := engine.Deliver(ctx, 7); err != nil {
		t.Fatalf("Deliver: %v", err)
	}
	got := api.messages()
	if len(got) != 2 {
		t.Fatalf("sent %d messages, want exactly 2 (one per partner message): %+v", len(got), got)
	}
	for i, m := range got {
		var r convai.Reply
		if m.ChatID != 7 || json.Unmarshal([]byte(m.Text), &r) != nil || r.Text == "" || r.Evaluation == nil || r.MsgEvaluation == nil {
			t.Errorf("message %d = %+v: want a rated JSON reply to chat 7", i, m)
		}
	}
	if err := engine.Handle(ctx, convai.Update{UpdateID: 4, ChatID: 7, Text: "/end"}); err != nil {
		t.Fatal(err)
	}
	got = api.messages()
	if final, err := convai.Validate(got[len(got)-1].Text, true); len(got) != 3 || !final || err != nil {
		t.Errorf("after /end: %d messages, last %q (%v); want 3, the last a valid final", len(got), got[len(got)-1].Text, err)
	}

	chats, exchanges, err := Stores(ctx, cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := exchanges.(*dynamo.Store); !ok {
		t.Fatalf("annex store %T, want the same DynamoDB store", exchanges)
	}
	chat, err := chats.Load(ctx, 7)
	if err != nil {
		t.Fatalf("the chat is not in %s: %v", cfg.SessionsTable, err)
	}
	if chat.Head.Status != convai.Ended {
		t.Errorf("stored chat status %q, want %q", chat.Head.Status, convai.Ended)
	}
}

// TestDeliverOnDynamo: with the deployed wiring (DynamoDB, the real
// Telegram client), a reply the Bot API refused is kept, Handle says it is
// undelivered, and Engine.Deliver sends exactly it, once, when the API is
// back; a second Deliver sends nothing.
func TestDeliverOnDynamo(t *testing.T) {
	ctx := context.Background()
	engine, api, _ := engineOnDynamo(t, "app-deliver")
	if err := engine.Handle(ctx, convai.Update{UpdateID: 1, ChatID: 8, Text: "/start i like to ride horses."}); err != nil {
		t.Fatal(err)
	}
	api.setLimited(true)
	err := engine.Handle(ctx, convai.Update{UpdateID: 2, ChatID: 8, Text: "hi! do you have any pets?"})
	if !errors.Is(err, convai.ErrUndelivered) {
		t.Fatalf("Handle while the Bot API refuses: %v, want ErrUndelivered", err)
	}
	if got := api.messages(); len(got) != 0 {
		t.Fatalf("sent %d messages while refused, want none", len(got))
	}
	api.setLimited(false)
	if err := engine.Deliver(ctx, 8); err != nil {
		t.Fatalf("Deliver: %v", err)
	}
	got := api.messages()
	if len(got) != 1 {
		t.Fatalf("Deliver sent %d messages, want exactly the 1 kept: %+v", len(got), got)
	}
	var r convai.Reply
	if got[0].ChatID != 8 || json.Unmarshal([]byte(got[0].Text), &r) != nil || r.Text == "" || r.MsgEvaluation == nil {
		t.Errorf("delivered %+v: want the rated reply to chat 8", got[0])
	}
	if err := engine.Deliver(ctx, 8); err != nil {
		t.Fatalf("second Deliver: %v", err)
	}
	if n := len(api.messages()); n != 1 {
		t.Errorf("after a second Deliver: %d messages, want still 1", n)
	}
}

// engineOnDynamo builds the ConvAI engine as the Lambda does (app.ConvAI)
// on a new table of the moto or dynalite at DYNAMODB_ENDPOINT, with a fake
// Bot API; it skips the test without DYNAMODB_ENDPOINT.
func engineOnDynamo(t *testing.T, prefix string) (*convai.Engine, *botAPI, config.Config) {
	t.Helper()
	endpoint := dynamotest.Endpoint(t)
	ctx := context.Background()
	table := fmt.Sprintf("%s-%d", prefix, time.Now().UnixNano())
	client, err := dynamo.NewClient(ctx, endpoint)
	if err != nil {
		t.Fatal(err)
	}
	if err := dynamo.CreateTable(ctx, client, table); err != nil {
		t.Fatal(err)
	}
	api := &botAPI{}
	srv := httptest.NewServer(api)
	t.Cleanup(srv.Close)
	cfg := config.Config{
		SessionsTable: table, DynamoDBEndpoint: endpoint, SessionTTL: time.Hour,
		TelegramAPIURL: srv.URL, TelegramBotToken: "test-token",
		ChatMaxTurns: 10, DeliveryTimeout: 10 * time.Second,
	}
	engine, err := ConvAI(ctx, cfg, OfflineBrains(), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	return engine, api, cfg
}
