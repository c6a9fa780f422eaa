package convaisim

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	mrand "math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/duetbot/duet/shared/brain"
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
