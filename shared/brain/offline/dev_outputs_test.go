package offline

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/duetbot/duet/shared/brain"
)

// devOutputsEnv names the file TestDevOutputs records the dev set's
// outputs in, or compares them with when it already exists.
const devOutputsEnv = "OFFLINE_DEV_OUTPUTS"

// TestDevOutputs replays the ConvAI2 dev set through a Brain and checks
// that its replies, ratings, closing replies and finals are those recorded
// earlier: a change meant to leave behaviour alone (a refactoring) records
// them before and compares after, byte for byte:
//
//	OFFLINE_DEV_OUTPUTS=/tmp/dev.txt go test -run TestDevOutputs ./shared/brain/offline  # before: records
//	OFFLINE_DEV_OUTPUTS=/tmp/dev.txt go test -run TestDevOutputs ./shared/brain/offline  # after: compares
//
// The chats are BenchmarkReplyDev's (1,200 chats of the dev set's human
// messages, each playing a ConvAI2 profile, up to 30 messages); every
// fourth plays a paragraph instead (the human messages of another dev
// dialogue), so that the situation replies are covered too.
func TestDevOutputs(t *testing.T) {
	path := os.Getenv(devOutputsEnv)
	if path == "" {
		t.Skipf("set %s to a file to record the dev set's outputs (first run) and compare later runs with them", devOutputsEnv)
	}
	got := devOutputs(t)
	want, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.WriteFile(path, []byte(strings.Join(got, "")), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("recorded %d outputs in %s", len(got), path)
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	sc := bufio.NewScanner(strings.NewReader(string(want)))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text()+"\n")
	}
	if len(lines) != len(got) {
		t.Errorf("%d outputs, want %d", len(got), len(lines))
	}
	diffs := 0
	for i := range min(len(lines), len(got)) {
		if lines[i] != got[i] {
			if diffs++; diffs <= 10 {
				t.Errorf("output %d:\n got %s want %s", i, got[i], lines[i])
			}
		}
	}
	if diffs > 0 {
		t.Errorf("%d of %d outputs differ from %s", diffs, len(lines), path)
	}
	t.Logf("%d outputs compared with %s", len(got), path)
}

// devOutputs replays the chats and returns one line per output.
func devOutputs(t *testing.T) []string {
	profiles := allProfiles(t)
	dev := devDialogues(t)
	br := New()
	ctx := context.Background()
	judge := &brain.Judge{Min: 1, Max: 5, Profiles: [][]string{{"i like to ride horses.", "i help tend the fields."}, {"i am a nurse.", "i work nights."}}}
	var out []string
	kinds := map[bool]int{}
	for i := range 1200 {
		msgs := dev[i%len(dev)].partnerMessages()
		msgs = msgs[:min(len(msgs), 30)]
		p := strings.Split(profiles[i%len(profiles)], "\n")
		r := (i / len(profiles)) % len(p)
		req := brain.Request{Context: strings.Join(append(p[r:], p[:r]...), "\n")}
		if i%4 == 3 {
			other := dev[(i*7+1)%len(dev)].partnerMessages()
			req.Context = strings.Join(other[:min(len(other), 6)], " ")
		}
		kinds[br.contexts.get(req.Context).profile != nil]++
		for j, m := range msgs {
			req.Turns = append(req.Turns, brain.Turn{Role: brain.Partner, Text: m})
			rating, err := br.Rate(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			reply, err := br.Reply(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprintf("chat %d turn %d: rating %d reply %q\n", i, j, rating, reply))
			req.Turns = append(req.Turns, brain.Turn{Role: brain.Bot, Text: reply})
		}
		closing := req
		closing.Closing = true
		bye, err := br.Reply(ctx, closing)
		if err != nil {
			t.Fatal(err)
		}
		plain, err := br.Final(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		req.Judge = judge
		judged, err := br.Final(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("chat %d: closing %q final %s judged %s\n", i, bye, scores(plain), scores(judged)))
	}
	t.Logf("%d chats on profiles, %d on paragraphs", kinds[true], kinds[false])
	return out
}

// scores writes s with its profile guess, not the guess's address.
func scores(s brain.Scores) string {
	profile := "none"
	if s.Profile != nil {
		profile = fmt.Sprint(*s.Profile)
	}
	return fmt.Sprintf("quality %d breadth %d engagement %d score %d profile %s", s.Quality, s.Breadth, s.Engagement, s.Score, profile)
}
