package convaisim

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/convai"
)

// Live chats are played by a person instead of a script (duet chat): the
// Server serves the API as in Run, and each LiveChat's partner messages
// come from its caller, checked against the protocol as scripted chats are.

// Listen serves the simulator's API on its Addr until stop is called, and
// returns the API base a bot must use (TELEGRAM_API_URL).
func (s *Server) Listen() (apiURL string, stop func(), err error) {
	ln, err := net.Listen("tcp", s.cfg.Addr)
	if err != nil {
		return "", nil, fmt.Errorf("listen on %s: %w", s.cfg.Addr, err)
	}
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan struct{})
	go func() { _ = srv.Serve(ln); close(served) }()
	stop = func() {
		s.finish() // long polls return
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
		<-served
	}
	return s.APIURL("http://" + ln.Addr().String()), stop, nil
}

// LiveChat is one chat of the Server whose partner is played by hand.
type LiveChat struct {
	s    *Server
	c    *chat
	seen int // c.lines already returned
	errs int // c.violations already returned
}

// LiveOptions open a LiveChat.
type LiveOptions struct {
	// Profile is the bot's profile as the 2018 router sends it after
	// /start; the router's trigram rule is applied to it. Optional.
	Profile []string
	// Options are the candidate profiles of the partner that the 2018
	// router's evaluation request lists; empty: two drawn at random.
	Options [][]string
}

// NewLiveChat adds a chat with a fresh id in the Server's dialect.
func (s *Server) NewLiveChat(o LiveOptions) *LiveChat {
	var b [8]byte
	_, _ = rand.Read(b[:])
	seed := binary.LittleEndian.Uint64(b[:])
	rng := mrand.New(mrand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	s.mu.Lock()
	defer s.mu.Unlock()
	var id int64
	for id == 0 || s.chats[id] != nil {
		id = chatIDs(s.cfg.Dialect, 1, rng)[0]
	}
	c := &chat{id: id, script: Script{Name: "live"}, signal: make(chan struct{}, 1)}
	if len(o.Profile) > 0 {
		c.profile = o.Profile
		c.trigrams = routerTrigrams(strings.Join(o.Profile, "\n"))
	}
	if s.cfg.Dialect == Dialect2018 {
		opts := o.Options
		if len(opts) == 0 {
			used := map[string]bool{}
			for _, p := range o.Profile {
				used[p] = true
			}
			opts = [][]string{randomProfile(rng, 4, used), randomProfile(rng, 4, used)}
		}
		c.judge = &brain.Judge{Min: 1, Max: 5, Profiles: opts}
		c.truth = -1 // a person plays no listed profile that we know of
	}
	s.chats[id] = c
	s.order = append(s.order, id)
	return &LiveChat{s: s, c: c}
}

// ID is the chat's id.
func (l *LiveChat) ID() int64 { return l.c.id }

// Judge is the evaluation request End sends (Dialect2018), or nil.
func (l *LiveChat) Judge() *brain.Judge { return l.c.judge }

// Start sends the chat's first message (/start and its context or
// profile) and returns what the bot sent within settle.
func (l *LiveChat) Start(ctx context.Context, text string, settle time.Duration) ([]string, error) {
	if !l.s.deliver(ctx, l.c, text, expectNothing, false) {
		return l.bot(), l.failure()
	}
	l.s.wait(ctx, l.c, settle, func() bool { return len(l.c.lines) > l.seen+1 })
	return l.bot(), nil
}

// Say sends a partner message and returns the bot's messages up to its
// reply (or its final).
func (l *LiveChat) Say(ctx context.Context, text string) ([]string, error) {
	return l.turn(ctx, text, expectReply, true)
}

// Begin sends /begin: the bot speaks first.
func (l *LiveChat) Begin(ctx context.Context) ([]string, error) {
	return l.turn(ctx, "/begin", expectReply, false)
}

// Ended reports whether the bot has sent a valid final.
func (l *LiveChat) Ended() bool { return l.s.isFinal(l.c) }

// End ends the chat as the server does, with /end (the 2018 router: its
// evaluation request, also after a bot ended the chat itself), and
// returns the bot's messages up to its final.
func (l *LiveChat) End(ctx context.Context) ([]string, error) {
	text := "/end"
	if l.c.judge != nil {
		text = convai.FormatJudge(*l.c.judge)
	}
	if l.Ended() {
		if l.c.judge == nil {
			return l.bot(), nil
		}
		l.s.mu.Lock()
		l.c.requested = true
		l.s.mu.Unlock()
		if !l.s.deliver(ctx, l.c, text, expectFinal, false) {
			return l.bot(), l.failure()
		}
		l.s.wait(ctx, l.c, min(goodbyeGrace, l.s.cfg.ReplyTimeout), func() bool { return l.c.asked })
		return l.bot(), nil
	}
	if !l.s.deliver(ctx, l.c, text, expectFinal, false) {
		return l.bot(), l.failure()
	}
	if !l.s.wait(ctx, l.c, l.s.cfg.ReplyTimeout, func() bool { return l.c.final }) {
		return l.bot(), l.timeout(ctx, "no final /end evaluation within %s of /end", l.s.cfg.ReplyTimeout)
	}
	return l.bot(), nil
}

func (l *LiveChat) turn(ctx context.Context, text string, expect expectation, requireEval bool) ([]string, error) {
	if !l.s.deliver(ctx, l.c, text, expect, requireEval) {
		return l.bot(), l.failure()
	}
	if !l.s.wait(ctx, l.c, l.s.cfg.ReplyTimeout, func() bool { return l.c.expect == expectNothing || l.c.final }) {
		return l.bot(), l.timeout(ctx, "no reply within %s to %s", l.s.cfg.ReplyTimeout, abbreviate(text))
	}
	return l.bot(), nil
}

func (l *LiveChat) timeout(ctx context.Context, format string, args ...any) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	msg := fmt.Sprintf(format, args...)
	l.s.mu.Lock()
	l.c.violate("%s", msg)
	l.s.mu.Unlock()
	return errors.New(msg)
}

// failure is why a delivery failed: its violation.
func (l *LiveChat) failure() error {
	l.s.mu.Lock()
	defer l.s.mu.Unlock()
	if n := len(l.c.violations); n > 0 {
		return errors.New(l.c.violations[n-1])
	}
	return errors.New("the update was not delivered")
}

// bot returns the bot's messages (sendMessage texts, as sent) since the
// last call.
func (l *LiveChat) bot() []string {
	l.s.mu.Lock()
	defer l.s.mu.Unlock()
	var out []string
	for _, line := range l.c.lines[l.seen:] {
		if line.From == "Bot" {
			out = append(out, line.Text)
		}
	}
	l.seen = len(l.c.lines)
	return out
}

// Violations returns the protocol violations of the chat since the last
// call.
func (l *LiveChat) Violations() []string {
	l.s.mu.Lock()
	defer l.s.mu.Unlock()
	out := append([]string(nil), l.c.violations[l.errs:]...)
	l.errs = len(l.c.violations)
	return out
}

// GlobalViolations returns the violations tied to no chat (a request to
// a wrong URL, a message to an unknown chat) from the from-th on; the
// caller keeps count.
func (s *Server) GlobalViolations(from int) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if from >= len(s.global) {
		return nil
	}
	return append([]string(nil), s.global[from:]...)
}
