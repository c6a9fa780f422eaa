package storetest

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/duetbot/duet/shared/convai"
)

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
// duplicate docs/delivery.md names. (An attempt still in flight counts as
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
