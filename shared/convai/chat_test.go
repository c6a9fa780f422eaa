package convai

import (
	"strings"
	"testing"
	"time"

	"github.com/duetbot/duet/shared/brain"
)

// TestCurrentSession checks how a loaded chat reads: the newest session
// wins, its watermark comes from the head only when the head is of that
// session, and de-duplication is per session and needs the same text.
func TestCurrentSession(t *testing.T) {
	at := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	rec := func(session, seq, update int64, text string) Record {
		return Record{Session: session, Seq: seq, UpdateID: update, Sum: textSum(text), Partner: text, Bot: "re " + text, At: at}
	}
	c := &Chat{
		ID:   1,
		Head: Head{ChatID: 1, Session: 1, Status: Open, Sent: 1, Recent: []int64{recentKey(7, textSum("anything"))}, Version: 3},
		Records: []Record{
			rec(1, 0, 10, "/start a"), rec(1, 1, 11, "one"), rec(1, 2, 12, "two"),
		},
	}
	s := c.current()
	if s.number != 1 || s.sent != 1 || s.nextSeq() != 3 {
		t.Fatalf("session %d sent %d next %d, want 1, 1, 3", s.number, s.sent, s.nextSeq())
	}
	if u := s.unsent(); len(u) != 1 || u[0].Seq != 2 {
		t.Errorf("unsent = %+v, want record 2 only", u)
	}
	for _, tc := range []struct {
		id   int64
		text string
		want bool
	}{
		{12, "two", true},
		{12, "another text under a reused id", false},
		{7, "anything", true}, // in the head's recent ids
		{7, "something else", false},
		{0, "two", false}, // id 0 is never de-duplicated
		{13, "two", false},
	} {
		if got := s.seen(tc.id, textSum(tc.text)); got != tc.want {
			t.Errorf("seen(%d, %q) = %v, want %v", tc.id, tc.text, got, tc.want)
		}
	}

	// A new /start begins session 2: the head (of session 1) no longer
	// counts, nor do its ids.
	c.Records = append(c.Records, rec(2, 0, 11, "/start b"))
	s = c.current()
	if s.number != 2 || s.sent != -1 || len(s.records) != 1 || s.seen(12, textSum("two")) || s.seen(7, textSum("anything")) {
		t.Errorf("after a new /start: session %d sent %d records %d; want 2, -1, 1 and no old ids", s.number, s.sent, len(s.records))
	}
	if !s.seen(11, textSum("/start b")) {
		t.Error("a redelivered copy of the current /start is not recognised")
	}
}

// TestRecordMessages checks what each kind of record sends: valid protocol
// messages, the final last, no evaluation on the reply to the context.
func TestRecordMessages(t *testing.T) {
	scores := &brain.Scores{Quality: 3, Breadth: 4, Engagement: 5}
	for _, tc := range []struct {
		name   string
		rec    Record
		finals []bool
		evals  []bool
	}{
		{"start", Record{Kind: StartRecord}, nil, nil},
		{"start with /begin", Record{Kind: StartRecord, Bot: "hello"}, []bool{false}, []bool{false}},
		{"turn", Record{Kind: TurnRecord, Partner: "hi", Bot: "hey", Rating: 7}, []bool{false}, []bool{true}},
		{"closing turn", Record{Kind: TurnRecord, Partner: "bye", Bot: "bye", Rating: 2, Final: scores}, []bool{false, true}, []bool{true, true}},
		{"end", Record{Kind: EndRecord, Final: scores}, []bool{true}, []bool{true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msgs := tc.rec.Messages()
			if len(msgs) != len(tc.finals) {
				t.Fatalf("got %d messages %q, want %d", len(msgs), msgs, len(tc.finals))
			}
			for i, m := range msgs {
				final, err := Validate(m, tc.evals[i])
				if err != nil || final != tc.finals[i] {
					t.Errorf("message %d %s: final=%v err=%v, want final=%v and valid", i, m, final, err, tc.finals[i])
				}
			}
			if tc.rec.Ends() != (tc.rec.Final != nil) {
				t.Errorf("Ends() = %v with Final %v", tc.rec.Ends(), tc.rec.Final)
			}
		})
	}
}

// TestTextSumIsFNV1a: stored records carry textSum's values, so they
// must stay those that earlier versions stored (64-bit FNV-1a).
func TestTextSumIsFNV1a(t *testing.T) {
	for _, tt := range []struct {
		text string
		want uint64
	}{
		{"", 0xcbf29ce484222325},
		{"hello", 0xa430d84680aabd0b},
		{"/start Cats or dogs?", 0xa17532c706c5ce30},
		{"naïve — ünïcode ✓", 0xb4d16ac12a9ae052},
		{strings.Repeat("long text ", 500), 0xe96bee7fb75c5635},
	} {
		if got := textSum(tt.text); got != tt.want {
			t.Errorf("textSum(%.20q) = %#x, want %#x", tt.text, got, tt.want)
		}
	}
}

// TestReplyHashUnchanged: heads store replyHash's values (Head.Said), so
// they must stay those that earlier versions stored.
func TestReplyHashUnchanged(t *testing.T) {
	for _, tt := range []struct {
		text string
		want uint16
	}{
		{"Hi  there", 2277},
		{"That sounds fun. What else do you like?", 2020},
		{"İstanbul ΣΑΣ", 1238},
		{"", 3213},
	} {
		if got := replyHash(tt.text); got != tt.want {
			t.Errorf("replyHash(%q) = %d, want %d", tt.text, got, tt.want)
		}
	}
}
