package convai

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/duet"
	"github.com/duetbot/duet/shared/metrics"
)

// Handle processes one server message: it stores the partner's message with
// the bot's answer as the session's next record (one conditional write),
// delivers it in sequence order, and advances the head (a second write). A
// duplicate of an accepted update delivers only what no live sender holds.
//
// Errors with code duet.EINVALID or duet.ENOTFOUND mean the message can never
// be processed (it is dropped); duet.EUNAVAILABLE means a retry may succeed,
// and a retry is safe.
func (e *Engine) Handle(ctx context.Context, u Update) error {
	arrived := time.Now()
	ctx, cancel := e.budget(ctx)
	defer cancel()
	cmd := Parse(u.Text)
	sum := textSum(u.Text)
	owner := newOwner()
	for range saveAttempts {
		chat, err := e.load(ctx, u.ChatID)
		if err != nil {
			metrics.Add(e.Metrics, metrics.RepliesGivenUp, 1, metrics.Reason(metrics.GivenUpStore))
			return err
		}
		s := chat.current()
		if dup := s.seen(u.UpdateID, sum); s.exists() && (cmd.Kind == Start && s.seenStart(u.UpdateID, sum) || cmd.Kind != Start && dup) {
			e.log().InfoContext(ctx, "duplicate update", "chat", u.ChatID, "update_id", u.UpdateID)
			metrics.Add(e.Metrics, metrics.DuplicatesDropped, 1)
			return e.deliver(ctx, s, owner)
		}
		rec, err := e.apply(ctx, s, u, cmd)
		if err != nil {
			return err
		}
		rec.Sum, rec.At, rec.Lease = sum, e.now(), e.lease(ctx, owner)
		switch err := e.Store.Append(ctx, u.ChatID, rec); {
		case errors.Is(err, duet.ErrConflict):
			e.log().InfoContext(ctx, "chat changed concurrently, retrying", "chat", u.ChatID)
			continue
		case err != nil:
			metrics.Add(e.Metrics, metrics.RepliesGivenUp, 1, metrics.Reason(metrics.GivenUpStore))
			return duet.Wrap(duet.EUNAVAILABLE, err, "store message")
		}
		e.count(rec, cmd)
		if rec.Session == s.number {
			s.add(*rec)
		} else { // a /start: the chat's newest session is rec's
			chat.Records = append(chat.Records, *rec)
			s = chat.current()
		}
		if err := e.deliver(ctx, s, owner); err != nil {
			return err
		}
		if rec.sends() {
			// Update in → the Bot API answered its reply's sendMessage
			// (and the delivery was recorded: one write more).
			metrics.Since(e.Metrics, metrics.ReplyLatency, arrived)
		}
		return nil
	}
	return duet.Errorf(duet.EUNAVAILABLE, "chat %d kept changing concurrently", u.ChatID)
}

// count records the metrics of rec, just stored for a message cmd.
func (e *Engine) count(rec *Record, cmd Command) {
	metrics.Add(e.Metrics, metrics.PartnerMessages, 1)
	if rec.Ends() {
		by := metrics.EndedByBot // the turn limit, a goodbye, or the Replier's decision
		if cmd.Kind == End {
			by = metrics.EndedByPartner
		}
		metrics.Add(e.Metrics, metrics.ChatsEnded, 1, metrics.EndedBy(by))
	}
}

// load returns the chat, empty when nothing is stored.
func (e *Engine) load(ctx context.Context, id int64) (*Chat, error) {
	c, err := e.Store.Load(ctx, id)
	switch {
	case errors.Is(err, duet.ErrNotFound):
		return &Chat{ID: id}, nil
	case err != nil:
		return nil, duet.Wrap(duet.EUNAVAILABLE, err, "load chat")
	}
	return c, nil
}

// apply returns the record message u adds to session s.
func (e *Engine) apply(ctx context.Context, s *session, u Update, cmd Command) (*Record, error) {
	if cmd.Kind == Start {
		rec := &Record{Session: s.number + 1, Seq: 0, Kind: StartRecord, UpdateID: u.UpdateID, Context: truncateBytes(cmd.Arg, maxContextLen)}
		if cmd.Begin {
			next := &session{chatID: u.ChatID, number: rec.Session, sent: -1, records: []Record{*rec}}
			next.start = &next.records[0]
			if err := e.answer(ctx, next, rec, next.request(), false); err != nil {
				return nil, err
			}
		}
		return rec, nil
	}
	if !s.exists() {
		return nil, duet.Errorf(duet.ENOTFOUND, "no chat %d: it needs /start first", u.ChatID)
	}
	if s.status() != Open {
		return nil, duet.Errorf(duet.ENOTFOUND, "chat %d has ended", u.ChatID)
	}
	if n := len(s.unsent()); n >= Window-1 {
		return nil, duet.Errorf(duet.EUNAVAILABLE, "chat %d has %d replies waiting to be delivered", u.ChatID, n)
	}
	rec := &Record{Session: s.number, Seq: s.nextSeq(), Kind: TurnRecord, UpdateID: u.UpdateID, PartnerTurns: s.partnerTurns()}
	switch cmd.Kind {
	case Begin:
		if s.botSpoke() || s.partnerTurns() > 0 {
			return nil, duet.Errorf(duet.EINVALID, "chat %d: /begin after the chat began", u.ChatID)
		}
		return rec, e.answer(ctx, s, rec, s.request(), false)
	case End:
		rec.Kind = EndRecord
		req := s.request()
		req.Judge = cmd.Judge
		if cmd.JudgeErr != nil {
			e.log().WarnContext(ctx, "malformed evaluation request; answering for 1..5 without candidates",
				"chat", u.ChatID, "err", cmd.JudgeErr)
		}
		return rec, e.final(ctx, rec, req)
	}
	if cmd.Arg == "" {
		return nil, duet.Errorf(duet.EINVALID, "chat %d: empty message", u.ChatID)
	}
	rec.Partner = truncate(cmd.Arg, maxTurnLen)
	rec.PartnerTurns++
	req := s.request()
	req.Turns = append(req.Turns, brain.Turn{Role: brain.Partner, Text: rec.Partner})
	req.Closing = rec.PartnerTurns >= orDefault(e.MaxTurns, DefaultMaxTurns) || (!e.StayOnGoodbye && IsGoodbye(cmd.Arg))
	rating, err := e.Evaluator.Rate(ctx, req)
	if err != nil {
		return nil, duet.Wrap(duet.EUNAVAILABLE, err, "rate message")
	}
	rec.Rating = brain.Clamp(rating)
	return rec, e.answer(ctx, s, rec, req, req.Closing)
}

// answer puts the bot's reply to req in rec, and the final evaluation when
// the chat ends with it (closing, or the Replier decided so).
func (e *Engine) answer(ctx context.Context, s *session, rec *Record, req brain.Request, closing bool) error {
	text, end, err := e.reply(ctx, e.Replier, req)
	if err == nil && s.said(text) {
		text, end, err = e.unrepeated(ctx, s, req, text, end)
	}
	if err != nil {
		return err
	}
	rec.Bot = text
	if !closing && !end {
		return nil
	}
	req.Turns = append(req.Turns, brain.Turn{Role: brain.Bot, Text: text})
	return e.final(ctx, rec, req)
}

// final puts the whole-chat evaluation in rec, made valid for the
// server's evaluation request req.Judge. It is computed once, before the
// record is stored: a retried delivery resends the stored scores, so the
// request itself need not be kept.
func (e *Engine) final(ctx context.Context, rec *Record, req brain.Request) error {
	scores, err := e.Evaluator.Final(ctx, req)
	if err != nil {
		return duet.Wrap(duet.EUNAVAILABLE, err, "score chat")
	}
	scores = SettleFinal(scores, req.Judge)
	rec.Final = &scores
	return nil
}

// reply asks r for the bot's next message, and whether it ends the chat.
// A reply that reads as a protocol command is never sent as one.
func (e *Engine) reply(ctx context.Context, r brain.Replier, req brain.Request) (string, bool, error) {
	var text string
	var end bool
	var err error
	if en, ok := r.(brain.Ender); ok {
		text, end, err = en.ReplyEnd(ctx, req)
	} else {
		text, err = r.Reply(ctx, req)
	}
	if err != nil {
		return "", false, duet.Wrap(duet.EUNAVAILABLE, err, "compose reply")
	}
	// Only a text with a slash can read as a command: most replies skip
	// the checks' regular expressions.
	if strings.Contains(text, "/") {
		if e.Fallback != nil && IsCommand(text) {
			e.log().WarnContext(ctx, "the reply engine answered with a protocol command; using the fallback")
			if text, err = e.Fallback.Reply(ctx, req); err != nil {
				return "", false, duet.Wrap(duet.EUNAVAILABLE, err, "compose reply")
			}
		}
		text = Defuse(text)
	}
	if strings.TrimSpace(text) == "" {
		return "", false, duet.Errorf(duet.EINTERNAL, "compose reply: the reply engine returned no text")
	}
	return truncate(text, MaxTextLen), end, nil
}
