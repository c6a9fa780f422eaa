package convaisim

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/brain/offline"
)

// TestOfflineBrainNeverRefused plays Duet's offline brain through every
// script on 400 profiles drawn as the simulator draws them (seeded, so a
// failure replays), and checks each reply with the simulator's own router
// rule: none may repeat a word trigram of the bot's profile. `duet sim
// -dialect convai2018` draws a handful of profiles per run; this covers
// the pool.
func TestOfflineBrainNeverRefused(t *testing.T) {
	b := offline.New()
	rng := rand.New(rand.NewPCG(2018, 7))
	replies := 0
	for n := range 400 {
		used := map[string]bool{}
		mine := randomProfile(rng, 4+n%2, used)
		theirs := randomProfile(rng, 4+(n+1)%2, used)
		grams := routerTrigrams(strings.Join(mine, "\n"))
		for _, sc := range Scripts {
			req := brain.Request{Context: strings.Join(mine, "\n")}
			say := func() {
				t.Helper()
				got, err := b.Reply(context.Background(), req)
				if err != nil {
					t.Fatal(err)
				}
				replies++
				if bad := profileTrigrams(grams, got); len(bad) > 0 {
					t.Errorf("profile %q, script %s: reply %q repeats %q: the router refuses it", mine, sc.Name, got, bad)
				}
				req.Turns = append(req.Turns, brain.Turn{Role: brain.Bot, Text: got})
			}
			if sc.Begin {
				say()
			}
			for _, l := range partnerLines(sc.Lines, theirs) {
				req.Turns = append(req.Turns, brain.Turn{Role: brain.Partner, Text: l})
				say()
			}
			req.Closing = true
			say()
		}
	}
	if replies < 10000 {
		t.Errorf("only %d replies checked", replies)
	}
}
