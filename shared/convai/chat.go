package convai

import (
	"cmp"
	"hash/fnv"
	"slices"
	"time"

	"github.com/duetbot/duet/shared/brain"
)

// Status is where a chat session is in its life.
type Status string

// The statuses of a chat session.
const (
	Open  Status = "open"
	Ended Status = "ended"
)

// Limits that keep every stored item small, whatever the chat's length:
// a chat is a small Head plus one Record per partner message, and a
// message's writes touch only its own Record and the Head.
const (
	// Window is how many of the newest Records a Load returns besides the
	// session's start: the turns a reply sees, and the most replies that
	// may wait undelivered in one chat.
	Window = 8
	// maxRecent bounds the update ids of delivered records a Head keeps
	// for de-duplication beyond the Window.
	maxRecent     = 16
	maxContextLen = 8 << 10    // bytes of context kept
	maxTurnLen    = MaxTextLen // characters of one turn kept
)

// MaxSaid bounds the hashes of the bot's replies a Head keeps (Head.Said):
// more than a session's turn limit (CHAT_MAX_TURNS, 20 by default) needs.
const MaxSaid = 128

// Head is the small per-chat item: which session is current, how far its
// delivery sequence has gone and when the chat was last active. Only the
// sender that delivered a record, or one that gave up on it, writes it.
type Head struct {
	ChatID int64
	// Session numbers the chat's sessions: every /start begins the next.
	Session int64
	Status  Status
	// Sent is the sequence number of the session's last record whose
	// messages all went out; -1 before the start record is done.
	Sent int64
	// Part counts the messages of record Sent+1 already sent (a closing
	// reply goes out as two messages: the reply, then the final).
	Part int
	// Recent holds keys (see recentKey) of the non-zero update ids of the
	// session's delivered records, newest last, for de-duplication of
	// updates older than the Window.
	Recent []int64
	// Said holds the hashes (see replyHash) of the session's delivered
	// replies, newest last, at most MaxSaid: a reply is never sent twice
	// in a session, however long (see said.go).
	Said []uint16
	// PartnerAt is when the newest delivered record's partner message
	// arrived; SentAt when the bot's last message went out.
	PartnerAt time.Time
	SentAt    time.Time
	// Pending is set when a sender gave up with messages undelivered: the
	// sweeper looks at the chat once it is older than the outbox grace.
	Pending time.Time
	// Version increases by one with every write; writes are conditional on it.
	Version int64
}

// IdleSince is the later of the partner's last message and the bot's last
// delivered one: the instant from which the chat counts as silent.
func (h *Head) IdleSince() time.Time {
	if h.SentAt.After(h.PartnerAt) {
		return h.SentAt
	}
	return h.PartnerAt
}

// IdleBefore reports whether Store.Idle(t) returns h's chat: open, nothing
// pending, idle since before t. It returns the time the idle began, by
// which Idle orders its chats.
func (h *Head) IdleBefore(t time.Time) (time.Time, bool) {
	at := h.IdleSince()
	return at, h.Status == Open && h.Pending.IsZero() && at.Before(t)
}

// PendingBefore reports whether Store.Undelivered(t) returns h's chat:
// pending since before t. It returns when, by which Undelivered orders its
// chats.
func (h *Head) PendingBefore(t time.Time) (time.Time, bool) {
	return h.Pending, !h.Pending.IsZero() && h.Pending.Before(t)
}

// Kind of a record.
type RecordKind string

// The kinds of records.
const (
	// StartRecord opens a session (sequence number 0): the context, and
	// with /begin the bot's first message.
	StartRecord RecordKind = "start"
	// TurnRecord is one partner message and the bot's reply.
	TurnRecord RecordKind = "turn"
	// EndRecord is a partner's /end, or the sweeper ending an idle chat:
	// the final evaluation only.
	EndRecord RecordKind = "end"
)

// Lease says which sender may deliver a record, until when.
type Lease struct {
	Owner string
	Until time.Time
}

// Held reports whether the lease is held by someone other than owner at now.
func (l Lease) Held(owner string, now time.Time) bool {
	return l.Owner != "" && l.Owner != owner && now.Before(l.Until)
}

// Record is one step of a session, written once when the partner's message
// is accepted (with the bot's answer) and never changed after, but for its
// delivery lease.
type Record struct {
	Session int64
	// Seq is the record's place in the session's delivery sequence, from 0
	// (the start record).
	Seq  int64
	Kind RecordKind
	// UpdateID and Sum (a hash of the update's text) recognise a
	// redelivered update; UpdateID 0 is never de-duplicated.
	UpdateID int64
	Sum      uint64
	// Context is the start record's context text.
	Context string
	// Partner is the partner's message; Bot the bot's reply text.
	Partner string
	Bot     string
	// Rating is the bot's evaluation of Partner, 1..10 (0: none).
	Rating int
	// Final holds the whole-chat scores when the record ends the session.
	Final *brain.Scores
	// PartnerTurns counts the session's partner messages up to this record.
	PartnerTurns int
	At           time.Time
	Lease        Lease
}

// Messages returns what the record has the bot send, in order.
func (r *Record) Messages() []string {
	if !r.sends() {
		return nil
	}
	var msgs []string
	if r.Bot != "" {
		rating := r.Rating
		if r.Kind == StartRecord {
			rating = 0
		}
		msgs = append(msgs, EncodeReply(r.Bot, rating))
	}
	if r.Final != nil {
		msgs = append(msgs, EncodeFinal(*r.Final))
	}
	return msgs
}

// Ends reports whether the record ends its session.
func (r *Record) Ends() bool { return r.Final != nil }

// sends reports whether the record has the bot send anything: whether
// Messages is non-empty, without encoding them.
func (r *Record) sends() bool { return r.Bot != "" || r.Final != nil }

// Chat is what one Load returns: the head (zero Version: none stored yet)
// and the newest records, oldest first: the start record of the newest
// session and its newest Window others.
type Chat struct {
	ID      int64
	Head    Head
	Records []Record
}

// textSum hashes an update's text, to tell a redelivered update from a
// new one that reuses its id (a server that restarted its counter).
// Records store its value: it must stay the 64-bit FNV-1a.
func textSum(text string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(text))
	return h.Sum64()
}

// session is the current session of a loaded chat, as the engine sees it.
type session struct {
	chatID  int64
	head    Head     // as stored (Version 0: none)
	number  int64    // 0: the chat never started
	start   *Record  // nil when it fell out of the window or never existed
	records []Record // of this session, oldest first, the start included
	sent    int64    // the delivery watermark for this session
	part    int
	recent  []int64
}

// current returns the newest session of c, with copies of its records in
// sequence order.
func (c *Chat) current() *session {
	s := &session{chatID: c.ID, head: c.Head, number: c.Head.Session, sent: -1}
	for _, r := range c.Records {
		s.number = max(s.number, r.Session)
	}
	if s.number == c.Head.Session && c.Head.Version > 0 {
		s.sent, s.part, s.recent = c.Head.Sent, c.Head.Part, c.Head.Recent
	}
	s.records = make([]Record, 0, len(c.Records)+1) // +1: the record a message adds (add)
	for _, r := range c.Records {
		if r.Session == s.number {
			s.records = append(s.records, r)
		}
	}
	slices.SortFunc(s.records, bySeq)
	if len(s.records) > 0 && s.records[0].Seq == 0 {
		s.start = &s.records[0]
	}
	return s
}

// add appends rec, which was stored after every record of s, to s.
func (s *session) add(rec Record) {
	s.records = append(s.records, rec)
	if s.records[0].Seq == 0 {
		s.start = &s.records[0] // the array may have moved
	}
}

func bySeq(a, b Record) int { return cmp.Compare(a.Seq, b.Seq) }

// exists reports whether the chat has a session at all.
func (s *session) exists() bool { return s.number > 0 && (s.start != nil || len(s.records) > 0) }

// last returns the newest record of the session.
func (s *session) last() *Record {
	if len(s.records) == 0 {
		return nil
	}
	return &s.records[len(s.records)-1]
}

// status is Ended once any record of the session ends it.
func (s *session) status() Status {
	if s.head.Session == s.number && s.head.Status == Ended {
		return Ended
	}
	for i := range s.records {
		r := &s.records[i]
		if r.Ends() {
			return Ended
		}
	}
	return Open
}

// seen reports whether an update with this id and text was already accepted
// in the session.
func (s *session) seen(id int64, sum uint64) bool {
	if id == 0 {
		return false
	}
	for i := range s.records {
		r := &s.records[i]
		if r.UpdateID == id && r.Sum == sum {
			return true
		}
	}
	return slices.Contains(s.recent, recentKey(id, sum))
}

// seenStart reports whether a /start with this id and text is a copy of
// the one that began the session: any other /start begins a new session.
func (s *session) seenStart(id int64, sum uint64) bool {
	return id != 0 && s.start != nil && s.start.UpdateID == id && s.start.Sum == sum
}

// recentKey combines an update id with its text's hash, so that an id a
// server reuses for another message is not taken for a duplicate.
func recentKey(id int64, sum uint64) int64 {
	return int64(uint64(id)*0x9e3779b97f4a7c15 ^ sum)
}

// setLease records that the record seq is now leased as l.
func (s *session) setLease(seq int64, l Lease) {
	for i := range s.records {
		if s.records[i].Seq == seq {
			s.records[i].Lease = l
		}
	}
}

// nextSeq is the sequence number of the session's next record.
func (s *session) nextSeq() int64 {
	if l := s.last(); l != nil {
		return l.Seq + 1
	}
	return s.sent + 1
}

// unsent returns the session's records not yet fully delivered, in order:
// the tail of s.records, which callers must not append to.
func (s *session) unsent() []Record {
	i := len(s.records)
	for i > 0 && s.records[i-1].Seq > s.sent {
		i--
	}
	return s.records[i:]
}

// partnerTurns is how many partner messages the session has had.
func (s *session) partnerTurns() int {
	if l := s.last(); l != nil {
		return l.PartnerTurns
	}
	return 0
}

// idleSince is when the session last saw a partner message or delivered one.
func (s *session) idleSince() time.Time {
	t := s.head.IdleSince()
	if s.head.Session != s.number {
		t = time.Time{}
	}
	for i := range s.records {
		r := &s.records[i]
		if r.At.After(t) {
			t = r.At
		}
	}
	return t
}

// request is what the brain sees of the session: its context, the
// dialogue in the window and how many partner messages came before it. Its Turns have room for the two turns a caller
// may add (the partner's new message and the bot's reply to it).
func (s *session) request() brain.Request {
	var req brain.Request
	if s.start != nil {
		req.Context = s.start.Context
	}
	req.Turns = make([]brain.Turn, 0, 2*len(s.records)+2)
	oldest := true
	for i := range s.records {
		r := &s.records[i]
		if oldest && r.Seq > 0 {
			// The oldest record in view after the start: the partner's
			// messages before its own are out of the Window.
			req.Omitted = r.PartnerTurns
			if r.Partner != "" {
				req.Omitted--
			}
			oldest = false
		}
		if r.Partner != "" {
			req.Turns = append(req.Turns, brain.Turn{Role: brain.Partner, Text: r.Partner})
		}
		if r.Bot != "" {
			req.Turns = append(req.Turns, brain.Turn{Role: brain.Bot, Text: r.Bot})
		}
	}
	return req
}

// botSpoke reports whether the bot has said anything in the session.
func (s *session) botSpoke() bool {
	for i := range s.records {
		r := &s.records[i]
		if r.Bot != "" {
			return true
		}
	}
	return false
}
