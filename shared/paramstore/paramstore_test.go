package paramstore

import (
	"context"
	"crypto/rand"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ssm"
	ssmtypes "github.com/aws/aws-sdk-go-v2/service/ssm/types"

	"github.com/duetbot/duet/shared/config"
)

// motoSSM returns a client of the SSM at AWS_ENDPOINT_URL_SSM (moto's,
// started by .ci/moto) with dummy credentials, and a fresh prefix for the
// test's parameters. It skips the test without that endpoint.
func motoSSM(t testing.TB) (API, string) {
	t.Helper()
	if os.Getenv("AWS_ENDPOINT_URL_SSM") == "" {
		t.Skip("AWS_ENDPOINT_URL_SSM is not set; run `eval \"$(.ci/moto)\"` first (make test does)")
	}
	for k, v := range map[string]string{"AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test", "AWS_REGION": "us-east-1"} {
		if os.Getenv(k) == "" {
			t.Setenv(k, v)
		}
	}
	api, err := NewClient(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return api, "duet-test-" + strings.ToLower(rand.Text()[:8])
}

// put stores value as a SecureString parameter name on moto. It overwrites,
// so the SDK's retry of a put whose answer was lost on the way (moto may
// close a kept-alive connection) finds no ParameterAlreadyExists.
func put(t testing.TB, api API, name, value string) {
	t.Helper()
	_, err := api.(*ssm.Client).PutParameter(context.Background(), &ssm.PutParameterInput{
		Name: &name, Value: &value, Type: ssmtypes.ParameterTypeSecureString, Overwrite: aws.Bool(true)})
	if err != nil {
		t.Fatalf("put parameter %s: %v", name, err)
	}
}

// TestResolveOnMoto: every secret named by a parameter is read, decrypted,
// from SecureStrings, hierarchical names with or without their slash, flat
// names as they are; a plain value wins over its parameter.
func TestResolveOnMoto(t *testing.T) {
	api, prefix := motoSSM(t)
	put(t, api, "/"+prefix+"/bot-token", "123456:test-token-from-ssm\n")
	put(t, api, "/"+prefix+"/webhook-secret", "webhook-secret-from-ssm-0001")
	put(t, api, prefix+"-caller-key", "caller-key-from-ssm-0001")
	put(t, api, "/"+prefix+"/openai-key", "sk-from-ssm")

	cfg := config.Config{
		TelegramBotTokenParameter:      prefix + "/bot-token",
		TelegramWebhookSecretParameter: "/" + prefix + "/webhook-secret",
		AnnexCallerKeyParameter:        prefix + "-caller-key",
		OpenAIAPIKeyParameter:          prefix + "/no-such-parameter", // not read: the plain key wins
		OpenAIAPIKey:                   "sk-plain",
	}
	calls := 0
	err := Resolve(context.Background(), &cfg, func(context.Context) (API, error) { calls++; return api, nil })
	if err != nil {
		t.Fatal(err)
	}
	want := config.Config{
		TelegramBotToken:      "123456:test-token-from-ssm",
		TelegramWebhookSecret: "webhook-secret-from-ssm-0001",
		AnnexCallerKey:        "caller-key-from-ssm-0001",
		OpenAIAPIKey:          "sk-plain",
	}
	got := config.Config{TelegramBotToken: cfg.TelegramBotToken, TelegramWebhookSecret: cfg.TelegramWebhookSecret,
		AnnexCallerKey: cfg.AnnexCallerKey, OpenAIAPIKey: cfg.OpenAIAPIKey}
	if got != want {
		t.Errorf("resolved %+v, want %+v", got, want)
	}
	if calls != 1 {
		t.Errorf("made %d clients, want 1", calls)
	}
	// Resolved, nothing is read again.
	if err := Resolve(context.Background(), &cfg, func(context.Context) (API, error) {
		t.Error("a client was made with nothing left to read")
		return api, nil
	}); err != nil {
		t.Fatal(err)
	}
}

// TestResolveMissingParameter: a parameter that does not exist is an error
// naming the variable and the parameter, and no secret value.
func TestResolveMissingParameter(t *testing.T) {
	api, prefix := motoSSM(t)
	put(t, api, "/"+prefix+"/bot-token", "123456:token-that-must-not-leak")
	cfg := config.Config{
		TelegramBotTokenParameter:      prefix + "/bot-token",
		TelegramWebhookSecretParameter: prefix + "/missing-secret",
	}
	err := Resolve(context.Background(), &cfg, func(context.Context) (API, error) { return api, nil })
	if err == nil {
		t.Fatal("no error for a missing parameter")
	}
	for _, want := range []string{"TELEGRAM_WEBHOOK_SECRET_PARAMETER", "/" + prefix + "/missing-secret", "ParameterNotFound"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %s", err, want)
		}
	}
	if strings.Contains(err.Error(), "token-that-must-not-leak") {
		t.Errorf("error %q shows a secret value", err)
	}
}

func TestResolveOnly(t *testing.T) {
	cfg := config.Config{TelegramBotTokenParameter: "duet/bot-token", AnnexCallerKeyParameter: "duet/caller-key"}
	err := Resolve(context.Background(), &cfg, func(context.Context) (API, error) {
		return nil, errors.New("no AWS here")
	}, "OPENAI_API_KEY")
	if err != nil {
		t.Errorf("Resolve of a secret with no parameter: %v, want nothing read", err)
	}
	err = Resolve(context.Background(), &cfg, func(context.Context) (API, error) {
		return nil, errors.New("no AWS here")
	}, "ANNEX_CALLER_KEY")
	if err == nil || !strings.Contains(err.Error(), "ANNEX_CALLER_KEY_PARAMETER") || strings.Contains(err.Error(), "TELEGRAM") {
		t.Errorf("Resolve of the caller key alone: %v, want an error about it only", err)
	}
}

func TestResolveNothingToRead(t *testing.T) {
	cfg := config.Config{TelegramBotToken: "plain", TelegramBotTokenParameter: "duet/bot-token"}
	err := Resolve(context.Background(), &cfg, func(context.Context) (API, error) {
		return nil, errors.New("no AWS here")
	})
	if err != nil || cfg.TelegramBotToken != "plain" {
		t.Errorf("Resolve with plain values: %v, token %q; want no AWS call and the plain token", err, cfg.TelegramBotToken)
	}
	cfg = config.Config{AnnexCallerKeyParameter: "duet/caller-key"}
	err = Resolve(context.Background(), &cfg, func(context.Context) (API, error) { return nil, errors.New("no credentials") })
	if err == nil || !strings.Contains(err.Error(), "ANNEX_CALLER_KEY_PARAMETER=duet/caller-key") || !strings.Contains(err.Error(), "no credentials") {
		t.Errorf("Resolve without a client: %v, want an error naming the parameter and the cause", err)
	}
}

func TestQualify(t *testing.T) {
	tests := map[string]string{
		"duet/bot-token":  "/duet/bot-token",
		"/duet/bot-token": "/duet/bot-token",
		"duet-bot-token":  "duet-bot-token",
		" duet/x ":        "/duet/x",
		"arn:aws:ssm:us-east-1:123456789012:parameter/duet/x": "arn:aws:ssm:us-east-1:123456789012:parameter/duet/x",
	}
	for in, want := range tests {
		t.Run(in, func(t *testing.T) {
			if got := qualify(in); got != want {
				t.Errorf("qualify(%q) = %q, want %q", in, got, want)
			}
		})
	}
}
