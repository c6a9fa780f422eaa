package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/cloudformation"
	cftypes "github.com/aws/aws-sdk-go-v2/service/cloudformation/types"
)

func TestWebhookSet(t *testing.T) {
	const token, secret = "4242:webhook-test-TOKEN", "hunter2-secret"
	var mu sync.Mutex
	var paths []string
	var bodies []map[string]any
	tg := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var body map[string]any
		if err := json.Unmarshal(raw, &body); err != nil {
			t.Errorf("setWebhook body %q is not JSON: %v", raw, err)
		}
		mu.Lock()
		paths, bodies = append(paths, r.URL.Path), append(bodies, body)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ok":true,"result":true,"description":"Webhook was set"}`)
	}))
	defer tg.Close()
	t.Setenv("TELEGRAM_API_URL", tg.URL)
	t.Setenv("TELEGRAM_BOT_TOKEN", token)
	t.Setenv("TELEGRAM_WEBHOOK_SECRET", "")

	tests := []struct {
		name       string
		args       []string
		env        string // TELEGRAM_WEBHOOK_SECRET
		wantSecret string
		wantErr    bool
	}{
		{name: "flag secret", args: []string{"set", "-url", "https://abc.example/telegram", "-secret", secret}, wantSecret: secret},
		{name: "secret from the environment", args: []string{"set", "-url", "https://abc.example/telegram"}, env: secret, wantSecret: secret},
		{name: "no secret", args: []string{"set", "-url", "https://abc.example/telegram"}, wantErr: true},
		{name: "no secret on purpose", args: []string{"set", "-url", "https://abc.example/telegram", "-no-secret"}},
		{name: "no URL", args: []string{"set"}, wantErr: true},
		{name: "URL and stack", args: []string{"set", "-url", "https://x", "-stack", "duet"}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("TELEGRAM_WEBHOOK_SECRET", tt.env)
			mu.Lock()
			paths, bodies = nil, nil
			mu.Unlock()
			var stdout, stderr bytes.Buffer
			err := runWebhook(context.Background(), tt.args, &stdout, &stderr)
			if tt.wantErr {
				if err == nil {
					t.Fatal("got no error, want one")
				}
				if len(bodies) != 0 {
					t.Errorf("got %d calls to Telegram, want none", len(bodies))
				}
				return
			}
			if err != nil {
				t.Fatalf("runWebhook: %v", err)
			}
			if len(bodies) != 1 || paths[0] != "/bot"+token+"/setWebhook" {
				t.Fatalf("got calls %q, want one to /bot<token>/setWebhook", paths)
			}
			b := bodies[0]
			if b["url"] != "https://abc.example/telegram" {
				t.Errorf("got url %v, want https://abc.example/telegram", b["url"])
			}
			got, _ := b["secret_token"].(string)
			if got != tt.wantSecret {
				t.Errorf("got secret_token %q, want %q", got, tt.wantSecret)
			}
			printed := stdout.String() + stderr.String()
			if strings.Contains(printed, secret) || strings.Contains(printed, token) {
				t.Errorf("output %q shows the secret or the token", printed)
			}
			if !strings.Contains(stdout.String(), "https://abc.example/telegram") {
				t.Errorf("output %q does not name the URL", stdout.String())
			}
		})
	}
}

func TestWebhookNeedsToken(t *testing.T) {
	t.Setenv("TELEGRAM_BOT_TOKEN", "")
	err := runWebhook(context.Background(), []string{"info"}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "TELEGRAM_BOT_TOKEN") {
		t.Errorf("got %v, want an error naming TELEGRAM_BOT_TOKEN", err)
	}
}

// fakeStacks answers DescribeStacks from a map of stacks to outputs.
type fakeStacks map[string]map[string]string

func (f fakeStacks) DescribeStacks(_ context.Context, in *cloudformation.DescribeStacksInput, _ ...func(*cloudformation.Options)) (*cloudformation.DescribeStacksOutput, error) {
	outs, ok := f[*in.StackName]
	if !ok {
		return nil, errors.New("Stack with id " + *in.StackName + " does not exist")
	}
	st := cftypes.Stack{}
	for k, v := range outs {
		st.Outputs = append(st.Outputs, cftypes.Output{OutputKey: &k, OutputValue: &v})
	}
	return &cloudformation.DescribeStacksOutput{Stacks: []cftypes.Stack{st}}, nil
}

func TestStackOutput(t *testing.T) {
	api := fakeStacks{
		"duet":  {"AnnexUrl": "https://a.example/annex", webhookOutput: "https://a.example/telegram"},
		"other": {"AnnexUrl": "https://b.example/annex"},
	}
	tests := []struct {
		stack, want string
		wantErr     bool
	}{
		{stack: "duet", want: "https://a.example/telegram"},
		{stack: "other", wantErr: true},
		{stack: "missing", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.stack, func(t *testing.T) {
			got, err := stackOutput(context.Background(), api, tt.stack, webhookOutput)
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Errorf("got %q, %v; want %q, error %v", got, err, tt.want, tt.wantErr)
			}
		})
	}
}

// TestWebhookHelpHidesSecret: the flag help must not show the secret from
// the environment as a default.
func TestWebhookHelpHidesSecret(t *testing.T) {
	t.Setenv("TELEGRAM_BOT_TOKEN", "123:token")
	t.Setenv("TELEGRAM_WEBHOOK_SECRET", "do-not-print-this-secret")
	var stderr bytes.Buffer
	_ = runWebhook(context.Background(), []string{"set", "-h"}, io.Discard, &stderr)
	if !strings.Contains(stderr.String(), "-secret") {
		t.Fatalf("no flag help printed: %q", stderr.String())
	}
	if strings.Contains(stderr.String(), "do-not-print-this-secret") || strings.Contains(stderr.String(), "123:token") {
		t.Errorf("help leaks a secret:\n%s", stderr.String())
	}
}
