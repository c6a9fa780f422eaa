package offline

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// convai2Dir is where the ConvAI2 releases live: $CONVAI2_DATA, or the
// shared data directory beside the clone.
func convai2Dir() string {
	if d := os.Getenv("CONVAI2_DATA"); d != "" {
		return d
	}
	return filepath.Join("..", "..", "..", "..", "shared", "data", "convai2")
}

// convai2Dialogue is a dialogue of a ConvAI2 release, the fields these
// tests read.
type convai2Dialogue struct {
	Dialog []struct {
		Sender string `json:"sender"`
		Text   string `json:"text"`
	} `json:"dialog"`
	BotProfile  []string `json:"bot_profile"`
	UserProfile []string `json:"user_profile"`
}

// botProfile is the context the router sent the bot: its profile, one
// sentence a line.
func (d convai2Dialogue) botProfile() string { return strings.Join(d.BotProfile, "\n") }

// partnerMessages are the human's (participant1's) messages.
func (d convai2Dialogue) partnerMessages() []string {
	var out []string
	for _, m := range d.Dialog {
		if m.Sender == "participant1" && strings.TrimSpace(m.Text) != "" {
			out = append(out, m.Text)
		}
	}
	return out
}

// readConvAI2 reads a ConvAI2 release file, or skips the test when the data
// is absent.
func readConvAI2(t testing.TB, name string) []convai2Dialogue {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(convai2Dir(), name))
	if err != nil {
		t.Skipf("ConvAI2 data absent (%v): put DeepPavlov/convai's 2018/data at ../shared/data/convai2 beside the clone, or set CONVAI2_DATA", err)
	}
	var ds []convai2Dialogue
	if err := json.Unmarshal(b, &ds); err != nil {
		t.Fatalf("read %s: %v", name, err)
	}
	return ds
}

// devDialogues is the dev set: data_intermediate.json.
func devDialogues(t testing.TB) []convai2Dialogue {
	t.Helper()
	return readConvAI2(t, "data_intermediate.json")
}

// allProfiles returns every distinct profile (the bots' and the humans')
// of the ConvAI2 releases, as the router would send it after /start.
func allProfiles(t testing.TB) []string {
	t.Helper()
	seen := set{}
	var out []string
	for _, name := range []string{"data_intermediate.json", "export_2018-07-06_train.json", "export_2018-07-07_train.json"} {
		for _, d := range readConvAI2(t, name) {
			for _, p := range [][]string{d.BotProfile, d.UserProfile} {
				if s := strings.Join(p, "\n"); len(p) > 0 && !seen.has(s) {
					seen.add(s)
					out = append(out, s)
				}
			}
		}
	}
	return out
}
