package chat

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/duetbot/duet/shared/convaisim"
)

// TestSessionReportsViolations plays a chat against a bot that answers
// every partner message with plain text, not the protocol's JSON, and
// never sends a final: the session says so, line by line, and counts it.
func TestSessionReportsViolations(t *testing.T) {
	var apiURL atomic.Pointer[string]
	const token = "123:test"
	bot := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var u struct {
			Message struct {
				Chat struct{ ID int64 } `json:"chat"`
				Text string             `json:"text"`
			} `json:"message"`
		}
		if err := json.NewDecoder(r.Body).Decode(&u); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.WriteHeader(http.StatusOK)
		if strings.HasPrefix(u.Message.Text, "/start") || strings.HasPrefix(u.Message.Text, "/end") {
			return
		}
		body, _ := json.Marshal(map[string]any{"chat_id": u.Message.Chat.ID, "text": "plain words"})
		resp, err := http.Post(*apiURL.Load()+"/bot"+token+"/sendMessage", "application/json", bytes.NewReader(body))
		if err == nil {
			resp.Body.Close()
		}
	}))
	defer bot.Close()
	server, err := convaisim.NewServer(convaisim.Config{Mode: convaisim.ModeWebhook, WebhookURL: bot.URL, Token: token,
		Chats: 1, ReplyTimeout: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	url, stop, err := server.Listen()
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	apiURL.Store(&url)
	var out, info bytes.Buffer
	s := NewSession(server, Options{Dialect: convaisim.DialectTelegram, Context: "a wasp", JSON: true, Out: &out, Info: &info})
	if err := s.Run(context.Background(), strings.NewReader("hello\n")); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(out.String()); got != "plain words" {
		t.Errorf("-json printed %q, want the bot's message as sent", got)
	}
	for _, want := range []string{"PROTOCOL: invalid reply", "PROTOCOL: no final /end evaluation"} {
		if !strings.Contains(info.String(), want) {
			t.Errorf("notes lack %q:\n%s", want, info.String())
		}
	}
	if s.Violations() < 2 {
		t.Errorf("%d violations counted, want at least 2", s.Violations())
	}
	if chats := s.Chats(); len(chats) != 1 || chats[0].Final != nil || len(chats[0].Turns) != 1 || chats[0].Turns[0].Partner != "hello" {
		t.Errorf("chats: %+v", chats)
	}
}
