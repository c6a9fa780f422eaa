package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/convai/convaitest"
	"github.com/duetbot/duet/shared/telegram"
)

// FaultConfig sizes a RunFaults run.
type FaultConfig struct {
	Chats    int // concurrent chats
	Messages int // partner messages per chat, between /start and /end
}

// RunFaults races the delivery guarantees on stores newStore makes: two
// engines (two instances) share one store; every chat's updates reach them
// as Telegram delivers them — in order, one at a time, redelivered after
// any non-2xx, sometimes twice at once or again later; a fake Bot API
// answers 429 and 500, hangs, drops connections; the store pauses now and
// then; both engines sweep all along. Every chat must end with exactly one
// reply per message, in order, then one final, nothing lost or duplicated —
// but for the one named case: the Bot API recorded a message and its
// sender never read the answer, or could not record that it did, which
// may leave one adjacent copy.
func RunFaults(t *testing.T, cfg FaultConfig, newStore func(t *testing.T) convai.Store) {
	api := newFaultyBotAPI(t)
	client, err := telegram.New(api.srv.URL, "123:fault", telegram.WithHTTPClient(&http.Client{Transport: api}),
		telegram.WithRequestTimeout(250*time.Millisecond),
		telegram.WithBackoff(5*time.Millisecond, 50*time.Millisecond), telegram.WithMaxAttempts(2),
		telegram.WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatal(err)
	}
	store := &pausingStore{Store: newStore(t)}
	engines := make([]*convai.Engine, 2)
	for i := range engines {
		engines[i] = &convai.Engine{
			Store: store, Sender: client, Replier: convaitest.Echo{}, Evaluator: convaitest.Echo{},
			MaxTurns: 1000, IdleTimeout: time.Hour, OutboxGrace: 300 * time.Millisecond,
			DeliveryTimeout: 1500 * time.Millisecond, Log: slog.New(engineLog{api}),
		}
	}

	ctx, stop := context.WithCancel(context.Background())
	var bg sync.WaitGroup
	var swept atomic.Int64
	bg.Go(func() { store.pauseNowAndThen(ctx) })
	for _, e := range engines {
		bg.Go(func() {
			for sleepOrDone(ctx, 100*time.Millisecond) {
				res, err := e.Sweep(ctx)
				if err != nil && ctx.Err() == nil {
					t.Logf("sweep: %v", err)
				}
				if res.Ended > 0 {
					t.Errorf("a sweep ended %d chats early", res.Ended)
				}
				swept.Add(int64(res.Delivered))
			}
		})
	}

	var dupNow, dupLate, redelivered atomic.Int64
	var chats sync.WaitGroup
	base := rand.Int64N(1 << 40)
	for c := range cfg.Chats {
		chats.Go(func() {
			id := -(base + int64(c)) // negative, like group chats
			rng := rand.New(rand.NewPCG(uint64(c), 7))
			api.expect(id)
			texts := []string{"/start a context for chat " + fmt.Sprint(id)}
			for m := range cfg.Messages {
				texts = append(texts, fmt.Sprintf("chat %d message %d", id, m))
			}
			texts = append(texts, "/end")
			for i, text := range texts {
				u := convai.Update{UpdateID: int64(c*1000 + i + 1), ChatID: id, Text: text}
				deliver := func(e *convai.Engine) error { return e.Handle(context.Background(), u) }
				for attempt := 0; ; attempt++ {
					e := engines[rng.IntN(2)]
					var err error
					if rng.IntN(5) == 0 { // the same update twice at once
						dupNow.Add(1)
						var wg sync.WaitGroup
						var other error
						wg.Go(func() { other = deliver(engines[0]) })
						err = deliver(engines[1])
						wg.Wait()
						err = errors.Join(err, other)
					} else {
						err = deliver(e)
					}
					if err == nil {
						break
					}
					if attempt > 200 {
						t.Errorf("chat %d: update %d never succeeded: %v", id, u.UpdateID, err)
						return
					}
					redelivered.Add(1)
					time.Sleep(20 * time.Millisecond)
				}
				if rng.IntN(10) == 0 { // again, later
					dupLate.Add(1)
					_ = deliver(engines[rng.IntN(2)])
				}
			}
		})
	}
	chats.Wait()

	// Let the sweepers deliver what senders gave up on.
	want := cfg.Messages + 1
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) && !api.complete(want) {
		time.Sleep(50 * time.Millisecond)
	}
	stop()
	bg.Wait()

	t.Logf("faults: %s; store pauses %d; duplicates at once %d, later %d; redeliveries %d; delivered by sweeps %d",
		api.summary(), store.pauses.Load(), dupNow.Load(), dupLate.Load(), redelivered.Load(), swept.Load())
	for _, id := range api.check(t, want) {
		if c, err := store.Store.Load(context.Background(), id); err == nil {
			t.Logf("chat %d as received: %s", id, api.transcript(id))
			t.Logf("chat %d as stored: head %+v", id, c.Head)
			for _, r := range c.Records {
				t.Logf("  record %d.%d %s %q lease %s until %s", r.Session, r.Seq, r.Kind, r.Partner, r.Lease.Owner, r.Lease.Until.Format(time.StampMilli))
			}
			for _, line := range api.logOf(id) {
				t.Logf("  log: %s", line)
			}
		}
	}
}

// engineLog is the engines' log: it keeps their warnings and errors by
// chat, for the report of a chat that fails, and tells the Bot API of each
// delivery a sender could not record (the store failed until the sender's
// time ran out): that sender's copy, the last the chat received, may be
// sent again once its lease expires — the named duplicate's other form
// (the README's "died between sending and recording it"). The engines add
// no attributes or groups of their own.
type engineLog struct{ api *faultyBotAPI }

func (engineLog) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelWarn }

func (h engineLog) Handle(_ context.Context, r slog.Record) error {
	var chat int64
	line := r.Level.String() + " " + r.Message
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "chat" && a.Value.Kind() == slog.KindInt64 {
			chat = a.Value.Int64()
		}
		line += " " + a.String()
		return true
	})
	h.api.logged(chat, line, r.Level >= slog.LevelError && r.Message == "record delivery")
	return nil
}

func (h engineLog) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h engineLog) WithGroup(string) slog.Handler      { return h }

// sleepOrDone waits d and reports true, or false once ctx is done.
func sleepOrDone(ctx context.Context, d time.Duration) bool {
	select {
	case <-ctx.Done():
		return false
	case <-time.After(d):
		return true
	}
}

// pausingStore fails every call while paused, as a store unreachable for
// a moment does.
type pausingStore struct {
	convai.Store
	paused atomic.Bool
	pauses atomic.Int64
}

var errPaused = errors.New("store unreachable (paused by the test)")

func (s *pausingStore) pauseNowAndThen(ctx context.Context) {
	for sleepOrDone(ctx, 200*time.Millisecond) {
		s.paused.Store(true)
		s.pauses.Add(1)
		sleepOrDone(ctx, 40*time.Millisecond)
		s.paused.Store(false)
	}
}

func (s *pausingStore) check() error {
	if s.paused.Load() {
		time.Sleep(2 * time.Millisecond)
		return errPaused
	}
	return nil
}

func (s *pausingStore) Load(ctx context.Context, id int64) (*convai.Chat, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	return s.Store.Load(ctx, id)
}

func (s *pausingStore) Append(ctx context.Context, id int64, r *convai.Record) error {
	if err := s.check(); err != nil {
		return err
	}
	return s.Store.Append(ctx, id, r)
}

func (s *pausingStore) Claim(ctx context.Context, id, session, seq int64, l convai.Lease, now time.Time) error {
	if err := s.check(); err != nil {
		return err
	}
	return s.Store.Claim(ctx, id, session, seq, l, now)
}

func (s *pausingStore) Commit(ctx context.Context, h convai.Head, prev int64) error {
	if err := s.check(); err != nil {
		return err
	}
	return s.Store.Commit(ctx, h, prev)
}

// faultyBotAPI is a Bot API speaking Telegram's wire format whose
// sendMessage fails in every way a real one does. It is also its client's
// transport, so that it knows of every message it recorded whether the
// sender learned it: the named duplicate is a copy that follows one whose
// sender never read the answer (the connection broke, or the answer came
// too late for the client, as on a machine starved of CPU).
type faultyBotAPI struct {
	srv      *httptest.Server
	base     http.RoundTripper
	attempts atomic.Int64

	mu       sync.Mutex
	rng      *rand.Rand
	received map[int64][]sent
	logs     map[int64][]string // the engines' warnings and errors, by chat
	answered map[int64]bool     // attempts whose answer the client read in full
	dropped  map[string]bool    // texts recorded once, then the connection broken
	chats    map[int64]bool     // the chats the test plays
	faults   map[string]int
}

// sent is a message the Bot API recorded, and the client's attempt that
// carried it.
type sent struct {
	text       string
	attempt    int64
	unrecorded bool // its sender could not record the delivery
}

// logged keeps an engine's log line about chat id; unrecorded marks the
// chat's last message as one whose sender could not record its delivery.
func (a *faultyBotAPI) logged(id int64, line string, unrecorded bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.logs[id] = append(a.logs[id], line)
	if msgs := a.received[id]; unrecorded && len(msgs) > 0 {
		msgs[len(msgs)-1].unrecorded = true
	}
}

// logOf returns the engines' log lines about chat id.
func (a *faultyBotAPI) logOf(id int64) []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.logs[id])
}

// attemptHeader carries the client's attempt number to the server.
const attemptHeader = "X-Test-Attempt"

func newFaultyBotAPI(t *testing.T) *faultyBotAPI {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 64
	a := &faultyBotAPI{base: tr, rng: rand.New(rand.NewPCG(1, 2)), received: map[int64][]sent{},
		logs: map[int64][]string{}, answered: map[int64]bool{}, dropped: map[string]bool{}, faults: map[string]int{}, chats: map[int64]bool{}}
	a.srv = httptest.NewServer(http.HandlerFunc(a.serve))
	t.Cleanup(a.srv.Close)
	t.Cleanup(tr.CloseIdleConnections)
	return a
}

// RoundTrip numbers the request and marks its attempt answered once the
// client has read the answer to its end.
func (a *faultyBotAPI) RoundTrip(req *http.Request) (*http.Response, error) {
	n := a.attempts.Add(1)
	req = req.Clone(req.Context())
	req.Header.Set(attemptHeader, strconv.FormatInt(n, 10))
	resp, err := a.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	resp.Body = &answerBody{ReadCloser: resp.Body, api: a, attempt: n}
	return resp, nil
}

type answerBody struct {
	io.ReadCloser
	api     *faultyBotAPI
	attempt int64
}

func (b *answerBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		b.api.mu.Lock()
		b.api.answered[b.attempt] = true
		b.api.mu.Unlock()
	}
	return n, err
}

func (a *faultyBotAPI) serve(w http.ResponseWriter, r *http.Request) {
	if !strings.HasSuffix(r.URL.Path, "/sendMessage") {
		http.NotFound(w, r)
		return
	}
	attempt, _ := strconv.ParseInt(r.Header.Get(attemptHeader), 10, 64)
	var req struct {
		ChatID int64  `json:"chat_id"`
		Text   string `json:"text"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"ok":false,"error_code":400,"description":"Bad Request: can't parse JSON"}`)
		return
	}
	a.mu.Lock()
	roll := a.rng.IntN(100)
	fault := ""
	switch {
	case roll < 7:
		fault = "429"
	case roll < 14:
		fault = "500"
	case roll < 18:
		fault = "hang"
	case roll < 22:
		fault = "drop"
	case roll < 25 && !a.dropped[req.Text]:
		fault = "record-then-drop"
		a.dropped[req.Text] = true
	}
	if fault != "" {
		a.faults[fault]++
	}
	if fault == "" || fault == "record-then-drop" {
		a.received[req.ChatID] = append(a.received[req.ChatID], sent{text: req.Text, attempt: attempt})
	}
	a.mu.Unlock()

	switch fault {
	case "429":
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusTooManyRequests)
		fmt.Fprint(w, `{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 0","parameters":{"retry_after":0}}`)
	case "500":
		w.WriteHeader(http.StatusInternalServerError)
		fmt.Fprint(w, `{"ok":false,"error_code":500,"description":"Internal Server Error"}`)
	case "hang":
		<-r.Context().Done()
	case "drop", "record-then-drop":
		if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
			conn.Close()
		}
	default:
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"ok":true,"result":{"message_id":1,"chat":{"id":%d,"type":"private"},"date":0,"text":%q}}`, req.ChatID, req.Text)
	}
}

func (a *faultyBotAPI) expect(id int64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.chats[id] = true
}

func (a *faultyBotAPI) summary() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return fmt.Sprint(a.faults)
}

// transcript lists what chat id received: each message's attempt, and
// whether its client read the answer.
func (a *faultyBotAPI) transcript(id int64) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	var b strings.Builder
	for _, m := range a.received[id] {
		fmt.Fprintf(&b, "\n    attempt %d answered=%t unrecorded=%t %s", m.attempt, a.answered[m.attempt], m.unrecorded, m.text)
	}
	return b.String()
}

// complete reports whether every chat has received its replies and final.
func (a *faultyBotAPI) complete(want int) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	for id := range a.chats {
		if len(dedupe(a.received[id], a.answered)) < want {
			return false
		}
	}
	return true
}

// dedupe drops a message that repeats the one before it when the sender
// of that one never read the answer or could not record it: the one
// duplicate the README names. (An attempt still in flight counts as
// unanswered; once answered, the copy after it counts again, so that
// dedupe's result only grows.)
func dedupe(msgs []sent, answered map[int64]bool) []string {
	var out []string
	for i, m := range msgs {
		if i > 0 && m.text == msgs[i-1].text && (!answered[msgs[i-1].attempt] || msgs[i-1].unrecorded) &&
			(i < 2 || msgs[i-2].text != m.text) {
			continue
		}
		out = append(out, m.text)
	}
	return out
}

// check asserts, chat by chat: the replies to the messages in order, each
// once, then one final; nothing after it.
func (a *faultyBotAPI) check(t *testing.T, want int) (failed []int64) {
	t.Helper()
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.chats) == 0 {
		t.Fatal("no chats were played")
	}
	for id := range a.chats {
		msgs := dedupe(a.received[id], a.answered)
		var texts []string
		for _, m := range msgs {
			var inner struct {
				Text string `json:"text"`
			}
			if err := json.Unmarshal([]byte(m), &inner); err != nil {
				t.Errorf("chat %d: a message is not protocol JSON: %s", id, m)
			}
			texts = append(texts, inner.Text)
		}
		ok := len(texts) == want
		for i := 0; ok && i < want-1; i++ {
			ok = texts[i] == fmt.Sprintf("re %d: chat %d message %d", 2*i+1, id, i)
		}
		if ok {
			final, err := convai.Validate(msgs[want-1], true)
			ok = final && err == nil
		}
		if !ok {
			t.Errorf("chat %d: received %d messages, want %d replies in order then the final:\n%s",
				id, len(texts), want-1, strings.Join(texts, "\n"))
			failed = append(failed, id)
		}
	}
	return failed
}
