package convai_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/convai/convaitest"
	"github.com/duetbot/duet/shared/duet"
)

// slowOutbox is an outbox whose Send takes delay and honours its context.
type slowOutbox struct {
	convaitest.Outbox
	delay time.Duration
	calls atomic.Int64
}

func (o *slowOutbox) Send(ctx context.Context, chatID int64, text string) error {
	o.calls.Add(1)
	select {
	case <-time.After(o.delay):
	case <-ctx.Done():
		return ctx.Err()
	}
	return o.Outbox.Send(ctx, chatID, text)
}

// TestConcurrentDuplicates delivers every update twice at the same moment
// while sendMessage takes 50 ms: each chat gets exactly one reply per
// message, /end included.
func TestConcurrentDuplicates(t *testing.T) {
	f := newFixture(t)
	f.engine.MaxTurns = 100
	out := &slowOutbox{delay: 50 * time.Millisecond}
	f.engine.Sender = out
	const chats = 30
	var wg sync.WaitGroup
	for id := range int64(chats) {
		wg.Go(func() {
			for i, text := range []string{"/start ctx\n/begin", "hello there", "how are you", "/end"} {
				update := id*10 + int64(i) + 1
				var twice sync.WaitGroup
				for range 2 {
					twice.Go(func() {
						if err := f.handle(t, id, update, text); err != nil {
							t.Errorf("chat %d update %d: %v", id, update, err)
						}
					})
				}
				twice.Wait()
			}
		})
	}
	wg.Wait()
	for id := range int64(chats) {
		sent := out.Of(id)
		if len(sent) != 4 {
			t.Errorf("chat %d: got %d messages, want 4 (context reply, two replies, final): %q", id, len(sent), sent)
			continue
		}
		if final, err := convai.Validate(sent[3], true); !final || err != nil {
			t.Errorf("chat %d: last message %s is not a valid final (%v)", id, sent[3], err)
		}
	}
}

// TestNoOvertaking fails reply 1; message 2 arrives at once: reply 1 goes
// out before reply 2, each once.
func TestNoOvertaking(t *testing.T) {
	f := newFixture(t)
	mustHandle(t, f, 1, 1, "/start ctx")
	f.out.Fail(errors.New("telegram is down"))
	if err := f.handle(t, 1, 2, "first"); !errors.Is(err, convai.ErrUndelivered) {
		t.Fatalf("Handle with a dead Bot API = %v, want ErrUndelivered", err)
	}
	f.out.Fail(nil)
	mustHandle(t, f, 1, 3, "second")
	sent := f.out.Of(1)
	want := []string{"re 1: first", "re 3: second"}
	if len(sent) != len(want) {
		t.Fatalf("sent %q, want replies to first then second", sent)
	}
	for i, w := range want {
		if got := decode(t, sent[i])["text"]; got != w {
			t.Errorf("message %d = %q, want %q", i, got, w)
		}
	}
	mustHandle(t, f, 1, 2, "first") // Telegram's retry of the failed update
	if got := len(f.out.Of(1)); got != 2 {
		t.Errorf("the retry sent %d more messages, want none", got-2)
	}
}

// TestWaitsForEarlierSender holds reply 1 in a slow send while message 2
// and a duplicate of message 1 arrive at other handlers: reply 2 waits for
// reply 1, and the duplicate sends nothing.
func TestWaitsForEarlierSender(t *testing.T) {
	f := newFixture(t)
	out := &gatedOutbox{release: make(chan struct{}), entered: make(chan struct{}, 4)}
	f.engine.Sender = out
	mustHandle(t, f, 1, 1, "/start ctx")
	first := make(chan error)
	go func() { first <- f.handle(t, 1, 2, "first") }()
	<-out.entered // reply 1 is being sent
	second := make(chan error)
	go func() { second <- f.handle(t, 1, 3, "second") }()
	// A duplicate of update 2 meanwhile must not send reply 1 again: it
	// waits for the live sender, and succeeds once reply 1 is out.
	dup := make(chan error)
	go func() { dup <- f.handle(t, 1, 2, "first") }()
	close(out.release)
	for name, ch := range map[string]chan error{"first": first, "second": second, "duplicate": dup} {
		if err := <-ch; err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	got := out.texts(t)
	if !slices.Equal(got, []string{"re 1: first", "re 3: second"}) {
		t.Errorf("sent %q, want reply 1 then reply 2, once each", got)
	}
}

// gatedOutbox blocks every Send until release is closed.
type gatedOutbox struct {
	convaitest.Outbox
	release chan struct{}
	entered chan struct{}
}

func (o *gatedOutbox) Send(ctx context.Context, chatID int64, text string) error {
	select {
	case o.entered <- struct{}{}:
	default:
	}
	select {
	case <-o.release:
	case <-ctx.Done():
		return ctx.Err()
	}
	return o.Outbox.Send(ctx, chatID, text)
}

func (o *gatedOutbox) texts(t *testing.T) []string {
	var out []string
	for _, m := range o.Of(1) {
		out = append(out, decode(t, m)["text"].(string))
	}
	return out
}

// TestCallerHangsUp cancels the caller's context as soon as Handle starts:
// the reply is still delivered, within the engine's own deadline.
func TestCallerHangsUp(t *testing.T) {
	f := newFixture(t)
	out := &slowOutbox{delay: 20 * time.Millisecond}
	f.engine.Sender = out
	mustHandle(t, f, 1, 1, "/start ctx")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := f.engine.Handle(ctx, convai.Update{UpdateID: 2, ChatID: 1, Text: "hello"}); err != nil {
		t.Fatalf("Handle after the caller hung up: %v", err)
	}
	if sent := out.Of(1); len(sent) != 1 {
		t.Fatalf("sent %q, want the reply", sent)
	}
}

// TestSessionDeduplication: update ids are remembered per session, and an
// id reused with another text (a server that restarted its counter) is a
// new message.
func TestSessionDeduplication(t *testing.T) {
	f := newFixture(t)
	mustHandle(t, f, 1, 1, "/start one\n/begin")
	mustHandle(t, f, 1, 2, "hello")
	mustHandle(t, f, 1, 2, "hello") // a duplicate
	mustHandle(t, f, 1, 3, "/end")
	// A second run of the same script, same ids: a new session.
	mustHandle(t, f, 1, 1, "/start two\n/begin")
	mustHandle(t, f, 1, 2, "hello")
	mustHandle(t, f, 1, 3, "/end")
	if got := len(f.out.Of(1)); got != 6 {
		t.Errorf("two sessions with the same ids sent %d messages, want 6", got)
	}
	// A server that restarts its counter mid-session.
	mustHandle(t, f, 2, 5, "/start x")
	mustHandle(t, f, 2, 6, "first")
	mustHandle(t, f, 2, 6, "not the same message")
	if got := len(f.out.Of(2)); got != 2 {
		t.Errorf("a reused id with new text sent %d replies in all, want 2", got)
	}
}

// commandBrain answers every message with a protocol command.
type commandBrain struct {
	convaitest.Echo
	text string
}

func (b commandBrain) Reply(context.Context, brain.Request) (string, error) { return b.text, nil }

// TestReplyIsNeverACommand: whatever the reply engine says, only the bot's
// own final ends a chat.
func TestReplyIsNeverACommand(t *testing.T) {
	for _, text := range []string{"/end", "Bot: /end", `"/end"`, "<think>done</think>/end", " /start over", "/begin", "**/end**", "//end"} {
		for _, fallback := range []bool{false, true} {
			t.Run(fmt.Sprintf("%q fallback=%v", text, fallback), func(t *testing.T) {
				f := newFixture(t)
				f.engine.Replier = commandBrain{text: text}
				if fallback {
					f.engine.Fallback = convaitest.Echo{}
				}
				mustHandle(t, f, 1, 1, "/start ctx")
				mustHandle(t, f, 1, 2, "hello")
				sent := f.out.Of(1)
				if len(sent) != 1 {
					t.Fatalf("sent %q, want one reply", sent)
				}
				final, err := convai.Validate(sent[0], true)
				reply, _ := decode(t, sent[0])["text"].(string)
				if final || err != nil || convai.IsCommand(reply) {
					t.Errorf("reply %s: final=%v err=%v; want an ordinary valid reply", sent[0], final, err)
				}
				if fallback && reply != "re 1: hello" {
					t.Errorf("reply %q, want the fallback's", reply)
				}
				mustHandle(t, f, 1, 3, "still there?") // the chat is still open
			})
		}
	}
}

// TestBacklogIsBounded: while replies cannot be delivered, a chat accepts
// messages only up to the window, then asks for a retry; nothing is lost.
func TestBacklogIsBounded(t *testing.T) {
	f := newFixture(t)
	f.engine.MaxTurns = 100
	mustHandle(t, f, 1, 1, "/start ctx")
	f.out.Fail(errors.New("down"))
	accepted := 0
	for i := range convai.Window + 2 {
		err := f.handle(t, 1, int64(10+i), fmt.Sprintf("m%d", i))
		switch {
		case errors.Is(err, convai.ErrUndelivered):
			accepted++
		case duet.Code(err) == duet.EUNAVAILABLE:
		default:
			t.Fatalf("message %d: %v", i, err)
		}
	}
	if accepted != convai.Window-1 {
		t.Errorf("accepted %d undelivered messages, want %d", accepted, convai.Window-1)
	}
	f.out.Fail(nil)
	if err := f.engine.Deliver(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	if got := len(f.out.Of(1)); got != accepted {
		t.Errorf("delivered %d, want the %d accepted, in order", got, accepted)
	}
	for i, m := range f.out.Of(1) {
		if want := fmt.Sprintf("re %d: m%d", 2*i+1, i); decode(t, m)["text"] != want && i < 4 {
			t.Errorf("reply %d = %v, want %q", i, decode(t, m)["text"], want)
		}
	}
}

// enderBrain ends the chat on the partner's second message.
type enderBrain struct{ convaitest.Echo }

func (b enderBrain) ReplyEnd(ctx context.Context, req brain.Request) (string, bool, error) {
	n := 0
	for _, t := range req.Turns {
		if t.Role == brain.Partner {
			n++
		}
	}
	if n >= 2 {
		return "Nothing more to ask: thank you!", true, nil
	}
	text, err := b.Reply(ctx, req)
	return text, false, err
}

// TestReplierEndsChat: a brain.Ender that decides the chat is over gets
// its closing line sent, then the final, and the chat ends.
func TestReplierEndsChat(t *testing.T) {
	f := newFixture(t)
	f.engine.Replier = enderBrain{}
	mustHandle(t, f, 1, 1, "/start a request")
	mustHandle(t, f, 1, 2, "an answer")
	mustHandle(t, f, 1, 3, "another answer")
	sent := f.out.Of(1)
	if len(sent) != 3 {
		t.Fatalf("sent %q, want a reply, the closing line and the final", sent)
	}
	if got := decode(t, sent[1])["text"]; got != "Nothing more to ask: thank you!" {
		t.Errorf("closing line = %q", got)
	}
	if final, err := convai.Validate(sent[2], true); !final || err != nil {
		t.Errorf("last message %s: want a valid final (%v)", sent[2], err)
	}
	if err := f.handle(t, 1, 4, "hello?"); duet.Code(err) != duet.ENOTFOUND {
		t.Errorf("a message after the bot ended the chat: %v, want ENOTFOUND", err)
	}
}

// flakyCommits is a store whose next commits fail, as a store unreachable
// for a moment does, and which counts its loads.
type flakyCommits struct {
	convai.Store
	failures atomic.Int64 // commits still to fail
	loads    atomic.Int64
}

func (s *flakyCommits) Load(ctx context.Context, id int64) (*convai.Chat, error) {
	s.loads.Add(1)
	return s.Store.Load(ctx, id)
}

func (s *flakyCommits) Commit(ctx context.Context, h convai.Head, prev int64) error {
	if s.failures.Add(-1) >= 0 {
		return errors.New("store unreachable")
	}
	return s.Store.Commit(ctx, h, prev)
}

// TestCommitRetriesTheSameWrite: a delivery whose commit fails for a
// moment is recorded by writing the same head again — no reload between,
// which would spend the little time a recording has on a read — and the
// chat goes on with nothing sent twice.
func TestCommitRetriesTheSameWrite(t *testing.T) {
	f := newFixture(t)
	st := &flakyCommits{Store: f.store}
	f.engine.Store = st
	mustHandle(t, f, 1, 1, "/start ctx")
	mustHandle(t, f, 1, 2, "hello")

	st.failures.Store(3)
	loads := st.loads.Load()
	mustHandle(t, f, 1, 3, "second")
	if got := st.loads.Load() - loads; got != 1 {
		t.Errorf("the message loaded the chat %d times, want 1 (before storing it): a failed commit reloaded it", got)
	}
	if n := st.failures.Load(); n >= 0 {
		t.Fatalf("%d commit failures left unspent", n+1)
	}
	mustHandle(t, f, 1, 4, "third")
	if got, want := len(f.out.Of(1)), 3; got != want {
		t.Errorf("the chat received %d messages, want %d: %q", got, want, f.out.Of(1))
	}
	c, err := f.store.Load(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if c.Head.Sent != 3 || !c.Head.Pending.IsZero() {
		t.Errorf("head after the flaky commit: sent %d, pending %v; want 3 and none", c.Head.Sent, c.Head.Pending)
	}
}
