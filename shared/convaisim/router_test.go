package convaisim

import (
	"bytes"
	"context"
	mrand "math/rand/v2"
	"net"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/telegram"
)

func TestRouterWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"i like to ride horses.", []string{"i", "like", "to", "ride", "horses", ""}},
		{"  Hi,   THERE!! ", []string{"", "hi", "there", ""}},
		{"don't_stop 42", []string{"don", "t_stop", "42"}},
		{"Ünïcode — ok", []string{"ünïcode", "ok"}},
		{"", []string{""}},
	}
	for _, tt := range tests {
		if got := routerWords(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("routerWords(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestProfileTrigrams(t *testing.T) {
	profile := routerTrigrams("i like to ride horses.\ni have three horses.")
	tests := []struct {
		msg  string
		want []string
	}{
		{"Yes! I like to ride, a lot.", []string{"i like to", "like to ride"}},
		{"I HAVE THREE of them", []string{"i have three"}},
		{"Horses are lovely, I have some.", nil},
		{"ride horses i", nil}, // the router leaves out a text's last trigram
		{"ride horses i have", []string{"ride horses i"}},
		{"ride horses i have.", []string{"horses i have", "ride horses i"}},
	}
	for _, tt := range tests {
		got := profileTrigrams(profile, tt.msg)
		slices.Sort(got)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("profileTrigrams(%q) = %q, want %q", tt.msg, got, tt.want)
		}
	}
}

// TestCast checks the roles of router chats: a profile of 4 or 5 distinct
// sentences for the bot, 2 or 3 candidates sharing none of its sentences,
// the partner's among them, and varied profiles across chats.
func TestCast(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(1, 2))
	seen := map[string]bool{}
	truths := map[int]int{}
	for range 200 {
		var c chat
		c.cast(rng)
		if n := len(c.profile); n < 4 || n > 5 {
			t.Fatalf("bot profile of %d sentences", n)
		}
		if n := len(c.judge.Profiles); n < 2 || n > 3 || c.truth < 0 || c.truth >= n {
			t.Fatalf("%d candidates, truth %d", n, c.truth)
		}
		used := map[string]bool{}
		for _, p := range append([][]string{c.profile}, c.judge.Profiles...) {
			for _, s := range p {
				if used[s] {
					t.Fatalf("sentence %q in two profiles of one chat", s)
				}
				used[s] = true
			}
		}
		seen[strings.Join(c.profile, "|")] = true
		truths[c.truth]++
		if c.judge.Min != 1 || c.judge.Max != 5 {
			t.Fatalf("range %d..%d, want the router's 1..5", c.judge.Min, c.judge.Max)
		}
	}
	if len(seen) < 190 || truths[0] < 50 || truths[1] < 50 {
		t.Errorf("profiles not varied: %d distinct of 200, truth positions %v", len(seen), truths)
	}
}

// routerBot is a bot that remembers each chat's profile and answers
// through reply(profile, cmd).
func routerBot(reply func(profile []string, cmd convai.Command) []string) func(*testing.T, string, string) func(context.Context, convai.Update) error {
	return func(t *testing.T, apiURL, token string) func(context.Context, convai.Update) error {
		client, err := telegram.New(apiURL, token, telegram.WithLogger(quiet), telegram.WithMaxAttempts(1))
		if err != nil {
			t.Fatalf("telegram.New: %v", err)
		}
		var mu sync.Mutex
		profiles := map[int64][]string{}
		return func(ctx context.Context, u convai.Update) error {
			cmd := convai.Parse(u.Text)
			mu.Lock()
			if cmd.Kind == convai.Start {
				profiles[u.ChatID] = strings.Split(cmd.Arg, "\n")
			}
			p := profiles[u.ChatID]
			mu.Unlock()
			for _, msg := range reply(p, cmd) {
				if err := client.Send(ctx, u.ChatID, msg); err != nil && !convai.Rejected(err) {
					return err
				}
			}
			return nil
		}
	}
}

// routerCase is a bot played in one router chat of script.
type routerCase struct {
	name   string
	script Script
	reply  func(profile []string, cmd convai.Command) []string
	want   []string // each violation must contain one of these; none: no violations
	check  func(t *testing.T, c ChatReport)
}

func TestRouterRules(t *testing.T) {
	reply := func(text string) string { return convai.EncodeReply(text, 6) }
	tests := []routerCase{
		{
			name:   "profile parrot is cut off",
			script: Scripts[4], // long
			reply: func(p []string, cmd convai.Command) []string {
				switch cmd.Kind {
				case convai.Start:
					return nil
				case convai.End:
					return []string{convai.EncodeFinal(convai.SettleFinal(brain.Scores{Quality: 5}, cmd.Judge))}
				}
				return []string{reply("Well, " + p[0])}
			},
			want: []string{"word trigram", "router ends the chat"},
			check: func(t *testing.T, c ChatReport) {
				if got := countFrom(c.Transcript, "Server"); got != badInARow+2 {
					t.Errorf("%d server messages, want /start, %d partner lines and the evaluation request", got, badInARow)
				}
				if !c.Ended || !c.Asked {
					t.Errorf("ended %v, asked %v: want the evaluation request answered", c.Ended, c.Asked)
				}
			},
		},
		{
			name:   "paraphrase passes",
			script: Scripts[0],
			reply: func(p []string, cmd convai.Command) []string {
				switch cmd.Kind {
				case convai.Start:
					return nil
				case convai.End:
					guess := len(cmd.Judge.Profiles) - 1
					return []string{convai.EncodeFinal(convai.SettleFinal(brain.Scores{Quality: 9, Profile: &guess}, cmd.Judge))}
				}
				return []string{reply("Interesting. Tell me more about it?")}
			},
			check: func(t *testing.T, c ChatReport) {
				if c.Judge == nil || c.Final == nil || c.Final.Score != 5 || c.Final.Profile == nil {
					t.Errorf("final %+v for judge %+v", c.Final, c.Judge)
				}
			},
		},
		{
			name:   "score out of range",
			script: Scripts[0],
			reply: func(_ []string, cmd convai.Command) []string {
				switch cmd.Kind {
				case convai.Start:
					return nil
				case convai.End:
					return []string{`{"text":"/end","evaluation":{"quality":5,"breadth":5,"engagement":5,"score":9,"profile_idx":0}}`}
				}
				return []string{reply("I see.")}
			},
			want: []string{`"score": got 9, want 1..5`},
		},
		{
			name:   "profile_idx out of range",
			script: Scripts[0],
			reply: func(_ []string, cmd convai.Command) []string {
				switch cmd.Kind {
				case convai.Start:
					return nil
				case convai.End:
					return []string{`{"text":"/end","evaluation":{"quality":5,"breadth":5,"engagement":5,"score":3,"profile_idx":3}}`}
				}
				return []string{reply("I see.")}
			},
			want: []string{`"profile_idx": got 3`},
		},
		{
			name:   "2017 final",
			script: Scripts[0],
			reply: func(_ []string, cmd convai.Command) []string {
				switch cmd.Kind {
				case convai.Start:
					return nil
				case convai.End:
					return []string{`{"text":"/end","evaluation":{"quality":5,"breadth":5,"engagement":5}}`}
				}
				return []string{reply("I see.")}
			},
			want: []string{`"score": missing`},
		},
		{
			name:   "no msg_evaluation",
			script: Scripts[0],
			reply: func(_ []string, cmd convai.Command) []string {
				switch cmd.Kind {
				case convai.Start:
					return nil
				case convai.End:
					return []string{convai.EncodeFinal(convai.SettleFinal(brain.Scores{Quality: 5}, cmd.Judge))}
				}
				return []string{`{"text":"I see.","evaluation":5}`}
			},
			want: []string{`without "msg_evaluation"`},
		},
	}
	ownEnd := func(answer bool) func([]string, convai.Command) []string {
		return func(_ []string, cmd convai.Command) []string {
			switch cmd.Kind {
			case convai.Start:
				return nil
			case convai.End:
				if !answer {
					return nil
				}
				return []string{convai.EncodeFinal(convai.SettleFinal(brain.Scores{Quality: 5, Profile: new(int)}, cmd.Judge))}
			}
			if convai.IsGoodbye(cmd.Arg) {
				return []string{reply("Bye!"), convai.EncodeFinal(convai.SettleFinal(brain.Scores{Quality: 5}, nil))}
			}
			return []string{reply("I see.")}
		}
	}
	tests = append(tests,
		routerCase{name: "own end, request answered", script: Scripts[2], reply: ownEnd(true), check: func(t *testing.T, c ChatReport) {
			if !c.Requested || !c.Asked || c.Final == nil || c.Final.Profile == nil {
				t.Errorf("requested %v, asked %v, final %+v: want the request sent and answered", c.Requested, c.Asked, c.Final)
			}
		}},
		routerCase{name: "own end, request ignored", script: Scripts[2], reply: ownEnd(false), check: func(t *testing.T, c ChatReport) {
			if !c.Requested || c.Asked || !c.Ended {
				t.Errorf("requested %v, asked %v, ended %v: want the request sent and left unanswered", c.Requested, c.Asked, c.Ended)
			}
		}},
	)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			rep, err := Run(context.Background(), Config{
				Dialect: Dialect2018, Chats: 1, ReplyTimeout: 10 * time.Second, Out: &out, Log: quiet,
				Scripts: []Script{tt.script}, Ready: pollBot(t, routerBot(tt.reply)),
			})
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if rep.OK() != (len(tt.want) == 0) {
				t.Fatalf("OK = %v, want %v:\n%s", rep.OK(), len(tt.want) == 0, out.String())
			}
			all := append([]string(nil), rep.Violations...)
			for _, c := range rep.Chats {
				all = append(all, c.Violations...)
			}
			for _, v := range all {
				if !containsAny(v, tt.want) {
					t.Errorf("unexpected violation %q, want one about %q", v, tt.want)
				}
			}
			for _, w := range tt.want {
				if !containsAny(strings.Join(all, "\n"), []string{w}) {
					t.Errorf("no violation about %q:\n%s", w, out.String())
				}
			}
			if tt.check != nil {
				tt.check(t, rep.Chats[0])
			}
			if !strings.Contains(out.String(), "profile guesses: ") {
				t.Errorf("summary lacks the profile guesses:\n%s", out.String())
			}
			if unanswered := strings.Contains(out.String(), "evaluation requests unanswered: 1"); unanswered != (tt.name == "own end, request ignored") {
				t.Errorf("summary reports an unanswered request: %v:\n%s", unanswered, out.String())
			}
		})
	}
}

// TestDigest checks the summary's digest of the bot's own judgments.
func TestDigest(t *testing.T) {
	one, zero := 1, 0
	rep := Report{Dialect: Dialect2018, Mode: ModePoll, Chats: []ChatReport{
		{Ratings: []int{3, 7, 7}, Final: &brain.Scores{Quality: 4, Breadth: 5, Engagement: 6, Score: 2, Profile: &one},
			Judge: &brain.Judge{Min: 1, Max: 5, Profiles: [][]string{{"a"}, {"b"}}}, Truth: 1, Asked: true},
		{Ratings: []int{10}, Final: &brain.Scores{Quality: 8, Breadth: 9, Engagement: 10, Score: 4, Profile: &zero},
			Judge: &brain.Judge{Min: 1, Max: 5, Profiles: [][]string{{"a"}, {"b"}}}, Truth: 1, Asked: true},
		{Ratings: nil},
	}}
	var out bytes.Buffer
	if err := rep.WriteSummary(&out); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"ratings of partner messages: min 3, median 7, max 10 (n=4)",
		"   7 | " + strings.Repeat("#", 40) + " 2",
		"  10 | " + strings.Repeat("#", 20),
		"   1 | " + strings.Repeat(" ", 40) + " 0",
		"finals: 2; quality min 4, median 6, max 8 (n=2)",
		"score min 2, median 3, max 4 (n=2)",
		"profile guesses: 1 of 2 right (50%)",
		"3 chats (0 with violations)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
}

// TestUnreachableBot plays against a webhook nobody listens on: the
// report says the bot was unreachable, not that it broke the protocol.
func TestUnreachableBot(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	var out bytes.Buffer
	rep, err := Run(context.Background(), Config{Dialect: Dialect2018, Mode: ModeWebhook, WebhookURL: "http://" + addr + "/hook",
		Chats: 2, ReplyTimeout: time.Second, Out: &out, Log: quiet})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if rep.Unreachable == "" || rep.OK() || !strings.Contains(out.String(), "UNREACHABLE") || strings.Contains(out.String(), "FAIL") {
		t.Errorf("Unreachable %q, OK %v; output:\n%s", rep.Unreachable, rep.OK(), out.String())
	}
	if strings.Contains(rep.Unreachable, "/hook") {
		t.Errorf("the reason %q shows the webhook's path, which may hold a secret", rep.Unreachable)
	}
}
