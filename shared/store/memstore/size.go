package memstore

import (
	"log/slog"
	"time"

	"github.com/duetbot/duet/shared/annex"
)

// DefaultMaxBytes caps the bytes each embedded store keeps (the chats; the
// annex exchanges): past it the least recently written are evicted. It is
// what LOCAL_MAX_BYTES sets.
const DefaultMaxBytes = 128 << 20

// The byte caps count the text a store holds plus a fixed cost for each
// item, roughly what Go spends on the structures around it (the map slot,
// the list element, the struct, the strings' headers): an estimate of the
// heap a store takes, cheap enough to keep at every write.
const (
	chatCost     = 512
	recordCost   = 256
	exchangeCost = 384
	messageCost  = 96
)

// chatSize estimates the bytes e holds.
func chatSize(e *entry) int64 {
	n := int64(chatCost + 8*cap(e.head.Recent) + 2*cap(e.head.Said))
	for i := range e.records {
		r := &e.records[i]
		n += int64(recordCost + len(r.Kind) + len(r.Context) + len(r.Partner) + len(r.Bot) + len(r.Lease.Owner))
	}
	return n
}

// exchangeSize estimates the bytes an exchange stored under key holds.
func exchangeSize(ex annex.Exchange, key string) int64 {
	return int64(exchangeCost+len(ex.Conversation)+len(key)) + messageSize(ex.Request) + messageSize(ex.Reply)
}

func messageSize(m annex.Message) int64 {
	n := messageCost + len(m.From) + len(m.ID) + len(m.Text) + len(m.Timestamp)
	for _, t := range m.Tagged {
		n += 16 + len(t)
	}
	return int64(n)
}

// evictions logs what a full store evicts: the first eviction at once,
// then at most a line a minute saying how many since, so that a flood of
// requests past the cap does not flood the log as well.
type evictions struct {
	log  *slog.Logger
	what string // "chat", "annex exchange"
	last time.Time
	n    int
}

// add counts one eviction at now and logs it when due, with attrs
// describing the evicted item and the cap.
func (v *evictions) add(now time.Time, attrs ...any) {
	v.n++
	if !v.last.IsZero() && now.Sub(v.last) < time.Minute {
		return
	}
	v.log.Warn("embedded store full: evicted the least recently used "+v.what+" (raise LOCAL_MAX_CHATS or LOCAL_MAX_BYTES to keep more)",
		append(attrs, "evicted", v.n)...)
	v.last, v.n = now, 0
}
