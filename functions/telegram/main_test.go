package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/duetbot/duet/shared/app"
	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/config"
	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/httpapi"
	"github.com/duetbot/duet/shared/store/memstore"
)

// botAPI is a fake Telegram Bot API that records sendMessage calls and
// answers in Telegram's wrapped format.
type botAPI struct {
	mu   sync.Mutex
	sent []string
}

func (b *botAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		ChatID int64  `json:"chat_id"`
		Text   string `json:"text"`
	}
	body, _ := io.ReadAll(r.Body)
	if r.URL.Path != "/botlocal/sendMessage" || json.Unmarshal(body, &req) != nil {
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, `{"ok":false,"error_code":400,"description":"Bad Request"}`)
		return
	}
	b.mu.Lock()
	b.sent = append(b.sent, req.Text)
	b.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"ok": true, "result": map[string]any{
		"message_id": len(b.sent), "chat": map[string]any{"id": req.ChatID}, "date": 1795255200, "text": req.Text}})
}

func loadEvent(t *testing.T, name string) events.APIGatewayV2HTTPRequest {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "events", name))
	if err != nil {
		t.Fatal(err)
	}
	var ev events.APIGatewayV2HTTPRequest
	if err := json.Unmarshal(b, &ev); err != nil {
		t.Fatalf("decode %s: %v", name, err)
	}
	return ev
}

// TestSampleEvents invokes the handler with each file of events/ the way
// `sam local invoke -e` does, in the order of a chat.
func TestSampleEvents(t *testing.T) {
	api := &botAPI{}
	srv := httptest.NewServer(api)
	defer srv.Close()
	cfg, err := config.Load(func(k string) (string, bool) {
		v, ok := map[string]string{
			"TELEGRAM_API_URL":        srv.URL,
			"TELEGRAM_BOT_TOKEN":      "local",
			"TELEGRAM_WEBHOOK_SECRET": "sample-webhook-secret-0001",
		}[k]
		return v, ok
	})
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.DiscardHandler)
	tg, err := app.TelegramClient(cfg, log)
	if err != nil {
		t.Fatal(err)
	}
	engine := app.ConvAIEngine(cfg, memstore.New(), tg, app.OfflineBrains(), log)
	h := httpapi.NewTelegram(engine, cfg.TelegramWebhookSecret, log)

	steps := []struct {
		file       string
		wantStatus int
		wantSent   int // messages sent so far
	}{
		{"telegram-wrong-secret.json", http.StatusUnauthorized, 0},
		{"telegram-malformed.json", http.StatusOK, 0},
		{"telegram-start.json", http.StatusOK, 0},
		{"telegram-begin.json", http.StatusOK, 1},
		{"telegram-message.json", http.StatusOK, 2},
		{"telegram-message.json", http.StatusOK, 2}, // Telegram's re-delivery: no second reply
		{"telegram-end.json", http.StatusOK, 3},
		// A ConvAI2 chat of the 2018 router: a profile, then its evaluation request.
		{"telegram-convai2-start.json", http.StatusOK, 3},
		{"telegram-convai2-message.json", http.StatusOK, 4},
		{"telegram-convai2-end.json", http.StatusOK, 5},
	}
	for _, s := range steps {
		resp, err := h.Handle(context.Background(), loadEvent(t, s.file))
		if err != nil {
			t.Fatalf("%s: handler error %v", s.file, err)
		}
		if resp.StatusCode != s.wantStatus {
			t.Errorf("%s: status %d, want %d (body %s)", s.file, resp.StatusCode, s.wantStatus, resp.Body)
		}
		api.mu.Lock()
		n := len(api.sent)
		api.mu.Unlock()
		if n != s.wantSent {
			t.Fatalf("%s: %d messages sent, want %d", s.file, n, s.wantSent)
		}
	}
	finals := map[int]bool{2: true, 4: true}
	for i, msg := range api.sent {
		final, err := convai.Validate(msg, i > 0)
		if err != nil {
			t.Errorf("message %d %s: %v", i, msg, err)
		}
		if final != finals[i] {
			t.Errorf("message %d %s: final=%v", i, msg, final)
		}
	}
	// The router's final: a score in 1..5 and a guess among its two profiles.
	if err := convai.CheckJudged(api.sent[4], brain.Judge{Min: 1, Max: 5, Profiles: [][]string{{"a"}, {"b"}}}); err != nil {
		t.Errorf("final %s for the router: %v", api.sent[4], err)
	}
}

func TestWebhookSecretRequired(t *testing.T) {
	tests := []struct {
		name     string
		env      map[string]string
		wantErr  bool
		wantWarn bool
	}{
		{name: "secret", env: map[string]string{"TELEGRAM_WEBHOOK_SECRET": "sample-webhook-secret-0001"}},
		{name: "no secret", wantErr: true},
		{name: "no secret, opt-out 0", env: map[string]string{"TELEGRAM_WEBHOOK_INSECURE": "0"}, wantErr: true},
		{name: "no secret, explicit opt-out", env: map[string]string{"TELEGRAM_WEBHOOK_INSECURE": "1"}, wantWarn: true},
		{name: "secret and opt-out", env: map[string]string{"TELEGRAM_WEBHOOK_SECRET": "sample-webhook-secret-0001", "TELEGRAM_WEBHOOK_INSECURE": "1"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := config.Load(func(k string) (string, bool) { v, ok := tc.env[k]; return v, ok })
			if err != nil {
				t.Fatal(err)
			}
			var logs strings.Builder
			err = checkWebhookSecret(cfg, slog.New(slog.NewTextHandler(&logs, nil)))
			if (err != nil) != tc.wantErr {
				t.Errorf("got error %v, want error %v", err, tc.wantErr)
			}
			if warned := strings.Contains(logs.String(), "level=WARN"); warned != tc.wantWarn {
				t.Errorf("got warning %v (logs %q), want %v", warned, logs.String(), tc.wantWarn)
			}
		})
	}
}

// TestSampleEnvStarts keeps events/env.json usable with `sam local invoke`:
// the function it configures must start.
func TestSampleEnvStarts(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "events", "env.json"))
	if err != nil {
		t.Fatal(err)
	}
	var env map[string]map[string]string
	if err := json.Unmarshal(b, &env); err != nil {
		t.Fatalf("decode env.json: %v", err)
	}
	vars := env["TelegramFunction"]
	cfg, err := config.Load(func(k string) (string, bool) { v, ok := vars[k]; return v, ok })
	if err != nil {
		t.Fatal(err)
	}
	if err := checkWebhookSecret(cfg, slog.New(slog.DiscardHandler)); err != nil {
		t.Errorf("events/env.json: %v", err)
	}
}
