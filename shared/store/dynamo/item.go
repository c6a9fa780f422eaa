package dynamo

import (
	"fmt"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/convai"
)

// Key and index values of ConvAI chat items. A chat is one partition:
// the head under sort key "CHAT", and each record under
// "C#<session>#S" (the start) or "C#<session>#R<seq>", fixed width, so
// that one descending Query from "CHAT" reads the head, the newest
// session's start and its newest records, in that order.
const (
	chatPrefix   = "CHAT#"
	headSortKey  = "CHAT"
	recordPrefix = "C#"
	activePrefix = "ACTIVE#"
	outboxPrefix = "OUTBOX#"
	writeIDAttr  = "wid"
	leaseOwner   = "lo"
	leaseUntil   = "lu"
	// indexTimeFormat is fixed width, so index sort keys sort by time.
	indexTimeFormat = "2006-01-02T15:04:05.000000000Z"
)

// headItem is a chat head as stored. Times are Unix nanoseconds (0: unset),
// names short: every byte of a name is paid on every write.
type headItem struct {
	PK      string  `dynamodbav:"pk"`
	SK      string  `dynamodbav:"sk"`
	Session int64   `dynamodbav:"sess"`
	Status  string  `dynamodbav:"st"`
	Sent    int64   `dynamodbav:"sent"`
	Part    int     `dynamodbav:"part,omitempty"`
	Recent  []int64 `dynamodbav:"rec,omitempty"`
	// Said packs Head.Said, 12 bits a hash: a binary attribute is the
	// cheapest to read and write, and the head is both for every message.
	Said      []byte `dynamodbav:"sd,omitempty"`
	PartnerAt int64  `dynamodbav:"pat"`
	SentAt    int64  `dynamodbav:"sat,omitempty"`
	Pending   int64  `dynamodbav:"pend,omitempty"`
	Version   int64  `dynamodbav:"version"`
	// ExpiresAt is the expiry instant in Unix seconds, rounded up.
	ExpiresAt int64  `dynamodbav:"expires_at"`
	GSI1PK    string `dynamodbav:"gsi1pk,omitempty"`
	GSI1SK    string `dynamodbav:"gsi1sk,omitempty"`
	// WriteID is unique to each write, so that a write can recognise itself
	// when the SDK retries a PutItem whose answer was lost.
	WriteID string `dynamodbav:"wid"`
}

// recordItem is a chat record as stored.
type recordItem struct {
	PK           string      `dynamodbav:"pk"`
	SK           string      `dynamodbav:"sk"`
	Session      int64       `dynamodbav:"sess"`
	Seq          int64       `dynamodbav:"seq"`
	Kind         string      `dynamodbav:"k"`
	UpdateID     int64       `dynamodbav:"uid,omitempty"`
	Sum          uint64      `dynamodbav:"sum,omitempty"`
	Context      string      `dynamodbav:"ctx,omitempty"`
	Partner      string      `dynamodbav:"p,omitempty"`
	Bot          string      `dynamodbav:"b,omitempty"`
	Rating       int         `dynamodbav:"r,omitempty"`
	Final        *finalScore `dynamodbav:"fin,omitempty"`
	PartnerTurns int         `dynamodbav:"pt,omitempty"`
	At           int64       `dynamodbav:"at"`
	LeaseOwner   string      `dynamodbav:"lo,omitempty"`
	LeaseUntil   int64       `dynamodbav:"lu,omitempty"`
	ExpiresAt    int64       `dynamodbav:"expires_at"`
	WriteID      string      `dynamodbav:"wid"`
}

// finalScore is a record's whole-chat evaluation: fixed-size, whatever the
// router's evaluation request held (the candidate profiles are not kept:
// the final is computed before its record is written).
type finalScore struct {
	Quality    int `dynamodbav:"q"`
	Breadth    int `dynamodbav:"b"`
	Engagement int `dynamodbav:"e"`
	Score      int `dynamodbav:"s,omitempty"`
	// Profile is the profile guess plus one, so that 0 (omitted) means none.
	Profile int `dynamodbav:"pi,omitempty"`
}

// scores returns the stored evaluation as the engine sees it.
func (f *finalScore) scores() *brain.Scores {
	s := &brain.Scores{Quality: f.Quality, Breadth: f.Breadth, Engagement: f.Engagement, Score: f.Score}
	if f.Profile > 0 {
		i := f.Profile - 1
		s.Profile = &i
	}
	return s
}

// newFinalScore returns the stored form of s.
func newFinalScore(s *brain.Scores) *finalScore {
	f := &finalScore{Quality: s.Quality, Breadth: s.Breadth, Engagement: s.Engagement, Score: s.Score}
	if s.Profile != nil && *s.Profile >= 0 {
		f.Profile = *s.Profile + 1
	}
	return f
}

func chatPK(id int64) string { return chatPrefix + strconv.FormatInt(id, 10) }

func recordSK(session, seq int64) string {
	if seq == 0 {
		return fmt.Sprintf("%s%010d#S", recordPrefix, session)
	}
	return fmt.Sprintf("%s%010d#R%010d", recordPrefix, session, seq)
}

func key(pk, sk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		PartitionKey: &types.AttributeValueMemberS{Value: pk},
		SortKey:      &types.AttributeValueMemberS{Value: sk},
	}
}

func nanos(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

func fromNanos(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}

func num(n int64) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(n, 10)}
}

func (h *headItem) head(id int64) convai.Head {
	return convai.Head{
		ChatID:    id,
		Session:   h.Session,
		Status:    convai.Status(h.Status),
		Sent:      h.Sent,
		Part:      h.Part,
		Recent:    h.Recent,
		Said:      unpackSaid(h.Said),
		PartnerAt: fromNanos(h.PartnerAt),
		SentAt:    fromNanos(h.SentAt),
		Pending:   fromNanos(h.Pending),
		Version:   h.Version,
	}
}

func (r *recordItem) record() convai.Record {
	rec := convai.Record{
		Session: r.Session, Seq: r.Seq, Kind: convai.RecordKind(r.Kind),
		UpdateID: r.UpdateID, Sum: r.Sum, Context: r.Context,
		Partner: r.Partner, Bot: r.Bot, Rating: r.Rating, PartnerTurns: r.PartnerTurns,
		At:    fromNanos(r.At),
		Lease: convai.Lease{Owner: r.LeaseOwner, Until: fromNanos(r.LeaseUntil)},
	}
	if r.Final != nil {
		rec.Final = r.Final.scores()
	}
	return rec
}

// headItem returns h as stored, with its expiry and index keys.
func (s *Store) headItem(h *convai.Head) headItem {
	it := headItem{
		PK: chatPK(h.ChatID), SK: headSortKey,
		Session: h.Session, Status: string(h.Status), Sent: h.Sent, Part: h.Part, Recent: h.Recent, Said: packSaid(h.Said),
		PartnerAt: nanos(h.PartnerAt), SentAt: nanos(h.SentAt), Pending: nanos(h.Pending),
		Version:   h.Version,
		ExpiresAt: ceilUnix(h.IdleSince().Add(s.ttl)),
	}
	shard := strconv.FormatInt(s.shard(h.ChatID), 10)
	switch {
	case !h.Pending.IsZero():
		it.GSI1PK, it.GSI1SK = outboxPrefix+shard, indexTime(h.Pending)
	case h.Status == convai.Open:
		// To the grain, so that the entry moves once per grain, not
		// with every message.
		it.GSI1PK, it.GSI1SK = activePrefix+shard, indexTime(h.IdleSince().Truncate(indexGrain))
	}
	return it
}

// ceilUnix returns t in Unix seconds, rounded up, so that an item never
// expires before its time.
func ceilUnix(t time.Time) int64 {
	sec := t.Unix()
	if t.Nanosecond() > 0 {
		sec++
	}
	return sec
}

func indexTime(t time.Time) string { return t.UTC().Format(indexTimeFormat) }

// packSaid packs reply hashes of convai.HashBits (12) bits, two in
// three bytes, a last odd one in two.
func packSaid(said []uint16) []byte {
	if len(said) == 0 {
		return nil
	}
	b := make([]byte, 0, (3*len(said)+1)/2)
	for i := 0; i < len(said); i += 2 {
		a := said[i] & 0xFFF
		b = append(b, byte(a>>4), byte(a&0xF)<<4)
		if i+1 < len(said) {
			c := said[i+1] & 0xFFF
			b[len(b)-1] |= byte(c >> 8)
			b = append(b, byte(c))
		}
	}
	return b
}

// unpackSaid reverses packSaid.
func unpackSaid(b []byte) []uint16 {
	if len(b) < 2 {
		return nil
	}
	said := make([]uint16, 0, 2*len(b)/3)
	for i := 0; i+1 < len(b); i += 3 {
		said = append(said, uint16(b[i])<<4|uint16(b[i+1]>>4))
		if i+2 < len(b) {
			said = append(said, uint16(b[i+1]&0xF)<<8|uint16(b[i+2]))
		}
	}
	return said
}
