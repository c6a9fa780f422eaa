// Package transcript turns what the ConvAI bot stored of its chats (a
// head and records per chat, see package convai) into readable
// transcripts, one per session, and renders them: a list, one chat as
// text, ConvAI2 release JSON that `duet rate` reads, and one HTML page. It
// also turns the annex bot's stored exchanges into a transcript that
// `duet eval` replays.
package transcript

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/convai"
)

// State is where a chat's session stands.
type State string

// The states of a session.
const (
	// Open: the session takes messages.
	Open State = "open"
	// Ended: the partner's /end or the bot itself ended it with a final.
	Ended State = "ended"
	// Swept: the sweeper ended it after the partner fell silent.
	Swept State = "ended by sweeper"
	// Undelivered: some of the bot's messages have not gone out (yet).
	Undelivered State = "undelivered"
	// Restarted: a new /start began another session before this one
	// ended; it has no final.
	Restarted State = "restarted"
)

// Turn is one step of a session: a partner message with the bot's rating
// of it and the bot's reply, the bot's first message after /begin, or the
// final alone.
type Turn struct {
	Seq int64
	At  time.Time
	// Partner is the partner's message ("" when the bot spoke first, or for
	// the sweeper's final); Command is "/begin" or "/end" when the partner
	// sent that instead.
	Partner string
	Command string
	// Rating is the bot's evaluation of Partner, 1..10 (0: none).
	Rating int
	// Bot is the bot's reply ("" when none).
	Bot string
	// Final holds the whole-chat scores when the turn ends the session.
	Final *brain.Scores
	// Delivered reports whether the reply went out; FinalDelivered the
	// final's message. Both are true for sessions the head no longer
	// tracks, whose delivery is no longer known.
	Delivered      bool
	FinalDelivered bool
}

// Chat is one session of a chat: from its /start to its final.
type Chat struct {
	ChatID  int64
	Session int64
	// Context is the /start text: a paragraph, or a profile one sentence a
	// line.
	Context string
	Started time.Time
	// Last is the time of the newest turn.
	Last  time.Time
	State State
	Turns []Turn
	// Final is the session's whole-chat evaluation (nil: none yet).
	Final *brain.Scores
	// Options are the partner's candidate profiles the router's
	// evaluation request listed, when known (duet chat).
	Options [][]string
}

// ID names the session: "<chat id>:<session>".
func (c *Chat) ID() string { return FormatID(c.ChatID, c.Session) }

// FormatID returns the id of a chat's session.
func FormatID(chat, session int64) string {
	return strconv.FormatInt(chat, 10) + ":" + strconv.FormatInt(session, 10)
}

// ParseID reads "<chat id>:<session>" or a bare "<chat id>" (session 0:
// every session of the chat).
func ParseID(s string) (chat, session int64, err error) {
	c, sess, found := strings.Cut(strings.TrimSpace(s), ":")
	chat, err = strconv.ParseInt(c, 10, 64)
	if err != nil {
		return 0, 0, fmt.Errorf("chat id %q: want <chat id> or <chat id>:<session>, as `duet chats list` prints", s)
	}
	if found {
		session, err = strconv.ParseInt(sess, 10, 64)
		if err != nil || session < 1 {
			return 0, 0, fmt.Errorf("chat id %q: the session after ':' must be a number from 1", s)
		}
	}
	return chat, session, nil
}

// PartnerTurns counts the partner's messages (commands excluded).
func (c *Chat) PartnerTurns() int {
	n := 0
	for _, t := range c.Turns {
		if t.Partner != "" {
			n++
		}
	}
	return n
}

// MeanRating is the mean of the bot's ratings of the partner's messages;
// ok is false when there is none.
func (c *Chat) MeanRating() (mean float64, ok bool) {
	sum, n := 0, 0
	for _, t := range c.Turns {
		if t.Partner != "" && t.Rating > 0 {
			sum += t.Rating
			n++
		}
	}
	if n == 0 {
		return 0, false
	}
	return float64(sum) / float64(n), true
}

// FromRecords returns the sessions of one chat, oldest first, from its
// records (in session and sequence order, as an Archive returns them) and
// its head (nil when it expired). The head says how far the newest
// session's delivery went; older sessions are taken as delivered.
func FromRecords(id int64, head *convai.Head, records []convai.Record) []Chat {
	var chats []Chat
	for i := 0; i < len(records); {
		j := i
		for j < len(records) && records[j].Session == records[i].Session {
			j++
		}
		chats = append(chats, session(id, head, records[i:j]))
		i = j
	}
	for k := range chats {
		c := &chats[k]
		if c.State == Open && k < len(chats)-1 {
			c.State = Restarted
		}
	}
	return chats
}

// session builds one session from its records.
func session(id int64, head *convai.Head, recs []convai.Record) Chat {
	c := Chat{ChatID: id, Session: recs[0].Session, State: Open}
	current := head != nil && head.Session == c.Session
	undelivered := false
	for _, r := range recs {
		if r.Kind == convai.StartRecord {
			c.Context = r.Context
			c.Started = r.At
		}
		if c.Started.IsZero() {
			c.Started = r.At
		}
		c.Last = r.At
		t := Turn{Seq: r.Seq, At: r.At, Partner: r.Partner, Rating: r.Rating, Bot: r.Bot, Final: r.Final, Delivered: true, FinalDelivered: true}
		switch {
		case r.Kind == convai.StartRecord && r.Bot != "":
			t.Command = "/begin"
		case r.Kind == convai.TurnRecord && r.Partner == "" && r.Bot != "":
			t.Command = "/begin"
		case r.Kind == convai.EndRecord && !sweptEnd(r):
			t.Command = "/end"
		}
		if current {
			t.Delivered, t.FinalDelivered = delivered(head, &r)
			if (r.Bot != "" && !t.Delivered) || (r.Final != nil && !t.FinalDelivered) {
				undelivered = true
			}
		}
		if r.Final != nil {
			c.Final = r.Final
			c.State = Ended
			if r.Kind == convai.EndRecord && sweptEnd(r) {
				c.State = Swept
			}
		}
		if r.Kind == convai.StartRecord && r.Bot == "" {
			continue // the context alone: no turn to show
		}
		c.Turns = append(c.Turns, t)
	}
	if undelivered {
		c.State = Undelivered
	}
	return c
}

// sweptEnd reports whether an end record is the sweeper's: it carries no
// update (the partner's /end carries the update's id or text hash).
func sweptEnd(r convai.Record) bool {
	return r.Kind == convai.EndRecord && r.UpdateID == 0 && r.Sum == 0 && r.Partner == ""
}

// delivered reports whether r's reply and final went out, by the head's
// watermark: records up to Sent went out whole; of record Sent+1, the
// first Part messages.
func delivered(h *convai.Head, r *convai.Record) (reply, final bool) {
	if r.Seq <= h.Sent {
		return true, true
	}
	if r.Seq == h.Sent+1 && h.Part > 0 && r.Bot != "" {
		return true, false // the reply went out, the final not yet
	}
	return false, false
}
