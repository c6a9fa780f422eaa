package convaisim

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/telegram"
)

// goodbyeGrace is how long a partner who said goodbye waits for the bot to
// end the chat before the server ends it.
const goodbyeGrace = 2 * time.Second

// settle is how long Play waits after the last chat for stray messages.
const settle = 200 * time.Millisecond

// Run serves a simulator on cfg.Addr, calls cfg.Ready, plays every chat
// against the bot, and writes the transcripts and summary to cfg.Out. The
// error is about the simulator itself; the bot's failures are in the
// Report.
func Run(ctx context.Context, cfg Config) (Report, error) {
	s, err := NewServer(cfg)
	if err != nil {
		return Report{}, err
	}
	ln, err := net.Listen("tcp", s.cfg.Addr)
	if err != nil {
		return Report{}, fmt.Errorf("listen on %s: %w", s.cfg.Addr, err)
	}
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	defer func() {
		s.finish()
		if s.cfg.Stop != nil {
			s.cfg.Stop()
		}
		shutCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutCtx)
		<-served
	}()
	if s.cfg.Ready != nil {
		if err := s.cfg.Ready(ctx, s.APIURL("http://"+ln.Addr().String()), s.cfg.Token); err != nil {
			return Report{}, fmt.Errorf("start the bot: %w", err)
		}
	}
	if s.cfg.WaitForPoll && s.cfg.Mode == ModePoll {
		select {
		case <-s.polled:
		case <-ctx.Done():
			return Report{}, ctx.Err()
		}
	}
	rep := s.Play(ctx)
	if !s.cfg.Quiet {
		if err := rep.WriteTranscripts(s.cfg.Out); err != nil {
			return rep, fmt.Errorf("write transcripts: %w", err)
		}
	}
	if err := rep.WriteSummary(s.cfg.Out); err != nil {
		return rep, fmt.Errorf("write summary: %w", err)
	}
	return rep, ctx.Err()
}

// Play runs every chat's partner concurrently until each chat has ended,
// and returns what happened. The Server must be serving its API to the bot.
func (s *Server) Play(ctx context.Context) Report {
	var wg sync.WaitGroup
	for _, id := range s.order {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.partner(ctx, s.chats[id])
		}()
	}
	wg.Wait()
	select {
	case <-time.After(settle):
	case <-ctx.Done():
	}
	s.finish()
	return s.report()
}

func (s *Server) finish() { s.doneOnce.Do(func() { close(s.done) }) }

// partner plays one chat's script, waiting for each reply as the real
// servers do.
func (s *Server) partner(ctx context.Context, c *chat) {
	sc := c.script
	start, lines, end := sc.startText(s.cfg.Dialect), sc.Lines, endText(s.cfg.Dialect)
	if c.judge != nil {
		// The router: the bot plays a profile, the partner its own, and the
		// end asks which candidate the partner was.
		start = "/start\n" + strings.Join(c.profile, "\n")
		lines = partnerLines(sc.Lines, c.judge.Profiles[c.truth])
		end = convai.FormatJudge(*c.judge)
	}
	if !s.deliver(ctx, c, start, expectNothing, false) {
		return
	}
	if sc.Begin {
		if !s.deliver(ctx, c, "/begin", expectReply, false) {
			return
		}
		s.awaitReply(ctx, c, "/begin")
	}
	for _, line := range lines {
		if s.isFinal(c) {
			s.requestAfterOwnEnd(ctx, c, end)
			return // the bot ended the chat
		}
		if s.isCutOff(c) {
			break // the router ends the chat
		}
		if !s.deliver(ctx, c, line, expectReply, true) {
			return
		}
		if !s.awaitReply(ctx, c, line) {
			break
		}
	}
	if sc.Goodbye && !sc.ServerEnds {
		s.wait(ctx, c, min(goodbyeGrace, s.cfg.ReplyTimeout), func() bool { return c.final })
	}
	if s.isFinal(c) {
		s.requestAfterOwnEnd(ctx, c, end)
		return
	}
	if ctx.Err() != nil {
		return
	}
	if !s.deliver(ctx, c, end, expectFinal, false) {
		return
	}
	if !s.wait(ctx, c, s.cfg.ReplyTimeout, func() bool { return c.final }) && ctx.Err() == nil {
		s.mu.Lock()
		c.violate("no final /end evaluation within %s of the server's /end", s.cfg.ReplyTimeout)
		s.mu.Unlock()
	}
}

// requestAfterOwnEnd plays what the router did when a bot ended a chat
// itself: it read the score (and any guess) of that final, then sent the
// bot its evaluation request all the same. The bot may answer it with a
// second final (the router took it) or not (the router did not wait).
func (s *Server) requestAfterOwnEnd(ctx context.Context, c *chat, end string) {
	if c.judge == nil || ctx.Err() != nil {
		return
	}
	s.mu.Lock()
	c.requested = true
	s.mu.Unlock()
	if !s.deliver(ctx, c, end, expectFinal, false) {
		return
	}
	s.wait(ctx, c, min(goodbyeGrace, s.cfg.ReplyTimeout), func() bool { return c.asked })
}

func (s *Server) isCutOff(c *chat) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return c.cutOff
}

func (s *Server) isFinal(c *chat) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return c.final
}

// awaitReply waits for the reply to a partner message; a final /end ends
// the wait too.
func (s *Server) awaitReply(ctx context.Context, c *chat, to string) bool {
	if s.wait(ctx, c, s.cfg.ReplyTimeout, func() bool { return c.expect == expectNothing || c.final }) {
		return true
	}
	if ctx.Err() == nil {
		s.mu.Lock()
		c.violate("no reply within %s to %s", s.cfg.ReplyTimeout, abbreviate(to))
		s.mu.Unlock()
	}
	return false
}

// wait waits until cond (called with s.mu held) holds, for at most d.
func (s *Server) wait(ctx context.Context, c *chat, d time.Duration, cond func() bool) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	for {
		s.mu.Lock()
		ok := cond()
		s.mu.Unlock()
		if ok {
			return true
		}
		select {
		case <-c.signal:
		case <-timer.C:
			s.mu.Lock()
			defer s.mu.Unlock()
			return cond()
		case <-ctx.Done():
			return false
		}
	}
}

// deliver sends one server message to the bot, by queue or webhook, after
// recording what the bot now owes.
func (s *Server) deliver(ctx context.Context, c *chat, text string, expect expectation, requireEval bool) bool {
	s.mu.Lock()
	c.started = true
	c.expect, c.requireEval = expect, requireEval
	c.lines = append(c.lines, Line{From: "Server", Text: text})
	s.serverMsgs++
	u := s.update(c.id, text)
	if s.cfg.Mode == ModePoll {
		s.queue = append(s.queue, u)
		close(s.wake)
		s.wake = make(chan struct{})
	}
	s.mu.Unlock()
	if s.cfg.Mode == ModePoll {
		return true
	}
	if err := s.post(ctx, u); err != nil {
		s.mu.Lock()
		c.violate("webhook delivery of %s failed: %v", abbreviate(text), err)
		s.mu.Unlock()
		return false
	}
	return true
}

// update builds the Update carrying text in the dialect. Callers hold s.mu.
func (s *Server) update(chatID int64, text string) telegram.Update {
	if s.cfg.Dialect == Dialect2017 {
		return telegram.Update{Message: &telegram.Message{Chat: telegram.Chat{ID: chatID, FirstName: "Anonym"}, Text: text,
			Date: json.RawMessage(strconv.FormatInt(time.Now().UnixMilli(), 10))}}
	}
	s.nextUpdate++
	s.nextMsg++
	m := s.message(chatID, text, s.nextMsg)
	return telegram.Update{UpdateID: s.nextUpdate, Message: &m}
}

// post delivers u to the bot's webhook, retrying non-2xx answers a few
// times as Telegram does.
func (s *Server) post(ctx context.Context, u telegram.Update) error {
	body, err := json.Marshal(u)
	if err != nil {
		return fmt.Errorf("encode update: %w", err)
	}
	var last error
	for attempt := 1; attempt <= webhookAttempts; attempt++ {
		if attempt > 1 {
			select {
			case <-time.After(time.Duration(attempt-1) * 200 * time.Millisecond):
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		last = s.postOnce(ctx, body)
		if last == nil {
			return nil
		}
		s.mu.Lock()
		s.postErr = last
		s.mu.Unlock()
		s.cfg.Log.Warn("webhook delivery failed", "attempt", attempt, "err", last)
	}
	return fmt.Errorf("%d attempts: %w", webhookAttempts, last)
}

func (s *Server) postOnce(ctx context.Context, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.cfg.WebhookURL, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("build request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if s.cfg.Secret != "" {
		req.Header.Set("X-Telegram-Bot-Api-Secret-Token", s.cfg.Secret)
	}
	resp, err := s.cfg.HTTPClient.Do(req)
	if err != nil {
		var uerr interface{ Unwrap() error }
		if errors.As(err, &uerr) {
			err = uerr.Unwrap() // the URL may hold a secret path
		}
		return err
	}
	defer resp.Body.Close()
	s.mu.Lock()
	s.contacted = true
	s.mu.Unlock()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("the bot answered HTTP %d", resp.StatusCode)
	}
	return nil
}
