package transcript

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/convai"
)

var t0 = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

// chatRecords is a session of chat 7: the context, a /begin answered, two
// partner messages rated 6 and 8, then an end record made by end (the
// partner's /end carries its update; the sweeper's carries none).
func chatRecords(session int64, end convai.Record) []convai.Record {
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	recs := []convai.Record{
		{Session: session, Seq: 0, Kind: convai.StartRecord, Context: "i like horses.\ni tend the fields.", At: at(0), UpdateID: 1, Sum: 11},
		{Session: session, Seq: 1, Kind: convai.TurnRecord, Bot: "Hello! Do you ride?", At: at(1), UpdateID: 2, Sum: 12},
		{Session: session, Seq: 2, Kind: convai.TurnRecord, Partner: "yes, every day", Rating: 6, Bot: "Me too!", At: at(2), UpdateID: 3, Sum: 13},
		{Session: session, Seq: 3, Kind: convai.TurnRecord, Partner: "what is your horse called?", Rating: 8, Bot: "Star. And yours?", At: at(3), UpdateID: 4, Sum: 14},
	}
	if end.Kind != "" {
		end.Session, end.Seq, end.At = session, 4, at(4)
		recs = append(recs, end)
	}
	return recs
}

func final() *brain.Scores {
	p := 1
	return &brain.Scores{Quality: 7, Breadth: 3, Engagement: 6, Score: 4, Profile: &p}
}

func TestFromRecords(t *testing.T) {
	partnerEnd := convai.Record{Kind: convai.EndRecord, UpdateID: 5, Sum: 15, Final: final()}
	swept := convai.Record{Kind: convai.EndRecord, Final: final()}
	tests := []struct {
		name      string
		head      *convai.Head
		records   []convai.Record
		want      []State
		delivered []bool // of the last session's bot replies and final, in order
	}{
		{"open", &convai.Head{Session: 1, Status: convai.Open, Sent: 3}, chatRecords(1, convai.Record{}), []State{Open}, []bool{true, true, true}},
		{"ended by the partner", &convai.Head{Session: 1, Status: convai.Ended, Sent: 4}, chatRecords(1, partnerEnd), []State{Ended}, []bool{true, true, true, true}},
		{"ended by the sweeper", &convai.Head{Session: 1, Status: convai.Ended, Sent: 4}, chatRecords(1, swept), []State{Swept}, []bool{true, true, true, true}},
		{"reply undelivered", &convai.Head{Session: 1, Status: convai.Open, Sent: 2, Pending: t0}, chatRecords(1, convai.Record{}), []State{Undelivered}, []bool{true, true, false}},
		{"final undelivered", &convai.Head{Session: 1, Status: convai.Ended, Sent: 3}, chatRecords(1, partnerEnd), []State{Undelivered}, []bool{true, true, true, false}},
		{"restarted, then open", &convai.Head{Session: 2, Status: convai.Open, Sent: 3}, append(chatRecords(1, convai.Record{}), chatRecords(2, convai.Record{})...), []State{Restarted, Open}, []bool{true, true, true}},
		{"head expired", nil, chatRecords(1, partnerEnd), []State{Ended}, []bool{true, true, true, true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			chats := FromRecords(7, tt.head, tt.records)
			if len(chats) != len(tt.want) {
				t.Fatalf("got %d sessions, want %d", len(chats), len(tt.want))
			}
			for i, c := range chats {
				if c.State != tt.want[i] {
					t.Errorf("session %d: state %q, want %q", c.Session, c.State, tt.want[i])
				}
			}
			c := chats[len(chats)-1]
			if c.Context != "i like horses.\ni tend the fields." || !c.Started.Equal(t0) {
				t.Errorf("context %q started %v, want the start record's", c.Context, c.Started)
			}
			if got := c.PartnerTurns(); got != 2 {
				t.Errorf("PartnerTurns = %d, want 2", got)
			}
			if m, ok := c.MeanRating(); !ok || m != 7 {
				t.Errorf("MeanRating = %v, %v; want 7, true", m, ok)
			}
			var got []bool
			for _, turn := range c.Turns {
				if turn.Bot != "" {
					got = append(got, turn.Delivered)
				}
				if turn.Final != nil {
					got = append(got, turn.FinalDelivered)
				}
			}
			if len(got) != len(tt.delivered) {
				t.Fatalf("delivery marks %v, want %v", got, tt.delivered)
			}
			for i := range got {
				if got[i] != tt.delivered[i] {
					t.Errorf("delivery marks %v, want %v", got, tt.delivered)
					break
				}
			}
		})
	}
}

func TestParseID(t *testing.T) {
	tests := []struct {
		in            string
		chat, session int64
		ok            bool
	}{
		{"42:3", 42, 3, true},
		{"-1234567890123:1", -1234567890123, 1, true},
		{"42", 42, 0, true},
		{"42:0", 0, 0, false},
		{"42:x", 0, 0, false},
		{"abc", 0, 0, false},
		{"", 0, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			chat, session, err := ParseID(tt.in)
			if (err == nil) != tt.ok || chat != tt.chat || session != tt.session {
				t.Errorf("ParseID(%q) = %d, %d, %v; want %d, %d, ok %v", tt.in, chat, session, err, tt.chat, tt.session, tt.ok)
			}
			if tt.ok && tt.session > 0 {
				if back := FormatID(chat, session); back != tt.in {
					t.Errorf("FormatID = %q, want %q", back, tt.in)
				}
			}
		})
	}
}

func TestWriteChat(t *testing.T) {
	head := &convai.Head{Session: 1, Status: convai.Ended, Sent: 3}
	chats := FromRecords(7, head, chatRecords(1, convai.Record{Kind: convai.EndRecord, UpdateID: 5, Sum: 15, Final: final()}))
	var b bytes.Buffer
	if err := WriteChat(&b, &chats[0]); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"chat 7:1", "undelivered", "i like horses.\n  i tend the fields.",
		"partner: /begin", "bot:     Hello! Do you ride?",
		"partner: yes, every day   [rated 6/10]", "partner: what is your horse called?   [rated 8/10]",
		"partner: /end", "final: quality 7, breadth 3, engagement 6, score 4, profile 1   [NOT DELIVERED]",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("WriteChat lacks %q:\n%s", want, out)
		}
	}
}

func TestWriteList(t *testing.T) {
	chats := FromRecords(7, &convai.Head{Session: 1, Status: convai.Open, Sent: 3}, chatRecords(1, convai.Record{}))
	chats = append(chats, FromRecords(8, &convai.Head{Session: 1, Status: convai.Ended, Sent: 4},
		chatRecords(1, convai.Record{Kind: convai.EndRecord, Final: final()}))...)
	var b bytes.Buffer
	if err := WriteList(&b, chats); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("got %d lines, want a header and 2 chats:\n%s", len(lines), b.String())
	}
	for i, want := range [][]string{
		{"ID", "STARTED", "TURNS", "STATE", "MEAN RATING", "FINAL"},
		{"7:1", "2026-11-22 10:00:00", " 2 ", "open", "7.0", " -"},
		{"8:1", "ended by sweeper", "7.0", "quality 7, breadth 3, engagement 6, score 4, profile 1"},
	} {
		for _, w := range want {
			if !strings.Contains(lines[i], w) {
				t.Errorf("line %d %q lacks %q", i, lines[i], w)
			}
		}
	}
}
