package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/duetbot/duet/functions/internal/lambdatest"
)

func TestMain(m *testing.M) { lambdatest.Main(m, main) }

// TestBootstrap runs the function's main as Lambda does, on moto: with its
// bot token in a SecureString parameter it starts and sweeps, and the
// token is in no line it writes; without the parameter it refuses to
// start, naming it.
func TestBootstrap(t *testing.T) {
	env, prefix := lambdatest.AWS(t)
	const token = "4242:sweeper-TOKEN-value"
	lambdatest.PutSecureStrings(t, map[string]string{"/" + prefix + "/bot-token": token})
	event, err := os.ReadFile(filepath.Join("..", "..", "events", "sweeper-schedule.json"))
	if err != nil {
		t.Fatal(err)
	}
	env["TELEGRAM_API_URL"] = "http://127.0.0.1:1"
	env["TELEGRAM_BOT_TOKEN_PARAMETER"] = prefix + "/bot-token"
	res := lambdatest.Run(t, env, event)
	if res.Exited != nil {
		t.Fatalf("the bootstrap stopped: %v\n%s", res.Exited, res.Output)
	}
	if !strings.Contains(res.Responses[0], `"Ended":0`) {
		t.Errorf("response %s, want a sweep's result", res.Responses[0])
	}
	lambdatest.NoSecrets(t, res.Output, token)

	env["TELEGRAM_BOT_TOKEN_PARAMETER"] = prefix + "/no-such-token"
	res = lambdatest.Run(t, env, event)
	if res.Exited == nil {
		t.Fatalf("the bootstrap answered %q without its bot token", res.Responses)
	}
	for _, want := range []string{"refusing to start", "TELEGRAM_BOT_TOKEN_PARAMETER", "/" + prefix + "/no-such-token"} {
		if !strings.Contains(res.Output, want) {
			t.Errorf("output lacks %q:\n%s", want, res.Output)
		}
	}
}
