package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLinksNoModelSDK: the sweeper writes only finals, with the offline
// evaluator, so it must not link the model back ends (they tripled its
// size: 29.8 MB against 10.3 MB for linux/arm64, stripped). It does link
// the SSM client, for its bot token's parameter (package paramstore): 11.6
// MB against 10.35 MB.
func TestLinksNoModelSDK(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	for _, banned := range []string{
		"github.com/aws/aws-sdk-go-v2/service/bedrockruntime",
		"github.com/duetbot/duet/shared/brain/openai",
		"github.com/duetbot/duet/shared/brain/bedrock",
		"github.com/duetbot/duet/shared/brain/llm",
		"github.com/duetbot/duet/shared/clariq",
		"github.com/duetbot/duet/shared/app/brains",
	} {
		for _, d := range deps {
			if d == banned {
				t.Errorf("the sweeper links %s", banned)
			}
		}
	}
}
