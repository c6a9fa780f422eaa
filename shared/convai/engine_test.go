package convai_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/convai/convaitest"
	"github.com/duetbot/duet/shared/duet"
	"github.com/duetbot/duet/shared/store/memstore"
)

type fixture struct {
	engine *convai.Engine
	store  *memstore.Store
	out    *convaitest.Outbox
	clock  *convaitest.Clock
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	clk := convaitest.NewClock(time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC))
	st := memstore.New(memstore.WithClock(clk.Now), memstore.WithTTL(time.Hour))
	out := &convaitest.Outbox{}
	return &fixture{
		engine: &convai.Engine{Store: st, Sender: out, Replier: convaitest.Echo{}, Evaluator: convaitest.Echo{}, Now: clk.Now, MaxTurns: 5,
			Log: slog.New(slog.DiscardHandler)},
		store: st, out: out, clock: clk,
	}
}

func (f *fixture) handle(t testing.TB, chat, update int64, text string) error {
	t.Helper()
	return f.engine.Handle(context.Background(), convai.Update{UpdateID: update, ChatID: chat, Text: text})
}

func mustHandle(t testing.TB, f *fixture, chat, update int64, text string) {
	t.Helper()
	if err := f.handle(t, chat, update, text); err != nil {
		t.Fatalf("Handle(%d, %q) = %v", chat, text, err)
	}
}

// partnerTurns returns how many partner messages the chat's newest session
// has stored.
func (f *fixture) partnerTurns(t testing.TB, id int64) int {
	t.Helper()
	c, err := f.store.Load(context.Background(), id)
	if err != nil {
		t.Fatalf("Load(%d): %v", id, err)
	}
	var session int64
	n := 0
	for _, r := range c.Records {
		if r.Session > session {
			session, n = r.Session, 0
		}
		if r.Session == session {
			n = max(n, r.PartnerTurns)
		}
	}
	return n
}

func decode(t testing.TB, msg string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(msg), &m); err != nil {
		t.Fatalf("bot message %q is not JSON: %v", msg, err)
	}
	return m
}

func TestChatLifecycle(t *testing.T) {
	f := newFixture(t)
	const id = -1 << 40
	mustHandle(t, f, id, 0, "/start A wasp is on your wrist.")
	if got := f.out.Of(id); len(got) != 0 {
		t.Fatalf("after /start without /begin the bot sent %q, want nothing", got)
	}
	mustHandle(t, f, id, 0, "A stinging bug that flies")
	mustHandle(t, f, id, 0, "/end")
	sent := f.out.Of(id)
	if len(sent) != 2 {
		t.Fatalf("sent %d messages, want 2: %q", len(sent), sent)
	}
	if _, err := convai.Validate(sent[0], true); err != nil {
		t.Errorf("reply %s: %v", sent[0], err)
	}
	if m := decode(t, sent[0]); m["text"] != "re 1: A stinging bug that flies" || m["evaluation"] != 5.0 {
		t.Errorf("reply = %v, want the echo of the partner rated 5", m)
	}
	if final, err := convai.Validate(sent[1], true); !final || err != nil {
		t.Errorf("last message %s: final=%v err=%v, want a valid /end", sent[1], final, err)
	}
	// After /end: silence, whatever arrives, until a new /start.
	for _, text := range []string{"hello?", "/end", "/begin"} {
		if err := f.handle(t, id, 0, text); duet.Code(err) != duet.ENOTFOUND {
			t.Errorf("Handle(%q) after /end = %v, want ENOTFOUND", text, err)
		}
	}
	if got := len(f.out.Of(id)); got != 2 {
		t.Errorf("after /end the bot sent %d more messages", got-2)
	}
	mustHandle(t, f, id, 0, "/start New topic\n/begin")
	sent = f.out.Of(id)
	if len(sent) != 3 {
		t.Fatalf("a new /start with /begin sent %d messages, want 1", len(sent)-2)
	}
	if m := decode(t, sent[2]); m["text"] != "about New topic" || m["evaluation"] != nil {
		t.Errorf("reply to the context = %v, want text about the context and no evaluation", m)
	}
}

func TestBeginCommand(t *testing.T) {
	f := newFixture(t)
	mustHandle(t, f, 7, 0, "/start\nLine one\nLine two")
	mustHandle(t, f, 7, 0, "/begin")
	if sent := f.out.Of(7); len(sent) != 1 || decode(t, sent[0])["text"] != "about Line one\nLine two" {
		t.Fatalf("after /begin sent %q, want one reply about the whole context", sent)
	}
	if err := f.handle(t, 7, 0, "/begin"); duet.Code(err) != duet.EINVALID {
		t.Errorf("second /begin = %v, want EINVALID", err)
	}
}

func TestUnknownChat(t *testing.T) {
	f := newFixture(t)
	if err := f.handle(t, 99, 0, "hello"); duet.Code(err) != duet.ENOTFOUND {
		t.Fatalf("message to an unknown chat = %v, want ENOTFOUND", err)
	}
}

func TestBotEndsChat(t *testing.T) {
	t.Run("goodbye", func(t *testing.T) {
		f := newFixture(t)
		mustHandle(t, f, 1, 0, "/start ctx")
		mustHandle(t, f, 1, 0, "OK. See you!")
		sent := f.out.Of(1)
		if len(sent) != 2 {
			t.Fatalf("sent %q, want a reply and the final /end", sent)
		}
		if got := decode(t, sent[0])["text"]; got != "farewell" {
			t.Errorf("reply to a goodbye = %q, want the brain asked for a closing reply", got)
		}
		if final, err := convai.Validate(sent[1], true); !final || err != nil {
			t.Errorf("second message %s is not a valid final /end (%v)", sent[1], err)
		}
		if err := f.handle(t, 1, 0, "/end"); duet.Code(err) != duet.ENOTFOUND {
			t.Errorf("server's /end after the bot's = %v, want ENOTFOUND (ignored)", err)
		}
	})
	t.Run("max turns", func(t *testing.T) {
		f := newFixture(t)
		mustHandle(t, f, 2, 0, "/start ctx")
		for i := range 5 {
			mustHandle(t, f, 2, 0, fmt.Sprintf("message %d", i))
		}
		sent := f.out.Of(2)
		if len(sent) != 6 {
			t.Fatalf("sent %d messages after 5 partner turns, want 5 replies and /end", len(sent))
		}
		if final, _ := convai.Validate(sent[5], true); !final {
			t.Errorf("last message %s is not /end", sent[5])
		}
		if got := decode(t, sent[4])["text"]; got != "farewell" {
			t.Errorf("reply to the last allowed turn = %q, want a closing reply", got)
		}
	})
}

func TestDuplicateUpdate(t *testing.T) {
	f := newFixture(t)
	mustHandle(t, f, 5, 10, "/start ctx")
	mustHandle(t, f, 5, 11, "first")
	mustHandle(t, f, 5, 11, "first")
	mustHandle(t, f, 5, 10, "/start ctx")
	if sent := f.out.Of(5); len(sent) != 1 {
		t.Fatalf("re-delivered updates sent %d messages, want 1: %q", len(sent), sent)
	}
	if got := f.partnerTurns(t, 5); got != 1 {
		t.Errorf("partner turns = %d, want 1 (the duplicate is not a turn)", got)
	}
}

func TestSendFailureThenRetry(t *testing.T) {
	f := newFixture(t)
	mustHandle(t, f, 6, 20, "/start ctx")
	f.out.Fail(errors.New("connection refused"))
	err := f.handle(t, 6, 21, "are you there")
	if duet.Code(err) != duet.EUNAVAILABLE || !errors.Is(err, convai.ErrUndelivered) {
		t.Fatalf("Handle with a dead Telegram = %v, want EUNAVAILABLE wrapping ErrUndelivered", err)
	}
	f.out.Fail(nil)
	mustHandle(t, f, 6, 21, "are you there") // Telegram's retry
	mustHandle(t, f, 6, 21, "are you there") // and a stray duplicate
	sent := f.out.Of(6)
	if len(sent) != 1 || decode(t, sent[0])["text"] != "re 1: are you there" {
		t.Fatalf("after the retry sent %q, want exactly the stored reply", sent)
	}
}

func TestSweep(t *testing.T) {
	f := newFixture(t)
	f.engine.IdleTimeout = 5 * time.Minute
	ctx := context.Background()
	mustHandle(t, f, 1, 0, "/start idle chat")
	mustHandle(t, f, 2, 0, "/start busy chat")
	mustHandle(t, f, 3, 0, "/start stuck chat")
	f.out.Fail(errors.New("down"))
	_ = f.handle(t, 3, 0, "hello")
	f.out.Fail(nil)

	f.clock.Advance(4 * time.Minute)
	mustHandle(t, f, 2, 0, "still here")
	res, err := f.engine.Sweep(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.Delivered != 1 || res.Ended != 0 {
		t.Errorf("first sweep = %+v, want the stuck reply delivered and nothing ended", res)
	}
	if sent := f.out.Of(3); len(sent) != 1 {
		t.Errorf("stuck chat got %q, want its stored reply", sent)
	}

	// Idle time counts from the bot's last delivered message: the stuck
	// chat's reply went out in the first sweep, so only chat 1 is idle now.
	f.clock.Advance(2 * time.Minute)
	res, err = f.engine.Sweep(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.Ended != 1 || len(f.out.Of(3)) != 1 {
		t.Errorf("second sweep = %+v, chat 3 got %d messages; want chat 1 ended, chat 3 left open", res, len(f.out.Of(3)))
	}
	f.clock.Advance(4 * time.Minute)
	if res, err = f.engine.Sweep(ctx); err != nil || res.Ended != 2 {
		t.Errorf("third sweep = %+v, %v; want chats 2 and 3 ended", res, err)
	}
	for _, id := range []int64{1, 3} {
		sent := f.out.Of(id)
		if final, err := convai.Validate(sent[len(sent)-1], true); !final || err != nil {
			t.Errorf("chat %d last message %q: want a valid /end", id, sent[len(sent)-1])
		}
	}
	res, _ = f.engine.Sweep(ctx)
	if res != (convai.SweepResult{}) {
		t.Errorf("fourth sweep = %+v, want nothing to do (each chat ended once)", res)
	}
}

func TestConcurrentChats(t *testing.T) {
	f := newFixture(t)
	f.engine.MaxTurns = 100
	var wg sync.WaitGroup
	for id := int64(-50); id < 50; id++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mustHandle(t, f, id, 0, fmt.Sprintf("/start chat %d", id))
			for i := range 3 {
				mustHandle(t, f, id, 0, fmt.Sprintf("chat %d line %d", id, i))
			}
		}()
	}
	wg.Wait()
	for id := int64(-50); id < 50; id++ {
		sent := f.out.Of(id)
		if len(sent) != 3 {
			t.Fatalf("chat %d got %d replies, want 3", id, len(sent))
		}
		for i, msg := range sent {
			want := fmt.Sprintf("re %d: chat %d line %d", 2*i+1, id, i)
			if got := decode(t, msg)["text"]; got != want {
				t.Errorf("chat %d reply %d = %q, want %q", id, i, got, want)
			}
		}
	}
}

// TestRacingDeliveries sends the same chat's messages at once: conditional
// writes keep every turn, and each message is answered exactly once, in the
// order the turns were stored, each reply answering its own message.
func TestRacingDeliveries(t *testing.T) {
	f := newFixture(t)
	f.engine.MaxTurns = 100
	mustHandle(t, f, 9, 0, "/start race")
	const n = 4
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() { errs[i] = f.handle(t, 9, int64(100+i), fmt.Sprintf("m%d", i)) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("delivery of m%d: %v, want each to succeed (a lost race retries on a fresh read)", i, err)
		}
	}

	c, err := f.store.Load(context.Background(), 9)
	if err != nil {
		t.Fatal(err)
	}
	var stored []string
	for _, r := range c.Records {
		if r.Partner != "" {
			stored = append(stored, r.Partner)
		}
	}
	if len(stored) != n {
		t.Fatalf("stored partner messages %q, want the %d sent", stored, n)
	}
	// The partner speaks first (no /begin): the bot sends only replies.
	sent := f.out.Of(9)
	if len(sent) != n {
		t.Fatalf("sent %d messages %q, want %d: one per message", len(sent), sent, n)
	}
	seen := map[string]bool{}
	for i, msg := range sent {
		// convaitest.Echo answers "re <turns so far>: <the partner's message>":
		// turn 2i+1 is the reply to the i-th stored message.
		want := fmt.Sprintf("re %d: %s", 2*i+1, stored[i])
		if got := decode(t, msg)["text"]; got != want {
			t.Errorf("reply %d = %q, want %q", i+1, got, want)
		}
		seen[stored[i]] = true
	}
	for i := range n {
		if m := fmt.Sprintf("m%d", i); !seen[m] {
			t.Errorf("%s was never answered (stored %q)", m, stored)
		}
	}
}

// TestRestartWithUndelivered starts a new chat over one whose reply is still
// waiting: the new chat begins clean and only its own reply goes out.
func TestRestartWithUndelivered(t *testing.T) {
	f := newFixture(t)
	mustHandle(t, f, 4, 0, "/start old")
	f.out.Fail(errors.New("down"))
	_ = f.handle(t, 4, 0, "old message")
	f.out.Fail(nil)
	mustHandle(t, f, 4, 0, "/start new\n/begin")
	sent := f.out.Of(4)
	if len(sent) != 1 || decode(t, sent[0])["text"] != "about new" {
		t.Fatalf("sent %q, want only the reply to the new context", sent)
	}
	if got := f.partnerTurns(t, 4); got != 0 {
		t.Errorf("new chat has %d partner turns, want none", got)
	}
}

// judgeBrain is convaitest.Echo whose final reports what request it saw: the
// score is the number of candidates (out of range on purpose when large)
// and the profile guess the last candidate's index plus one (never valid).
type judgeBrain struct {
	convaitest.Echo
	mu  sync.Mutex
	got []*brain.Judge
}

func (b *judgeBrain) Final(_ context.Context, r brain.Request) (brain.Scores, error) {
	b.mu.Lock()
	b.got = append(b.got, r.Judge)
	b.mu.Unlock()
	s := brain.Scores{Quality: 10, Breadth: 6, Engagement: 7}
	if r.Judge != nil {
		s.Score = 100
		n := len(r.Judge.Profiles)
		s.Profile = &n
	}
	return s, nil
}

// TestRouterDialect plays a 2018 router chat: the profile after /start,
// rated replies carrying msg_evaluation, and the evaluation request at the
// end answered with all five keys, the score in range and the guess a
// valid index; a malformed request still ends the chat, for 1..5 without
// a guess.
func TestRouterDialect(t *testing.T) {
	profile := "i like to ride horses.\ni help tend the fields.\ni have three horses.\ni love the sunrise."
	judge := brain.Judge{Min: 2, Max: 4, Profiles: [][]string{{"i am a nurse.", "i like cats."}, {"i play guitar."}, {"i hate mornings."}}}
	tests := []struct {
		name        string
		end         string
		want        *brain.Judge
		wantScore   int
		wantProfile int // -1: no profile_idx
	}{
		{"request", convai.FormatJudge(judge), &judge, 4, 2},
		{"crlf request", strings.ReplaceAll(convai.FormatJudge(judge), "\n", "\r\n"), &judge, 4, 2},
		{"range only", "/end 1 10", &brain.Judge{Min: 1, Max: 10}, 10, -1},
		{"malformed", "/end 5 1\n/profile_0\nx", &convai.DefaultJudge, 5, -1},
		{"2017 end", "/end", nil, 5, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			jb := &judgeBrain{}
			var logs bytes.Buffer
			f.engine.Evaluator, f.engine.Log = jb, slog.New(slog.NewTextHandler(&logs, nil))
			mustHandle(t, f, 7, 1, "/start\n"+profile)
			mustHandle(t, f, 7, 2, "hi there! do you have pets?")
			mustHandle(t, f, 7, 3, tt.end)
			sent := f.out.Of(7)
			if len(sent) != 2 {
				t.Fatalf("sent %d messages, want 2: %q", len(sent), sent)
			}
			var reply map[string]any
			if err := json.Unmarshal([]byte(sent[0]), &reply); err != nil {
				t.Fatal(err)
			}
			if reply["evaluation"] == nil || reply["msg_evaluation"] != reply["evaluation"] {
				t.Errorf("reply %s: msg_evaluation must equal evaluation", sent[0])
			}
			if final, err := convai.Validate(sent[1], true); !final || err != nil {
				t.Fatalf("final %s: %v, %v", sent[1], final, err)
			}
			var fin struct {
				Text       string
				Evaluation map[string]int
			}
			if err := json.Unmarshal([]byte(sent[1]), &fin); err != nil {
				t.Fatal(err)
			}
			ev := fin.Evaluation
			if ev["quality"] != 10 || ev["breadth"] != 6 || ev["engagement"] != 7 {
				t.Errorf("final %s: want quality 10, breadth 6, engagement 7", sent[1])
			}
			if ev["score"] != tt.wantScore {
				t.Errorf("final %s: score %d, want %d", sent[1], ev["score"], tt.wantScore)
			}
			idx, has := ev["profile_idx"]
			if tt.wantProfile < 0 && has || tt.wantProfile >= 0 && (!has || idx != tt.wantProfile) {
				t.Errorf("final %s: profile_idx %d (present %v), want %d", sent[1], idx, has, tt.wantProfile)
			}
			if len(jb.got) != 1 || fmt.Sprint(jb.got[0]) != fmt.Sprint(tt.want) {
				t.Errorf("Final saw judge %v, want %v", jb.got, tt.want)
			}
			if warned := strings.Contains(logs.String(), "malformed evaluation request"); warned != (tt.name == "malformed") {
				t.Errorf("logged a malformed request: %v, want %v (logs %q)", warned, tt.name == "malformed", logs.String())
			}
			// A redelivered /end resends the stored final, unchanged.
			mustHandle(t, f, 7, 3, tt.end)
			if again := f.out.Of(7); len(again) != 2 || len(jb.got) != 1 {
				t.Errorf("redelivered /end: sent %q, Final called %d times", again, len(jb.got))
			}
		})
	}
}
