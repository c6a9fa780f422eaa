package convaisim

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	mrand "math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/telegram"
)

// Dialect is which server the simulator imitates.
type Dialect string

// The dialects.
const (
	// DialectTelegram is real Telegram: /bot<token>/<method>, wrapped
	// answers, unique increasing update_id, offset acknowledges updates.
	DialectTelegram Dialect = "telegram"
	// Dialect2017 is the 2017 ConvAI server: /<token>/<method>, bare
	// answers as text/plain, every id 0, no from, JSON bodies only.
	Dialect2017 Dialect = "convai2017"
	// Dialect2018 is the 2018 ConvAI router: /bot<token>/<method>, wrapped
	// answers, destructive long-polled reads that ignore offset.
	Dialect2018 Dialect = "convai2018"
)

// ParseDialect returns the dialect named s.
func ParseDialect(s string) (Dialect, error) {
	switch d := Dialect(strings.ToLower(strings.TrimSpace(s))); d {
	case DialectTelegram, Dialect2017, Dialect2018:
		return d, nil
	}
	return "", fmt.Errorf("unknown dialect %q: want telegram, convai2017 or convai2018", s)
}

// Mode is how updates reach the bot.
type Mode string

// The delivery modes.
const (
	ModePoll    Mode = "poll"    // the bot calls getUpdates on the simulator
	ModeWebhook Mode = "webhook" // the simulator POSTs each update to the bot
)

// Defaults of Config's zero fields.
const (
	DefaultChats        = 10
	DefaultReplyTimeout = 30 * time.Second
	DefaultAddr         = "127.0.0.1:0"
	webhookAttempts     = 3
	maxLongPoll         = 50 * time.Second
)

// Config configures one simulation.
type Config struct {
	Dialect Dialect
	Mode    Mode
	// Chats is how many chats run at once; the scripts are assigned in turn.
	Chats int
	// Seed chooses the chat ids and the first update id; 0: a random one,
	// so that each run has its own chats and updates and two runs against
	// one bot (and one table) do not meet each other's chats.
	Seed uint64
	// Token is the bot token the bot must use; empty: a random one.
	Token string
	// Addr is where Run listens (host:port).
	Addr string
	// WebhookURL is where updates are POSTed in webhook mode.
	WebhookURL string
	// Secret, when set, is sent in X-Telegram-Bot-Api-Secret-Token with
	// every webhook update.
	Secret string
	// ReplyTimeout is how long a partner waits for each reply.
	ReplyTimeout time.Duration
	// Out receives the transcripts (unless Quiet) and the summary.
	Out   io.Writer
	Quiet bool
	Log   *slog.Logger
	// HTTPClient delivers webhook updates.
	HTTPClient *http.Client
	// Ready is called by Run once the simulator listens, before any chat
	// starts, with the API base a bot must use (TELEGRAM_API_URL) and its
	// token. An error stops the run.
	Ready func(ctx context.Context, apiURL, token string) error
	// Stop, when set, is called by Run once play is over and before the
	// simulator stops serving, so that an in-process bot can stop polling
	// while the API still answers.
	Stop func()
	// Scripts replaces the built-in Scripts.
	Scripts []Script
	// WaitForPoll makes Run start the chats only once the bot first calls
	// getUpdates (poll mode), so that a bot started by hand loses no time.
	WaitForPoll bool
}

// expectation is what the simulator waits for from the bot in one chat.
type expectation int

const (
	expectNothing expectation = iota
	expectReply
	expectFinal
)

// chat is the simulator's state of one chat. Its fields are guarded by
// Server.mu.
type chat struct {
	id          int64
	script      Script
	started     bool
	expect      expectation
	requireEval bool
	final       bool // a valid final /end was received
	lines       []Line
	violations  []string
	signal      chan struct{} // poked on every bot message

	// The 2018 router's roles (Dialect2018 only): the bot's profile sent
	// after /start and its trigrams as the router counts them, the
	// evaluation request sent at the end, with the partner's true profile
	// at index truth among its candidates.
	profile  []string
	trigrams map[[3]string]bool
	judge    *brain.Judge
	truth    int
	bad      int  // bad messages (profile trigrams) in a row
	cutOff   bool // the router ended the chat for badInARow of them

	ratings []int         // the bot's valid evaluations of partner messages
	scores  *brain.Scores // the bot's valid final evaluation
	asked   bool          // the final answered the evaluation request
	// requested: the router sent its request after the bot ended the chat.
	requested bool
}

// cast gives a router chat its roles, drawn from rng: the bot's profile,
// the partner's, and one or two other candidates, all of distinct sentences.
func (c *chat) cast(rng *mrand.Rand) {
	used := map[string]bool{}
	size := func() int { return 4 + rng.IntN(2) }
	c.profile = randomProfile(rng, size(), used)
	c.trigrams = routerTrigrams(strings.Join(c.profile, "\n"))
	cands := [][]string{randomProfile(rng, size(), used)}
	for range 1 + rng.IntN(2) {
		cands = append(cands, randomProfile(rng, size(), used))
	}
	order := rng.Perm(len(cands))
	c.judge = &brain.Judge{Min: 1, Max: 5, Profiles: make([][]string, len(cands))}
	for i, k := range order {
		c.judge.Profiles[i] = cands[k]
		if k == 0 {
			c.truth = i
		}
	}
}

func (c *chat) violate(format string, args ...any) {
	c.violations = append(c.violations, fmt.Sprintf(format, args...))
}

func (c *chat) poke() {
	select {
	case c.signal <- struct{}{}:
	default:
	}
}

// Server is the simulated ConvAI server: an http.Handler serving the
// trimmed Bot API in one dialect, and the partners that Play against the bot.
type Server struct {
	cfg Config

	mu         sync.Mutex
	chats      map[int64]*chat
	order      []int64
	queue      []telegram.Update // updates not yet fetched (poll mode)
	nextUpdate int64
	nextMsg    int64
	wake       chan struct{} // closed and replaced when the queue grows
	done       chan struct{} // closed when Play ends: long polls return
	doneOnce   sync.Once
	polled     chan struct{} // closed on the first getUpdates
	pollOnce   sync.Once
	global     []string
	seen       map[string]bool
	serverMsgs int
	botMsgs    int
	// contacted is set once the bot called the API or answered a webhook
	// POST; postErr is the last failed webhook delivery.
	contacted bool
	postErr   error
}

// NewServer returns a simulator for cfg, with its chats set up but not
// started.
func NewServer(cfg Config) (*Server, error) {
	if cfg.Dialect == "" {
		cfg.Dialect = DialectTelegram
	}
	if _, err := ParseDialect(string(cfg.Dialect)); err != nil {
		return nil, err
	}
	switch cfg.Mode {
	case "":
		cfg.Mode = ModePoll
	case ModePoll:
	case ModeWebhook:
		if u, err := url.Parse(cfg.WebhookURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("webhook mode needs the bot's http(s) URL, got %q", cfg.WebhookURL)
		}
	default:
		return nil, fmt.Errorf("unknown mode %q: want poll or webhook", cfg.Mode)
	}
	if cfg.Chats <= 0 {
		cfg.Chats = DefaultChats
	}
	if cfg.Token == "" {
		b := make([]byte, 12)
		_, _ = rand.Read(b)
		cfg.Token = "100000:sim-" + hex.EncodeToString(b)
	}
	if strings.ContainsAny(cfg.Token, "/?#") {
		return nil, fmt.Errorf("the bot token must not contain '/', '?' or '#'")
	}
	if cfg.ReplyTimeout <= 0 {
		cfg.ReplyTimeout = DefaultReplyTimeout
	}
	if cfg.Addr == "" {
		cfg.Addr = DefaultAddr
	}
	if cfg.Out == nil {
		cfg.Out = io.Discard
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Timeout: cfg.ReplyTimeout}
	}
	if len(cfg.Scripts) == 0 {
		cfg.Scripts = Scripts
	}
	seed := cfg.Seed
	for seed == 0 {
		var b [8]byte
		_, _ = rand.Read(b[:])
		seed = binary.LittleEndian.Uint64(b[:])
	}
	rng := mrand.New(mrand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	s := &Server{
		cfg:   cfg,
		chats: map[int64]*chat{},
		// Telegram's update ids are positive and grow; start each run
		// somewhere new, below 2^31.
		nextUpdate: 1_000_000 + rng.Int64N(1<<30),
		wake:       make(chan struct{}),
		done:       make(chan struct{}),
		polled:     make(chan struct{}),
		seen:       map[string]bool{},
	}
	for i, id := range chatIDs(cfg.Dialect, cfg.Chats, rng) {
		c := &chat{id: id, script: cfg.Scripts[i%len(cfg.Scripts)], signal: make(chan struct{}, 1)}
		if cfg.Dialect == Dialect2018 {
			c.cast(rng)
		}
		s.chats[id] = c
		s.order = append(s.order, id)
	}
	return s, nil
}

// Token returns the bot token the bot must use.
func (s *Server) Token() string { return s.cfg.Token }

// APIURL returns the API base (TELEGRAM_API_URL) of a simulator served at
// root, e.g. "http://127.0.0.1:8081".
func (s *Server) APIURL(root string) string {
	root = strings.TrimRight(root, "/")
	if s.cfg.Dialect == Dialect2017 {
		return root + "/{token}"
	}
	return root
}

// violateGlobal records a violation tied to no chat, once per text.
func (s *Server) violateGlobal(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if !s.seen[msg] {
		s.seen[msg] = true
		s.global = append(s.global, msg)
	}
}

// ServeHTTP serves the Bot API methods of the dialect.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	prefix := "/bot" + s.cfg.Token + "/"
	if s.cfg.Dialect == Dialect2017 {
		prefix = "/" + s.cfg.Token + "/"
	}
	if !strings.HasPrefix(r.URL.Path, prefix) {
		s.mu.Lock()
		s.violateGlobal("a request to a URL that is not %s<method> with the simulator's token", s.shape())
		s.mu.Unlock()
		s.fail(w, http.StatusUnauthorized, "Unauthorized")
		return
	}
	s.mu.Lock()
	s.contacted = true
	s.mu.Unlock()
	method := strings.TrimPrefix(r.URL.Path, prefix)
	params, isJSON, err := readParams(r)
	if err != nil {
		s.fail(w, http.StatusBadRequest, "Bad Request: "+err.Error())
		return
	}
	switch method {
	case "getUpdates":
		s.pollOnce.Do(func() { close(s.polled) })
		s.getUpdates(w, r, params)
	case "sendMessage":
		s.sendMessage(w, params, isJSON)
	case "getMe", "deleteWebhook", "setWebhook", "getWebhookInfo":
		if s.cfg.Dialect != DialectTelegram {
			s.fail(w, http.StatusNotFound, "Not Found: method "+method+" is not supported by this server")
			return
		}
		switch method {
		case "getMe":
			s.ok(w, telegram.User{ID: 100000, IsBot: true, FirstName: "Duet sim bot", Username: "duet_sim_bot"})
		case "getWebhookInfo":
			s.ok(w, telegram.WebhookInfo{})
		default:
			s.ok(w, true)
		}
	default:
		s.fail(w, http.StatusNotFound, "Not Found: method "+method+" is not supported by this server")
	}
}

func (s *Server) shape() string {
	if s.cfg.Dialect == Dialect2017 {
		return "/<token>/"
	}
	return "/bot<token>/"
}

// ok answers result in the dialect's shape.
func (s *Server) ok(w http.ResponseWriter, result any) {
	if s.cfg.Dialect == Dialect2017 {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_ = json.NewEncoder(w).Encode(result)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"ok": true, "result": result})
}

// fail answers an error in the dialect's shape.
func (s *Server) fail(w http.ResponseWriter, status int, desc string) {
	if s.cfg.Dialect == Dialect2017 {
		http.Error(w, desc, status)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"ok": false, "error_code": status, "description": desc})
}

// readParams reads a method's parameters from a JSON body, a form body or
// the query string. Values of forms and queries become JSON strings.
func readParams(r *http.Request) (params map[string]json.RawMessage, isJSON bool, err error) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		return nil, false, fmt.Errorf("read body: %w", err)
	}
	params = map[string]json.RawMessage{}
	if t := bytes.TrimSpace(body); len(t) > 0 && t[0] == '{' {
		if err := json.Unmarshal(t, &params); err != nil {
			return nil, false, fmt.Errorf("body is not JSON: %v", err)
		}
		return params, true, nil
	}
	form, _ := url.ParseQuery(string(body))
	for k, v := range r.URL.Query() {
		form[k] = append(form[k], v...)
	}
	for k, v := range form {
		if len(v) > 0 {
			params[k], _ = json.Marshal(v[0])
		}
	}
	return params, false, nil
}

// intParam reads an integer given as a JSON number or a string of digits.
func intParam(raw json.RawMessage) (n int64, isNumber, ok bool) {
	if len(raw) == 0 {
		return 0, false, false
	}
	if err := json.Unmarshal(raw, &n); err == nil {
		return n, true, true
	}
	var str string
	if json.Unmarshal(raw, &str) == nil {
		if n, err := strconv.ParseInt(strings.TrimSpace(str), 10, 64); err == nil {
			return n, false, true
		}
	}
	return 0, false, false
}

func (s *Server) getUpdates(w http.ResponseWriter, r *http.Request, params map[string]json.RawMessage) {
	timeoutSecs, _, _ := intParam(params["timeout"])
	offset, _, _ := intParam(params["offset"])
	limit, _, hasLimit := intParam(params["limit"])
	if !hasLimit || limit <= 0 || limit > 100 {
		limit = 100
	}
	wait := min(time.Duration(max(timeoutSecs, 0))*time.Second, maxLongPoll)
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		s.mu.Lock()
		out := []telegram.Update{}
		switch s.cfg.Dialect {
		case DialectTelegram:
			// offset acknowledges every update before it; the rest stay.
			if offset > 0 {
				kept := s.queue[:0:0]
				for _, u := range s.queue {
					if u.UpdateID >= offset {
						kept = append(kept, u)
					}
				}
				s.queue = kept
			}
			out = append(out, s.queue[:min(int(limit), len(s.queue))]...)
		case Dialect2017:
			// Ignores offset, limit and timeout; drains the queue at once.
			out = append(out, s.queue...)
			s.queue = nil
		case Dialect2018:
			// A timeout of 0 answers [] even with updates queued.
			if timeoutSecs > 0 {
				out = append(out, s.queue...)
				s.queue = nil
			}
		}
		wake := s.wake
		s.mu.Unlock()
		if len(out) > 0 || wait <= 0 || s.cfg.Dialect == Dialect2017 {
			s.ok(w, out)
			return
		}
		select {
		case <-wake:
		case <-timer.C:
			s.ok(w, out)
			return
		case <-s.done:
			s.ok(w, out)
			return
		case <-r.Context().Done():
			return
		}
	}
}

func (s *Server) sendMessage(w http.ResponseWriter, params map[string]json.RawMessage, isJSON bool) {
	id, isNumber, hasID := intParam(params["chat_id"])
	var text string
	hasText := json.Unmarshal(params["text"], &text) == nil
	strict := s.cfg.Dialect != DialectTelegram

	s.mu.Lock()
	defer s.mu.Unlock()
	s.botMsgs++
	c := s.chats[id]
	switch {
	case !hasID || !hasText:
		s.violateGlobal("sendMessage without chat_id and text")
		s.fail(w, http.StatusBadRequest, "Bad Request: chat_id and text are required")
		return
	case c == nil || !c.started:
		s.violateGlobal("sendMessage to chat %d, which does not exist", id)
		s.fail(w, http.StatusBadRequest, "Bad Request: chat not found")
		return
	}
	c.lines = append(c.lines, Line{From: "Bot", Text: text})
	defer c.poke()
	if strict && !isJSON {
		c.violate("sendMessage with a form body: this server accepts only JSON bodies")
		s.fail(w, http.StatusBadRequest, "Bad Request: a JSON body is required")
		return
	}
	if strict && !isNumber {
		c.violate("chat_id sent as a string: it must be a JSON number")
		s.fail(w, http.StatusBadRequest, "Bad Request: chat_id must be a number")
		return
	}
	final, verr := convai.Validate(text, c.requireEval)
	reject := ""
	// The router takes one more final in answer to the evaluation request
	// it sends after a bot ended the chat itself.
	answersRequest := c.requested && !c.asked && c.expect == expectFinal && final && verr == nil
	switch {
	case c.final && !answersRequest:
		c.violate("a message after the final /end: %s", abbreviate(text))
		reject = "chat is over"
	case final && verr != nil:
		c.violate("invalid final /end: %v", verr)
		reject = verr.Error()
	case final:
		c.final = true
		s.checkFinal(c, text)
	case c.expect == expectFinal:
		c.violate("after the server's /end the bot must send the final /end evaluation, got: %s", abbreviate(text))
		if verr != nil {
			reject = verr.Error()
		}
	case c.expect == expectNothing:
		c.violate("a reply to no partner message (a second reply, or a reply to /start without /begin): %s", abbreviate(text))
		if verr != nil {
			reject = verr.Error()
		}
	default:
		// The reply the partner waits for, valid or not.
		c.expect = expectNothing
		if verr != nil {
			c.violate("invalid reply: %v", verr)
			reject = verr.Error()
			break
		}
		reject = s.checkReply(c, text)
	}
	if reject != "" && strict {
		s.fail(w, http.StatusBadRequest, "Bad Request: "+reject)
		return
	}
	s.nextMsg++
	s.ok(w, s.message(c.id, text, s.nextMsg))
}

// checkFinal records a valid final and checks it against the evaluation
// request it answers. Callers hold s.mu.
func (s *Server) checkFinal(c *chat, text string) {
	asked := c.expect == expectFinal
	c.expect = expectNothing
	var f convai.Final
	if err := json.Unmarshal([]byte(text), &f); err != nil {
		return // Validate accepted it: cannot happen
	}
	c.scores, c.asked = &f.Evaluation, asked && c.judge != nil
	if s.cfg.Dialect != Dialect2018 {
		return
	}
	j := convai.DefaultJudge // a final the bot sent unasked answers no candidates
	if c.asked {
		j = *c.judge
	}
	if err := convai.CheckJudged(text, j); err != nil {
		c.violate("final for the router: %v", err)
	}
}

// checkReply records a valid reply's rating and applies the router's rules
// to it: the rating must be in msg_evaluation, and a message repeating a
// trigram of the bot's profile is refused (the chat ends after badInARow
// of them in a row). It returns why the message is refused, or "".
// Callers hold s.mu.
func (s *Server) checkReply(c *chat, text string) string {
	// Keys match exactly, as the router (Python) reads them; encoding/json
	// would match struct fields case-insensitively.
	var r map[string]json.RawMessage
	var replyText string
	if json.Unmarshal([]byte(text), &r) != nil || json.Unmarshal(r["text"], &replyText) != nil {
		return "" // Validate accepted it: cannot happen
	}
	ev, hasEval := r["evaluation"]
	var rating int
	if hasEval && json.Unmarshal(ev, &rating) == nil {
		c.ratings = append(c.ratings, rating)
	}
	if s.cfg.Dialect != Dialect2018 {
		return ""
	}
	if _, hasMsg := r["msg_evaluation"]; hasEval && !hasMsg {
		c.violate(`a rated reply without "msg_evaluation": the router reads only that key`)
	}
	bad := profileTrigrams(c.trigrams, replyText)
	if len(bad) == 0 {
		c.bad = 0
		return ""
	}
	c.bad++
	slices.Sort(bad)
	c.violate("a reply repeats %d word trigram(s) of the bot's profile (%q…), %d in a row: the router refuses it",
		len(bad), bad[0], c.bad)
	if c.bad >= badInARow {
		c.cutOff = true
		c.violate("%d replies in a row repeat the bot's profile: the router ends the chat", c.bad)
	}
	return "Error: <class 'convai.exceptions.ProfileTrigramDetectedInMessageError'>: "
}

// message is a Message of the dialect.
func (s *Server) message(chatID int64, text string, msgID int64) telegram.Message {
	now := time.Now()
	m := telegram.Message{MessageID: msgID, Chat: telegram.Chat{ID: chatID, Type: "private", FirstName: "Anonym"}, Text: text,
		Date: json.RawMessage(strconv.FormatInt(now.Unix(), 10))}
	if s.cfg.Dialect == Dialect2017 {
		// No ids, no from, and a date that is not a Unix time.
		m.MessageID = 0
		m.Date = json.RawMessage(strconv.FormatInt(now.UnixMilli(), 10))
	} else {
		m.From = &telegram.User{ID: chatID, FirstName: "Anonym"}
	}
	return m
}

func abbreviate(s string) string {
	const n = 120
	if r := []rune(s); len(r) > n {
		return fmt.Sprintf("%q…", string(r[:n]))
	}
	return fmt.Sprintf("%q", s)
}
