package offline

import (
	"os"
	"strings"
	"testing"
)

// sayableFloor is the share of the releases' profile sentences the bot
// must be able to say whole without a trigram of its profile, a little
// under what was measured (see TestSayableShare).
const sayableFloor = 0.62 // measured: 63.0 %

// TestSayableShare reads every profile (the bots' and the users') of every
// ConvAI2 release and counts the sentences the bot can say: each part of
// the sentence has a paraphrase that the router would not refuse and that
// keeps the whole fact. With -v it lists what is still unsayable; set
// $UNSAYABLE to a file name to write the list there.
func TestSayableShare(t *testing.T) {
	seen := set{}
	total, sayable := 0, 0
	var unsayable []string
	for _, name := range []string{"data_intermediate.json", "export_2018-07-04_train.json", "export_2018-07-05_train.json",
		"export_2018-07-06_train.json", "export_2018-07-07_train.json"} {
		for _, d := range readConvAI2(t, name) {
			for _, p := range [][]string{d.BotProfile, d.UserProfile} {
				context := strings.Join(p, "\n")
				if len(p) == 0 || seen.has(context) {
					continue
				}
				seen.add(context)
				pr := parseProfile(context)
				for _, line := range p {
					total++
					if pr != nil && saysWhole(pr, line) {
						sayable++
					} else {
						unsayable = append(unsayable, line)
					}
				}
			}
		}
	}
	share := float64(sayable) / float64(total)
	t.Logf("sayable: %d of %d profile sentences (%.1f%%)", sayable, total, 100*share)
	if f := os.Getenv("UNSAYABLE"); f != "" {
		if err := os.WriteFile(f, []byte(strings.Join(unsayable, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if share < sayableFloor {
		t.Errorf("sayable share %.3f, floor %.2f", share, sayableFloor)
	}
}

// saysWhole reports whether every part of a profile line is a fact of pr
// with a paraphrase the router accepts and that keeps the whole fact.
func saysWhole(pr *profile, line string) bool {
	for _, ws := range profileSentences(line) {
		found := false
		for _, f := range pr.facts {
			if f.source != strings.Join(ws, " ") {
				continue
			}
			for _, s := range f.says {
				found = found || !pr.router.Refuses(s) && keeps(ws, s)
			}
		}
		if !found {
			return false
		}
	}
	return true
}
