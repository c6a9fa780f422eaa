package convaisim

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"math"
	mrand "math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/duet"
	"github.com/duetbot/duet/shared/poller"
	"github.com/duetbot/duet/shared/store/memstore"
	"github.com/duetbot/duet/shared/telegram"
)

var quiet = slog.New(slog.DiscardHandler)

// fakeBrain answers every message the same way.
type fakeBrain struct{}

func (fakeBrain) Reply(_ context.Context, req brain.Request) (string, error) {
	if last, ok := req.LastPartner(); ok {
		return fmt.Sprintf("You said %d words.", len(strings.Fields(last))), nil
	}
	return "Let us talk about this.", nil
}

func (fakeBrain) Rate(context.Context, brain.Request) (int, error) { return 7, nil }

func (fakeBrain) Final(context.Context, brain.Request) (brain.Scores, error) {
	return brain.Scores{Quality: 8, Breadth: 7, Engagement: 6}, nil
}

func newEngine(t testing.TB, apiURL, token string) *convai.Engine {
	t.Helper()
	client, err := telegram.New(apiURL, token, telegram.WithLogger(quiet), telegram.WithBackoff(10*time.Millisecond, 50*time.Millisecond))
	if err != nil {
		t.Fatalf("telegram.New: %v", err)
	}
	return &convai.Engine{Store: memstore.New(), Sender: client, Replier: fakeBrain{}, Evaluator: fakeBrain{}, Log: quiet}
}

// pollBot starts handle behind the poller once the simulator is ready and
// stops it when the test ends.
func pollBot(t *testing.T, handle func(t *testing.T, apiURL, token string) func(context.Context, convai.Update) error) func(context.Context, string, string) error {
	return func(_ context.Context, apiURL, token string) error {
		client, err := telegram.New(apiURL, token, telegram.WithLogger(quiet))
		if err != nil {
			return err
		}
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Short polling pace: the broken-bot cases wait only 300 ms for a reply.
			p := &poller.Poller{Source: client, Engine: funcEngine(handle(t, apiURL, token)), Timeout: 10 * time.Second, MinInterval: 10 * time.Millisecond, Log: quiet}
			_ = p.Run(ctx)
		}()
		t.Cleanup(func() { cancel(); wg.Wait() })
		return nil
	}
}

// funcEngine lets a bare handle function, such as a deliberately broken
// bot's, run behind the poller. Its errors are dropped, not retried: a
// retry would replay the broken behaviour and muddle what the test expects.
type funcEngine func(context.Context, convai.Update) error

func (f funcEngine) Handle(ctx context.Context, u convai.Update) error { _ = f(ctx, u); return nil }
func (f funcEngine) Deliver(context.Context, int64) error              { return nil }

func engineHandler(t *testing.T, apiURL, token string) func(context.Context, convai.Update) error {
	return newEngine(t, apiURL, token).Handle
}

func TestCorrectBotPasses(t *testing.T) {
	for _, d := range []Dialect{DialectTelegram, Dialect2017, Dialect2018} {
		for _, mode := range []Mode{ModePoll, ModeWebhook} {
			t.Run(fmt.Sprintf("%s/%s", d, mode), func(t *testing.T) {
				var out bytes.Buffer
				cfg := Config{Dialect: d, Mode: mode, Chats: 5, ReplyTimeout: 10 * time.Second, Out: &out, Log: quiet}
				if mode == ModePoll {
					cfg.Ready = pollBot(t, engineHandler)
				} else {
					const secret = "webhook-secret"
					var engine atomic.Pointer[convai.Engine]
					bot := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
						if r.Header.Get("X-Telegram-Bot-Api-Secret-Token") != secret {
							http.Error(w, "unauthorized", http.StatusUnauthorized)
							return
						}
						body, _ := io.ReadAll(r.Body)
						u, err := telegram.ParseUpdate(body)
						if err != nil {
							t.Errorf("the simulator sent an update the bot cannot parse: %v", err)
							return
						}
						err = engine.Load().Handle(r.Context(), convai.Update{UpdateID: u.UpdateID, ChatID: u.Message.Chat.ID, Text: u.Message.Text})
						if duet.Code(err) == duet.EUNAVAILABLE {
							http.Error(w, "try again", http.StatusServiceUnavailable)
						}
					}))
					defer bot.Close()
					cfg.WebhookURL, cfg.Secret = bot.URL, secret
					cfg.Ready = func(_ context.Context, apiURL, token string) error {
						engine.Store(newEngine(t, apiURL, token))
						return nil
					}
				}
				rep, err := Run(context.Background(), cfg)
				if err != nil {
					t.Fatalf("Run: %v", err)
				}
				if !rep.OK() {
					t.Fatalf("got %d violations, want none:\n%s", rep.ViolationCount(), out.String())
				}
				if len(rep.Chats) != 5 {
					t.Fatalf("got %d chats, want 5", len(rep.Chats))
				}
				for _, c := range rep.Chats {
					if !c.Ended {
						t.Errorf("chat %d (%s) did not end with a final evaluation", c.ID, c.Script)
					}
					if c.Script == "long" {
						if got := countFrom(c.Transcript, "Bot"); got != convai.DefaultMaxTurns+1 {
							t.Errorf("long chat: got %d bot messages, want %d replies and the final /end", got, convai.DefaultMaxTurns+1)
						}
					}
				}
				if !strings.Contains(out.String(), ": OK") || !strings.Contains(out.String(), "Bot: ") {
					t.Errorf("output lacks transcripts or verdict:\n%s", out.String())
				}
			})
		}
	}
}

func countFrom(lines []Line, from string) int {
	n := 0
	for _, l := range lines {
		if l.From == from {
			n++
		}
	}
	return n
}

// brokenBot replies to every server message through reply, which returns
// the messages to send (none for nil).
func brokenBot(reply func(cmd convai.Command) []string) func(*testing.T, string, string) func(context.Context, convai.Update) error {
	return func(t *testing.T, apiURL, token string) func(context.Context, convai.Update) error {
		client, err := telegram.New(apiURL, token, telegram.WithLogger(quiet), telegram.WithMaxAttempts(1))
		if err != nil {
			t.Fatalf("telegram.New: %v", err)
		}
		return func(ctx context.Context, u convai.Update) error {
			for _, msg := range reply(convai.Parse(u.Text)) {
				if err := client.Send(ctx, u.ChatID, msg); err != nil {
					return err
				}
			}
			return nil
		}
	}
}

const (
	goodReply = `{"text":"I see.","evaluation":5,"msg_evaluation":5}`
	goodFinal = `{"text":"/end","evaluation":{"quality":5,"breadth":5,"engagement":5,"score":3,"profile_idx":1}}`
)

// standard answers like a correct bot, with f overriding the reply to text.
func standard(text func() []string) func(convai.Command) []string {
	return func(cmd convai.Command) []string {
		switch cmd.Kind {
		case convai.Start:
			return nil
		case convai.End:
			return []string{goodFinal}
		}
		return text()
	}
}

func TestBrokenBotsAreCaught(t *testing.T) {
	tests := []struct {
		name    string
		dialect Dialect
		reply   func(convai.Command) []string
		// handle, when set, replaces the bot built from reply.
		handle       func(*testing.T, string, string) func(context.Context, convai.Update) error
		replyTimeout time.Duration
		want         []string // each violation must contain one of these
	}{
		{
			name:    "invalid JSON",
			dialect: Dialect2017,
			reply:   standard(func() []string { return []string{"hello, not JSON"} }),
			want:    []string{"not a JSON object"},
		},
		{
			name:    "missing evaluation",
			dialect: DialectTelegram,
			reply:   standard(func() []string { return []string{`{"text":"no score here"}`} }),
			want:    []string{`"evaluation" is missing`},
		},
		{
			name:    "evaluation out of range",
			dialect: Dialect2018,
			reply:   standard(func() []string { return []string{`{"text":"hi","evaluation":11}`} }),
			want:    []string{"want 1..10"},
		},
		{
			name:    "double reply",
			dialect: DialectTelegram,
			reply:   standard(func() []string { return []string{goodReply, goodReply} }),
			want:    []string{"reply to no partner message", "after the server's /end", "after the final /end"},
		},
		{
			name:    "reply to /start without /begin",
			dialect: Dialect2018,
			reply: func(cmd convai.Command) []string {
				if cmd.Kind == convai.End {
					return []string{goodFinal}
				}
				return []string{goodReply}
			},
			want: []string{"reply to no partner message", "after the server's /end", "after the final /end"},
		},
		{
			name:    "no /end",
			dialect: Dialect2017,
			reply: func(cmd convai.Command) []string {
				return map[bool][]string{true: {goodReply}}[cmd.Kind == convai.Text]
			},
			replyTimeout: 300 * time.Millisecond,
			want:         []string{"no final /end evaluation"},
		},
		{
			name:    "final /end without scores",
			dialect: Dialect2017,
			reply: func(cmd convai.Command) []string {
				if cmd.Kind == convai.End {
					return []string{`{"text":"/end"}`}
				}
				return map[bool][]string{true: {goodReply}}[cmd.Kind == convai.Text]
			},
			replyTimeout: 300 * time.Millisecond,
			want:         []string{"invalid final /end", "no final /end evaluation"},
		},
		{
			name:    "two finals",
			dialect: DialectTelegram,
			reply: func(cmd convai.Command) []string {
				switch cmd.Kind {
				case convai.Start:
					return nil
				case convai.End:
					return []string{goodFinal, goodFinal}
				}
				return []string{goodReply}
			},
			want: []string{"after the final /end"},
		},
		{
			name:    "message to an unknown chat",
			dialect: DialectTelegram,
			handle: func(t *testing.T, apiURL, token string) func(context.Context, convai.Update) error {
				good := brokenBot(standard(func() []string { return []string{goodReply} }))(t, apiURL, token)
				client, _ := telegram.New(apiURL, token, telegram.WithLogger(quiet), telegram.WithMaxAttempts(1))
				return func(ctx context.Context, u convai.Update) error {
					_ = client.Send(ctx, 42, goodReply)
					return good(ctx, u)
				}
			},
			want: []string{"chat 42, which does not exist"},
		},
		{
			name:    "form body on the 2017 server",
			dialect: Dialect2017,
			handle: func(t *testing.T, apiURL, token string) func(context.Context, convai.Update) error {
				return func(ctx context.Context, u convai.Update) error {
					text := goodReply
					switch convai.Parse(u.Text).Kind {
					case convai.Start:
						return nil
					case convai.End:
						text = goodFinal
					}
					endpoint := strings.ReplaceAll(apiURL, "{token}", token) + "/sendMessage"
					resp, err := http.PostForm(endpoint, url.Values{"chat_id": {fmt.Sprint(u.ChatID)}, "text": {text}})
					if err != nil {
						return err
					}
					resp.Body.Close()
					if resp.StatusCode != http.StatusBadRequest {
						t.Errorf("form body: got HTTP %d, want 400", resp.StatusCode)
					}
					return nil
				}
			},
			replyTimeout: 300 * time.Millisecond,
			want:         []string{"form body", "no reply within", "no final /end evaluation"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			handle := tt.handle
			if handle == nil {
				handle = brokenBot(tt.reply)
			}
			timeout := tt.replyTimeout
			if timeout == 0 {
				timeout = 10 * time.Second
			}
			var out bytes.Buffer
			rep, err := Run(context.Background(), Config{
				Dialect: tt.dialect, Chats: 2, ReplyTimeout: timeout, Out: &out, Log: quiet,
				Scripts: Scripts[:1], Ready: pollBot(t, handle),
			})
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if rep.OK() {
				t.Fatalf("got OK, want violations:\n%s", out.String())
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
			if !strings.Contains(out.String(), "FAIL") {
				t.Errorf("summary lacks the FAIL verdict:\n%s", out.String())
			}
		})
	}
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

func TestChatIDs(t *testing.T) {
	for _, d := range []Dialect{DialectTelegram, Dialect2017, Dialect2018} {
		t.Run(string(d), func(t *testing.T) {
			ids := chatIDs(d, 40, mrand.New(mrand.NewPCG(1, 2)))
			seen := map[int64]bool{}
			var negative, wide bool
			for _, id := range ids {
				if seen[id] {
					t.Fatalf("chat id %d appears twice", id)
				}
				seen[id] = true
				negative = negative || id < 0
				wide = wide || id > 1<<31-1 || id < -1<<31
			}
			if !negative {
				t.Error("no negative chat id")
			}
			if seen[0] {
				t.Error("chat id 0, which no server uses")
			}
			if want := d != Dialect2017; wide != want {
				t.Errorf("ids beyond 32 bits: got %v, want %v", wide, want)
			}
		})
	}
}

// TestRunsHaveFreshIDs: without a Seed, every run draws its own chat ids
// and update ids, within the dialect's range.
func TestRunsHaveFreshIDs(t *testing.T) {
	for _, d := range []Dialect{DialectTelegram, Dialect2017, Dialect2018} {
		t.Run(string(d), func(t *testing.T) {
			chats := map[int64]bool{}
			updates := map[int64]bool{}
			for range 5 {
				s, err := NewServer(Config{Dialect: d, Chats: 8})
				if err != nil {
					t.Fatal(err)
				}
				if updates[s.nextUpdate] {
					t.Errorf("two runs start at update id %d", s.nextUpdate)
				}
				updates[s.nextUpdate] = true
				if s.nextUpdate <= 0 || s.nextUpdate >= 1<<31 {
					t.Errorf("first update id %d, want within (0, 2^31)", s.nextUpdate)
				}
				for _, id := range s.order {
					if chats[id] {
						t.Errorf("chat id %d reused by another run", id)
					}
					chats[id] = true
					if d == Dialect2017 && (id > math.MaxInt32 || id < math.MinInt32) {
						t.Errorf("chat id %d outside the 2017 server's signed 32-bit range", id)
					}
				}
			}
			a, _ := NewServer(Config{Dialect: d, Chats: 8, Seed: 42})
			b, _ := NewServer(Config{Dialect: d, Chats: 8, Seed: 42})
			if fmt.Sprint(a.order, a.nextUpdate) != fmt.Sprint(b.order, b.nextUpdate) {
				t.Errorf("one Seed gave two sets of ids: %v and %v", a.order, b.order)
			}
		})
	}
}

// swapSender sends through the client of the current run.
type swapSender struct {
	c atomic.Pointer[telegram.Client]
}

func (s *swapSender) Send(ctx context.Context, chatID int64, text string) error {
	return s.c.Load().Send(ctx, chatID, text)
}

// TestTwoRunsAgainstOneBot: a second run against the same bot, which
// remembers every chat of the first, passes too.
func TestTwoRunsAgainstOneBot(t *testing.T) {
	for _, d := range []Dialect{DialectTelegram, Dialect2017} {
		t.Run(string(d), func(t *testing.T) {
			sender := &swapSender{}
			engine := &convai.Engine{Store: memstore.New(), Sender: sender, Replier: fakeBrain{}, Evaluator: fakeBrain{}, Log: quiet}
			bot := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				u, err := telegram.ParseUpdate(body)
				if err != nil {
					t.Errorf("the simulator sent an update the bot cannot parse: %v", err)
					return
				}
				err = engine.Handle(r.Context(), convai.Update{UpdateID: u.UpdateID, ChatID: u.Message.Chat.ID, Text: u.Message.Text})
				if duet.Code(err) == duet.EUNAVAILABLE {
					http.Error(w, "try again", http.StatusServiceUnavailable)
				}
			}))
			defer bot.Close()
			for run := 1; run <= 2; run++ {
				var out bytes.Buffer
				rep, err := Run(context.Background(), Config{Dialect: d, Mode: ModeWebhook, WebhookURL: bot.URL, Chats: 4,
					ReplyTimeout: 10 * time.Second, Out: &out, Quiet: true, Log: quiet,
					Ready: func(_ context.Context, apiURL, token string) error {
						c, err := telegram.New(apiURL, token, telegram.WithLogger(quiet))
						sender.c.Store(c)
						return err
					}})
				if err != nil {
					t.Fatalf("run %d: %v", run, err)
				}
				if !rep.OK() {
					t.Fatalf("run %d: got %d violations, want none:\n%s", run, rep.ViolationCount(), out.String())
				}
			}
		})
	}
}

func TestNewServerRejectsBadConfig(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
	}{
		{"unknown dialect", Config{Dialect: "convai2019"}},
		{"unknown mode", Config{Mode: "push"}},
		{"webhook without URL", Config{Mode: ModeWebhook}},
		{"token with a slash", Config{Token: "a/b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := NewServer(tt.cfg); err == nil {
				t.Error("got no error, want one")
			}
		})
	}
}
