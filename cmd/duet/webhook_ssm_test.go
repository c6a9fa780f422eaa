package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/cloudformation"
	cftypes "github.com/aws/aws-sdk-go-v2/service/cloudformation/types"
	"github.com/aws/aws-sdk-go-v2/service/ssm"
	ssmtypes "github.com/aws/aws-sdk-go-v2/service/ssm/types"

	"github.com/duetbot/duet/shared/config"
	"github.com/duetbot/duet/shared/paramstore"
)

// TestWebhookSetFromParameters: with only the SSM parameters' names, as
// deployed, `duet webhook set` reads the token and the secret from
// moto's SSM (AWS_ENDPOINT_URL_SSM), and prints neither.
func TestWebhookSetFromParameters(t *testing.T) {
	if os.Getenv("AWS_ENDPOINT_URL_SSM") == "" {
		t.Skip("AWS_ENDPOINT_URL_SSM is not set; run `eval \"$(.ci/moto)\"` first (make test does)")
	}
	for k, v := range map[string]string{"AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test", "AWS_REGION": "us-east-1"} {
		if os.Getenv(k) == "" {
			t.Setenv(k, v)
		}
	}
	const token, secret = "4242:ssm-webhook-TOKEN", "ssm-webhook-secret-0001"
	prefix := "duet-webhook-" + strings.ToLower(rand.Text()[:8])
	api, err := paramstore.NewClient(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for name, value := range map[string]string{"/" + prefix + "/token": token, "/" + prefix + "/secret": secret} {
		if _, err := api.(*ssm.Client).PutParameter(context.Background(), &ssm.PutParameterInput{
			Name: &name, Value: &value, Type: ssmtypes.ParameterTypeSecureString}); err != nil {
			t.Fatalf("put %s: %v", name, err)
		}
	}
	var got struct {
		path, secret string
	}
	tg := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var body struct {
			SecretToken string `json:"secret_token"`
		}
		_ = json.Unmarshal(raw, &body)
		got.path, got.secret = r.URL.Path, body.SecretToken
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ok":true,"result":true,"description":"Webhook was set"}`)
	}))
	defer tg.Close()
	t.Setenv("TELEGRAM_API_URL", tg.URL)
	t.Setenv("TELEGRAM_BOT_TOKEN", "")
	t.Setenv("TELEGRAM_WEBHOOK_SECRET", "")
	t.Setenv("TELEGRAM_BOT_TOKEN_PARAMETER", prefix+"/token")
	t.Setenv("TELEGRAM_WEBHOOK_SECRET_PARAMETER", prefix+"/secret")

	var stdout, stderr bytes.Buffer
	if err := runWebhook(context.Background(), []string{"set", "-url", "https://abc.example/telegram"}, &stdout, &stderr); err != nil {
		t.Fatalf("webhook set: %v", err)
	}
	if got.path != "/bot"+token+"/setWebhook" || got.secret != secret {
		t.Errorf("Telegram got %s with secret_token %q, want the token's setWebhook with the parameter's secret", got.path, got.secret)
	}
	if printed := stdout.String() + stderr.String(); strings.Contains(printed, token) || strings.Contains(printed, secret) {
		t.Errorf("output %q shows the token or the secret", printed)
	}

	t.Setenv("TELEGRAM_WEBHOOK_SECRET_PARAMETER", prefix+"/missing")
	err = runWebhook(context.Background(), []string{"set", "-url", "https://abc.example/telegram"}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "TELEGRAM_WEBHOOK_SECRET_PARAMETER") || !strings.Contains(err.Error(), prefix+"/missing") {
		t.Errorf("webhook set with a missing parameter: %v, want an error naming it", err)
	}
}

// deployedStack answers DescribeStacks with one stack's outputs and
// parameters, as CloudFormation does.
type deployedStack struct{ outputs, params map[string]string }

func (d deployedStack) DescribeStacks(_ context.Context, in *cloudformation.DescribeStacksInput, _ ...func(*cloudformation.Options)) (*cloudformation.DescribeStacksOutput, error) {
	if *in.StackName != "duet" {
		return nil, errors.New("Stack with id " + *in.StackName + " does not exist")
	}
	var st cftypes.Stack
	for k, v := range d.outputs {
		st.Outputs = append(st.Outputs, cftypes.Output{OutputKey: &k, OutputValue: &v})
	}
	for k, v := range d.params {
		st.Parameters = append(st.Parameters, cftypes.Parameter{ParameterKey: &k, ParameterValue: &v})
	}
	return &cloudformation.DescribeStacksOutput{Stacks: []cftypes.Stack{st}}, nil
}

// TestFromStack: -stack gives the webhook URL and, unless the environment
// names others, the parameters the stack reads its secrets from.
func TestFromStack(t *testing.T) {
	api := deployedStack{
		outputs: map[string]string{webhookOutput: "https://a.example/telegram"},
		params:  map[string]string{"TelegramBotTokenParameter": "duet/telegram-bot-token", "TelegramWebhookSecretParameter": "duet/telegram-webhook-secret"},
	}
	cfg := config.Config{TelegramWebhookSecretParameter: "mine/secret"}
	url, err := fromStack(context.Background(), api, "duet", &cfg)
	if err != nil {
		t.Fatal(err)
	}
	if url != "https://a.example/telegram" || cfg.TelegramBotTokenParameter != "duet/telegram-bot-token" || cfg.TelegramWebhookSecretParameter != "mine/secret" {
		t.Errorf("got %q, token parameter %q, secret parameter %q; want the stack's URL and token parameter, the environment's secret parameter",
			url, cfg.TelegramBotTokenParameter, cfg.TelegramWebhookSecretParameter)
	}
	if _, err := fromStack(context.Background(), api, "other", &cfg); err == nil {
		t.Error("fromStack of a missing stack: no error")
	}
}
