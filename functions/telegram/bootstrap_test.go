package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/duetbot/duet/functions/internal/lambdatest"
)

func TestMain(m *testing.M) { lambdatest.Main(m, main) }

// event returns events/<name>, its chat id replaced by chat and its
// update id by update (when not empty).
func event(t *testing.T, name, chat, update string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "events", name))
	if err != nil {
		t.Fatal(err)
	}
	s := strings.ReplaceAll(string(b), "-1234567890123", chat)
	if update != "" {
		s = strings.ReplaceAll(s, "1000", update)
	}
	return []byte(s)
}

// TestBootstrap runs the function's main as Lambda does, on moto (DynamoDB
// and SSM): its bot token, webhook secret and OpenAI key come from
// SecureString parameters; a chat, a redelivered update, a send the Bot
// API refuses and a model that fails each leave their EMF lines on stdout;
// no secret value is in any line it writes.
func TestBootstrap(t *testing.T) {
	env, prefix := lambdatest.AWS(t)
	const token, secret, key = "4242:bootstrap-TOKEN-value", "sample-webhook-secret-0001", "sk-bootstrap-key-value"
	lambdatest.PutSecureStrings(t, map[string]string{
		"/" + prefix + "/bot-token": token, "/" + prefix + "/webhook-secret": secret, "/" + prefix + "/openai-key": key,
	})

	var mu sync.Mutex
	var sent []string
	botAPI := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ChatID int64  `json:"chat_id"`
			Text   string `json:"text"`
		}
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.URL.Path != "/bot"+token+"/sendMessage" || json.Unmarshal(body, &req) != nil:
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"ok":false,"error_code":404,"description":"Not Found"}`)
		case req.ChatID == -777:
			w.WriteHeader(http.StatusForbidden)
			io.WriteString(w, `{"ok":false,"error_code":403,"description":"Forbidden: bot was blocked by the user"}`)
		default:
			mu.Lock()
			sent = append(sent, req.Text)
			mu.Unlock()
			json.NewEncoder(w).Encode(map[string]any{"ok": true, "result": map[string]any{
				"message_id": 1, "chat": map[string]any{"id": req.ChatID, "type": "private"}, "date": 1795255200, "text": req.Text}})
		}
	}))
	defer botAPI.Close()
	var auth []string
	model := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auth = append(auth, r.Header.Get("Authorization"))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		io.WriteString(w, `{"error":{"message":"The server had an error","type":"server_error"}}`)
	}))
	defer model.Close()

	for k, v := range map[string]string{
		"TELEGRAM_API_URL":                  botAPI.URL,
		"TELEGRAM_BOT_TOKEN_PARAMETER":      prefix + "/bot-token",
		"TELEGRAM_WEBHOOK_SECRET_PARAMETER": prefix + "/webhook-secret",
		"OPENAI_API_KEY_PARAMETER":          prefix + "/openai-key",
		"BRAIN":                             "openai",
		"BRAIN_MODEL":                       "gpt-test",
		"BRAIN_TIMEOUT":                     "2s",
		"OPENAI_BASE_URL":                   model.URL + "/v1",
	} {
		env[k] = v
	}
	res := lambdatest.Run(t, env,
		event(t, "telegram-start.json", "-1234567890123", ""),
		event(t, "telegram-begin.json", "-1234567890123", ""),
		event(t, "telegram-message.json", "-1234567890123", ""),
		event(t, "telegram-message.json", "-1234567890123", ""), // Telegram's redelivery
		event(t, "telegram-start.json", "-777", "2000"),
		event(t, "telegram-message.json", "-777", "2000"), // to a user who blocked the bot
	)
	if res.Exited != nil {
		t.Fatalf("the bootstrap stopped: %v\n%s", res.Exited, res.Output)
	}
	for i, r := range res.Responses {
		if !strings.Contains(r, `"statusCode":200`) {
			t.Errorf("event %d: response %s, want 200", i, r)
		}
	}
	mu.Lock()
	if len(sent) != 2 {
		t.Errorf("the Bot API got %d messages, want 2 (the first line and one reply)", len(sent))
	}
	if len(auth) == 0 || auth[0] != "Bearer "+key {
		t.Errorf("the model was called %d times, first with the key from SSM: %v", len(auth), len(auth) > 0 && auth[0] == "Bearer "+key)
	}
	mu.Unlock()

	got := lambdatest.Metrics(t, res.Output)
	for _, name := range []string{
		"PartnerMessages", "RepliesSent", "ReplyLatency", "DuplicatesDropped",
		"RepliesGivenUp{Reason=refused}", "ModelFallbacks", "PartnerMessages{Function=telegram}",
	} {
		if got[name] <= 0 {
			t.Errorf("no EMF value for %s; metrics %v", name, got)
		}
	}
	if got["PartnerMessages"] != 5 || got["DuplicatesDropped"] != 1 || got["RepliesSent"] != 2 {
		t.Errorf("PartnerMessages %v, DuplicatesDropped %v, RepliesSent %v; want 5, 1, 2", got["PartnerMessages"], got["DuplicatesDropped"], got["RepliesSent"])
	}
	lambdatest.NoSecrets(t, res.Output, token, secret, key)
}

// TestBootstrapMissingParameter: a function whose parameter does not exist
// refuses to start, naming the variable and the parameter.
func TestBootstrapMissingParameter(t *testing.T) {
	env, prefix := lambdatest.AWS(t)
	const secret = "present-webhook-secret-0002"
	lambdatest.PutSecureStrings(t, map[string]string{"/" + prefix + "/webhook-secret": secret})
	env["TELEGRAM_BOT_TOKEN_PARAMETER"] = prefix + "/no-such-token"
	env["TELEGRAM_WEBHOOK_SECRET_PARAMETER"] = prefix + "/webhook-secret"
	res := lambdatest.Run(t, env, event(t, "telegram-start.json", "-1234567890123", ""))
	if res.Exited == nil {
		t.Fatalf("the bootstrap answered %q without its bot token", res.Responses)
	}
	for _, want := range []string{"refusing to start", "TELEGRAM_BOT_TOKEN_PARAMETER", "/" + prefix + "/no-such-token", "ParameterNotFound"} {
		if !strings.Contains(res.Output, want) {
			t.Errorf("output lacks %q:\n%s", want, res.Output)
		}
	}
	lambdatest.NoSecrets(t, res.Output, secret)
}
