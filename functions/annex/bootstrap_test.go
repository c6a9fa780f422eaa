package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/duetbot/duet/functions/internal/lambdatest"
)

func TestMain(m *testing.M) { lambdatest.Main(m, main) }

// TestBootstrap runs the function's main as Lambda does, on moto: its
// caller key comes from a SecureString parameter, the request it checks
// against it is answered, AnnexRequests and AnnexLatency leave as EMF
// lines, and the key is in no line it writes. Without the parameter it
// refuses to start, naming it.
func TestBootstrap(t *testing.T) {
	env, prefix := lambdatest.AWS(t)
	const key = "sample-caller-key-0001" // the key events/annex-message.json sends
	lambdatest.PutSecureStrings(t, map[string]string{"/" + prefix + "/caller-key": key})
	event, err := os.ReadFile(filepath.Join("..", "..", "events", "annex-message.json"))
	if err != nil {
		t.Fatal(err)
	}
	env["ANNEX_PERSON_NAME"] = "Ada"
	env["ANNEX_CALLER_KEY_PARAMETER"] = prefix + "/caller-key"
	res := lambdatest.Run(t, env, event)
	if res.Exited != nil {
		t.Fatalf("the bootstrap stopped: %v\n%s", res.Exited, res.Output)
	}
	if !strings.Contains(res.Responses[0], `"statusCode":200`) {
		t.Errorf("response %s, want 200", res.Responses[0])
	}
	got := lambdatest.Metrics(t, res.Output)
	if got["AnnexRequests"] != 1 || got["AnnexRequests{Function=annex}"] != 1 || got["AnnexLatency"] <= 0 {
		t.Errorf("metrics %v: want one AnnexRequests of Function annex and its AnnexLatency", got)
	}
	lambdatest.NoSecrets(t, res.Output, key)

	env["ANNEX_CALLER_KEY_PARAMETER"] = prefix + "/no-such-key"
	res = lambdatest.Run(t, env, event)
	if res.Exited == nil {
		t.Fatalf("the bootstrap answered %q without its caller key", res.Responses)
	}
	for _, want := range []string{"ANNEX_CALLER_KEY_PARAMETER", "/" + prefix + "/no-such-key", "ParameterNotFound"} {
		if !strings.Contains(res.Output, want) {
			t.Errorf("output lacks %q:\n%s", want, res.Output)
		}
	}
}
