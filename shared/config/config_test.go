package config

import (
	"strings"
	"testing"
	"time"
)

func env(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestDefaults(t *testing.T) {
	c, err := Load(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.TelegramAPIURL != DefaultTelegramAPIURL || c.ChatIdleTimeout != 5*time.Minute || c.ChatMaxTurns != 20 ||
		c.SweepInterval != time.Minute || c.SessionTTL != 168*time.Hour || c.Brain != "offline" || c.BrainTimeout != 10*time.Second {
		t.Errorf("defaults = %+v", c)
	}
}

func TestLoad(t *testing.T) {
	c, err := Load(env(map[string]string{
		"TELEGRAM_API_URL":  "http://host/path/{token}/",
		"CHAT_IDLE_TIMEOUT": "90s",
		"CHAT_MAX_TURNS":    "7",
		"BRAIN":             "OpenAI",
		"BRAIN_TIMEOUT":     "3s",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if c.TelegramAPIURL != "http://host/path/{token}" || c.ChatIdleTimeout != 90*time.Second || c.ChatMaxTurns != 7 || c.Brain != "openai" || c.BrainTimeout != 3*time.Second {
		t.Errorf("got %+v", c)
	}
}

func TestLoadReportsEveryBadVariable(t *testing.T) {
	_, err := Load(env(map[string]string{
		"CHAT_IDLE_TIMEOUT": "five minutes",
		"SESSION_TTL":       "-1h",
		"CHAT_MAX_TURNS":    "0",
		"BRAIN":             "telepathy",
	}))
	if err == nil {
		t.Fatal("Load = nil error, want one naming each bad variable")
	}
	for _, name := range []string{"CHAT_IDLE_TIMEOUT", "SESSION_TTL", "CHAT_MAX_TURNS", "BRAIN"} {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("error %q does not name %s", err, name)
		}
	}
}

func TestStringMasksSecrets(t *testing.T) {
	c, _ := Load(env(map[string]string{
		"TELEGRAM_BOT_TOKEN":      "123:token-value",
		"TELEGRAM_WEBHOOK_SECRET": "webhook-secret-value",
		"ANNEX_CALLER_KEY":        "caller-key-value",
		"OPENAI_API_KEY":          "sk-openai-value",
	}))
	s := c.String()
	for _, secret := range []string{"token-value", "webhook-secret-value", "caller-key-value", "sk-openai-value"} {
		if strings.Contains(s, secret) {
			t.Errorf("String() leaks %q: %s", secret, s)
		}
	}
	if !strings.Contains(s, "token=set") {
		t.Errorf("String() = %s, want token=set", s)
	}
}

func TestDeliveryAndLocalStoreLimits(t *testing.T) {
	c, err := Load(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.DeliveryTimeout != DefaultDeliveryTimeout || c.LocalMaxChats != DefaultLocalMaxChats {
		t.Errorf("defaults: got %v and %d, want %v and %d", c.DeliveryTimeout, c.LocalMaxChats, DefaultDeliveryTimeout, DefaultLocalMaxChats)
	}
	c, err = Load(env(map[string]string{"DELIVERY_TIMEOUT": "9s", "LOCAL_MAX_CHATS": "500"}))
	if err != nil || c.DeliveryTimeout != 9*time.Second || c.LocalMaxChats != 500 {
		t.Errorf("set: got %v, %d, %v; want 9s, 500", c.DeliveryTimeout, c.LocalMaxChats, err)
	}
	for v, want := range map[string]int64{"256MiB": 256 << 20, "1GiB": 1 << 30, "2097152": 2 << 20, "4096 KiB": 4 << 20} {
		c, err := Load(env(map[string]string{"LOCAL_MAX_BYTES": v}))
		if err != nil || c.LocalMaxBytes != want {
			t.Errorf("LOCAL_MAX_BYTES=%s: got %d, %v; want %d", v, c.LocalMaxBytes, err, want)
		}
	}
	if c, _ := Load(env(nil)); c.LocalMaxBytes != DefaultLocalMaxBytes {
		t.Errorf("LOCAL_MAX_BYTES unset: got %d, want %d", c.LocalMaxBytes, DefaultLocalMaxBytes)
	}
	for _, bad := range []map[string]string{{"LOCAL_MAX_CHATS": "0"}, {"LOCAL_MAX_CHATS": "many"}, {"DELIVERY_TIMEOUT": "-1s"},
		{"LOCAL_MAX_BYTES": "1KiB"}, {"LOCAL_MAX_BYTES": "lots"}, {"LOCAL_MAX_BYTES": "-5MiB"}, {"LOCAL_MAX_BYTES": "99999999999GiB"}} {
		if _, err := Load(env(bad)); err == nil {
			t.Errorf("Load(%v): got no error", bad)
		}
	}
}

func TestWebhookSecretRequired(t *testing.T) {
	tests := []struct {
		name     string
		env      map[string]string
		insecure bool
		wantErr  bool // from RequireWebhookSecret
		badVar   bool // from Load
	}{
		{name: "secret set", env: map[string]string{"TELEGRAM_WEBHOOK_SECRET": "sample-webhook-secret-0001"}},
		{name: "no secret", env: nil, wantErr: true},
		{name: "no secret, insecure 0", env: map[string]string{"TELEGRAM_WEBHOOK_INSECURE": "0"}, wantErr: true},
		{name: "no secret, empty opt-out", env: map[string]string{"TELEGRAM_WEBHOOK_INSECURE": " "}, wantErr: true},
		{name: "no secret, insecure 1", env: map[string]string{"TELEGRAM_WEBHOOK_INSECURE": "1"}, insecure: true},
		{name: "no secret, insecure true", env: map[string]string{"TELEGRAM_WEBHOOK_INSECURE": "true"}, insecure: true},
		{name: "secret and insecure", env: map[string]string{"TELEGRAM_WEBHOOK_SECRET": "sample-webhook-secret-0001", "TELEGRAM_WEBHOOK_INSECURE": "1"}, insecure: true},
		{name: "malformed opt-out", env: map[string]string{"TELEGRAM_WEBHOOK_INSECURE": "yes please"}, wantErr: true, badVar: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Load(env(tc.env))
			if (err != nil) != tc.badVar {
				t.Fatalf("Load: got error %v, want error %v", err, tc.badVar)
			}
			if tc.badVar && !strings.Contains(err.Error(), "TELEGRAM_WEBHOOK_INSECURE") {
				t.Errorf("Load error %q does not name TELEGRAM_WEBHOOK_INSECURE", err)
			}
			if c.TelegramWebhookInsecure != tc.insecure {
				t.Errorf("TelegramWebhookInsecure: got %v, want %v", c.TelegramWebhookInsecure, tc.insecure)
			}
			if err := c.RequireWebhookSecret(); (err != nil) != tc.wantErr {
				t.Errorf("RequireWebhookSecret: got %v, want error %v", err, tc.wantErr)
			}
		})
	}
}
