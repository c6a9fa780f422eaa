package annex

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/duet"
	"github.com/duetbot/duet/shared/embed"
	"github.com/duetbot/duet/shared/metrics"
)

// Engine answers annex requests as the person and records each exchange.
type Engine struct {
	persona *Persona
	replier brain.Replier
	store   Store
	now     func() time.Time
	log     *slog.Logger
	metrics metrics.Recorder
	// unrecorded counts the exchanges the store failed to record.
	unrecorded atomic.Int64
}

// EngineOption configures an Engine.
type EngineOption func(*Engine)

// WithReplier sets the back end that writes replies (default Offline{}).
func WithReplier(r brain.Replier) EngineOption { return func(e *Engine) { e.replier = r } }

// WithLogger sets where a failed recording is reported (default: nowhere).
func WithLogger(l *slog.Logger) EngineOption { return func(e *Engine) { e.log = l } }

// WithMetrics counts the answered requests (AnnexRequests) and their
// latency (AnnexLatency) through rec (default: nowhere).
func WithMetrics(rec metrics.Recorder) EngineOption { return func(e *Engine) { e.metrics = rec } }

// WithClock replaces time.Now, for tests.
func WithClock(now func() time.Time) EngineOption { return func(e *Engine) { e.now = now } }

// NewEngine returns an Engine answering as persona and recording to store.
func NewEngine(persona *Persona, store Store, opts ...EngineOption) (*Engine, error) {
	if persona == nil {
		return nil, errors.New("annex engine: a persona is required")
	}
	if store == nil {
		return nil, errors.New("annex engine: a store is required")
	}
	e := &Engine{persona: persona, replier: Offline{}, store: store, now: time.Now, log: slog.New(slog.DiscardHandler)}
	for _, o := range opts {
		o(e)
	}
	return e, nil
}

// Persona returns the persona the engine answers as.
func (e *Engine) Persona() *Persona { return e.persona }

// Answer replies to req.Message as the person, learning also from what the
// request shows of the person (their earlier messages and the bot's own
// replies), and records the exchange. Recording is best effort: the
// exchanges are an audit trail (kept until their TTL) that no reply
// depends on, so a store that fails costs a logged warning and a count
// (Unrecorded), never the reply.
func (e *Engine) Answer(ctx context.Context, req Request) (Response, error) {
	start := time.Now()
	if err := req.Validate(); err != nil {
		return Response{}, err
	}
	history := req.History()
	isPerson := e.isPerson(req.Users)
	brief, v, err := e.persona.brief(ctx, req.Message.Text, pairsOf(history, isPerson))
	if err != nil {
		return Response{}, fmt.Errorf("annex: %w", err)
	}
	breq := brain.Request{Context: flatten(history), Persona: brief}
	for _, m := range history {
		role := brain.Partner
		if isPerson(m) {
			role = brain.Bot
		}
		breq.Turns = append(breq.Turns, brain.Turn{Role: role, Text: m.Text})
	}
	breq.Turns = append(breq.Turns, brain.Turn{Role: brain.Partner, Text: req.Message.Text})

	var text string
	if o, ok := e.replier.(Offline); ok {
		// The persona analysed its samples once: the offline replier need
		// not redo it for every request.
		text, err = o.reply(breq, v)
	} else {
		text, err = e.replier.Reply(ctx, breq)
	}
	if err != nil {
		return Response{}, fmt.Errorf("annex reply: %w", err)
	}
	text = clean(text)
	if !usable(text, req.Message.Text) {
		// The back end repeated the message (or said nothing): the offline
		// persona still has the person's own words to offer before the
		// stock reply.
		text = fallback
		if alt, err := (Offline{}).reply(breq, v); err == nil {
			if alt = clean(alt); usable(alt, req.Message.Text) {
				text = alt
			}
		}
	}

	now := e.now().UTC()
	ex := Exchange{
		Conversation: req.ConversationID(),
		Request:      req.Message,
		Reply:        Message{From: BotFrom, ID: replyID(req.Message, text), Text: text, Timestamp: now.Format(time.RFC3339Nano)},
		At:           now,
	}
	if err := e.store.SaveExchange(ctx, ex); err != nil {
		n := e.unrecorded.Add(1)
		e.log.WarnContext(ctx, "annex exchange not recorded; the reply is sent anyway",
			"conversation", ex.Conversation, "code", duet.Code(err), "err", err, "unrecorded", n)
	}
	metrics.Add(e.metrics, metrics.AnnexRequests, 1)
	metrics.Since(e.metrics, metrics.AnnexLatency, start)
	return Response{Message: text}, nil
}

// Unrecorded is how many exchanges the store failed to record since the
// engine started.
func (e *Engine) Unrecorded() int64 { return e.unrecorded.Load() }

// History returns the messages before r.Message, oldest first: the
// conversations' messages and the context messages they do not already hold
// (matched by id, or by sender and text when ids are missing), merged in
// time order when every timestamp is RFC 3339; otherwise (a platform
// sending some other format, or none) in the order given, conversations
// first, since an order cannot be derived from timestamps that do not parse.
func (r Request) History() []Message {
	var out []Message
	seen := map[string]bool{}
	key := func(m Message) string {
		if m.ID != "" {
			return "id:" + m.ID
		}
		return "ft:" + m.From + "\x00" + m.Text
	}
	add := func(m Message) {
		k := key(m)
		if seen[k] || k == key(r.Message) {
			return
		}
		seen[k] = true
		out = append(out, m)
	}
	for _, c := range r.Conversation {
		for _, m := range c.Messages {
			add(m)
		}
	}
	for _, m := range r.Context {
		add(m)
	}
	times := make([]time.Time, len(out))
	for i, m := range out {
		t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(m.Timestamp))
		if err != nil {
			return out
		}
		times[i] = t
	}
	idx := make([]int, len(out))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return times[idx[a]].Before(times[idx[b]]) })
	sorted := make([]Message, len(out))
	for i, j := range idx {
		sorted[i] = out[j]
	}
	return sorted
}

// ConversationID returns the conversation the exchange belongs to: the id
// of the request's last identified conversation, or, when it has none (a
// first exchange), one derived from the message.
func (r Request) ConversationID() string {
	for i := len(r.Conversation) - 1; i >= 0; i-- {
		if id := strings.TrimSpace(r.Conversation[i].ID); id != "" {
			return id
		}
	}
	if r.Message.ID != "" {
		return "msg-" + r.Message.ID
	}
	sum := sha256.Sum256([]byte(r.Message.From + "\x00" + r.Message.Timestamp + "\x00" + r.Message.Text))
	return "msg-" + hex.EncodeToString(sum[:8])
}

// isPerson returns the test for "written by the person": the bot's own
// messages, and those whose sender is the person's id, or a user whose
// username is the person's (or matches their name).
func (e *Engine) isPerson(users []User) func(Message) bool {
	d := e.persona.Data()
	names := map[string]bool{}
	for _, n := range []string{d.Username, d.Name, firstName(d.Name)} {
		if n := normalName(n); n != "" {
			names[n] = true
		}
	}
	ids := map[string]bool{BotFrom: true}
	if d.ID != "" {
		ids[d.ID] = true
	}
	for _, u := range users {
		if names[normalName(u.Username)] {
			ids[u.ID] = true
		}
	}
	return func(m Message) bool { return ids[m.From] }
}

func firstName(name string) string {
	if f := strings.Fields(name); len(f) > 1 {
		return f[0]
	}
	return ""
}

func normalName(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127 {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// flatten renders messages as "from: text" lines for brain.Request.Context.
func flatten(msgs []Message) string {
	var b strings.Builder
	for _, m := range msgs {
		fmt.Fprintf(&b, "%s: %s\n", m.From, m.Text)
	}
	return b.String()
}

// clean trims the reply and defuses its mentions: the platform tags users
// itself.
func clean(s string) string {
	return strings.TrimSpace(brain.StripMentions(s))
}

// usable reports whether reply can be sent in answer to message: it says
// something, and not merely the message again.
func usable(reply, message string) bool {
	return reply != "" && !embed.Echoes(reply, message)
}

func replyID(m Message, text string) string {
	sum := sha256.Sum256([]byte(m.ID + "\x00" + m.Timestamp + "\x00" + text))
	return "bot-" + hex.EncodeToString(sum[:8])
}
