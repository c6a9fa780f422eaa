package config

import (
	"slices"
	"testing"
)

// TestUnresolved: the secrets paramstore reads are those that name a
// parameter and have no plain value; filling one through its Value fills
// the Config.
func TestUnresolved(t *testing.T) {
	c, err := Load(env(map[string]string{
		"TELEGRAM_BOT_TOKEN_PARAMETER":      "duet/telegram-bot-token",
		"TELEGRAM_WEBHOOK_SECRET_PARAMETER": "duet/telegram-webhook-secret",
		"TELEGRAM_WEBHOOK_SECRET":           "plain-secret-wins",
		"ANNEX_CALLER_KEY_PARAMETER":        "duet-caller-key",
	}))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range c.Unresolved() {
		got = append(got, s.ParameterVar()+"="+s.Parameter)
	}
	want := []string{"TELEGRAM_BOT_TOKEN_PARAMETER=duet/telegram-bot-token", "ANNEX_CALLER_KEY_PARAMETER=duet-caller-key"}
	if !slices.Equal(got, want) {
		t.Errorf("Unresolved() = %q, want %q", got, want)
	}
	*c.Unresolved()[0].Value = "filled"
	if c.TelegramBotToken != "filled" || len(c.Unresolved()) != 1 {
		t.Errorf("after filling the token: %q, %d unresolved; want it set and 1 left", c.TelegramBotToken, len(c.Unresolved()))
	}
}
