package offline

import (
	"os"
	"strings"
	"testing"
)

// sayableFloor is the share of the releases' profile sentences the bot
// must be able to say whole without a trigram of its profile, a little
// under what was measured (see TestSayableShare).
const sayableFloor = 0.95 // measured: 95.8 % (4,214 of 4,401)

// plainFloor is the share of sayable sentences whose first rendering must
// have no chat filler ("like,", "you know,"), a little under what was
// measured: a filler reads badly, and a reply says the first rendering.
const plainFloor = 0.70 // measured: 70.7 %

// TestSayableShare reads every profile (the bots' and the users') of every
// ConvAI2 release and counts the sentences the bot can say: each part of
// the sentence has a paraphrase that the router would not refuse and that
// keeps the whole fact. Set $UNSAYABLE to a file name to write there what
// is still unsayable, and $SAID to write each sayable sentence with the
// first way the bot says it, to read them.
func TestSayableShare(t *testing.T) {
	seen := set{}
	total, sayable := 0, 0
	firstPlain, firstFillers, renderings, fillersAll := 0, 0, 0, 0
	var unsayable, said []string
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
				for _, f := range func() []fact {
					if pr == nil {
						return nil
					}
					return pr.facts
				}() {
					for _, s := range f.says {
						renderings++
						fillersAll += fillerCount(s)
						if w := repeatedSoftener(f.source, s); w != "" {
							t.Errorf("%q: %q says %q twice", f.source, s, w)
						}
					}
				}
				for _, line := range p {
					total++
					if pr != nil && saysWhole(pr, line) {
						sayable++
						first := firstSay(pr, line)
						said = append(said, line+"\t"+first)
						if n := fillerCount(first); n == 0 {
							firstPlain++
						} else {
							firstFillers += n
						}
					} else {
						unsayable = append(unsayable, line)
					}
				}
			}
		}
	}
	share := float64(sayable) / float64(total)
	t.Logf("sayable: %d of %d profile sentences (%.1f%%)", sayable, total, 100*share)
	t.Logf("first renderings without a filler: %.1f%%, fillers per first rendering %.3f, per rendering %.3f (%d renderings)",
		100*float64(firstPlain)/float64(sayable), float64(firstFillers)/float64(sayable), float64(fillersAll)/float64(renderings), renderings)
	if f := os.Getenv("UNSAYABLE"); f != "" {
		if err := os.WriteFile(f, []byte(strings.Join(unsayable, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if f := os.Getenv("SAID"); f != "" {
		if err := os.WriteFile(f, []byte(strings.Join(said, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if share < sayableFloor {
		t.Errorf("sayable share %.3f, floor %.2f", share, sayableFloor)
	}
	if plain := float64(firstPlain) / float64(sayable); plain < plainFloor {
		t.Errorf("first renderings without a filler %.3f, floor %.2f", plain, plainFloor)
	}
}

// saysWhole reports whether every part of a profile line is a fact of pr
// with a paraphrase the router accepts and that keeps the whole fact.
func saysWhole(pr *profile, line string) bool {
	if pr == nil {
		return false // not read as a profile at all
	}
	for _, ws := range profileSentences(line) {
		found := false
		for _, f := range pr.facts {
			if f.source != strings.Join(ws, " ") || f.part {
				continue // a part is no rendering of the whole
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

// firstSay is the first way the bot says the parts of a profile line, the
// parts joined by " / ".
func firstSay(pr *profile, line string) string {
	var out []string
	for _, ws := range profileSentences(line) {
		for _, f := range pr.facts {
			if f.source == strings.Join(ws, " ") {
				for _, s := range f.says {
					if !pr.router.Refuses(s) && keeps(ws, s) {
						out = append(out, s)
						break
					}
				}
				break
			}
		}
	}
	return strings.Join(out, " / ")
}
