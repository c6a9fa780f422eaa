package annex

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/duetbot/duet/shared/duet"
)

// fieldMessage is what every refusal's client message opens with: the
// offending field's path, or the body as a whole.
var fieldMessage = regexp.MustCompile(`^(request body|(message|context|conversation|users)(\[\d+\])?(\.[a-z_]+(\[\d+\])?)*) (is|must|has) `)

// requestSeeds are bodies of both conversation shapes and of every refusal.
var requestSeeds = []string{
	`{"context":[],"message":{"from":"U2","id":"m1","text":"@ada should we deploy on Friday?","timestamp":"2024-03-04T09:00:00Z"}}`,
	`{"context":[{"from":"U3","id":"m0","text":"hi","timestamp":"2024-03-04T08:59:00Z"}],"message":{"from":"U2","text":"x","tagged":["U1"]},"users":[{"id":"U1","username":"ada"}]}`,
	`{"conversation":[{"id":"c1","messages":[{"from":"U2","id":"m0","text":"hi","timestamp":"t"},{"from":"BOT","text":"hello"}]}],"message":{"from":"U2","text":"and now?"}}`,
	`{"conversation":[{"from":"U2","id":"m0","text":"hi"},{"from":"BOT","text":"hello"}],"message":{"from":"U2","text":"flat"}}`,
	`{"conversation":[{"from":"U2","text":"a"},{"id":"c2","messages":[]},{"from":"U4","text":"b"}],"message":{"from":"U2","text":"mixed"}}`,
	`{"conversation":null,"context":null,"message":{"from":"U2","text":"nulls"}}`,
	`{"message":{"from":"U2","text":"   "}}`,
	`{"message":{"from":"","text":"x"}}`,
	`{"message":{"from":"U2","text":5}}`,
	`{"message":{"from":"U2","text":"x","tagged":"U1"}}`,
	`{"message":{"from":"U2","text":"x","tagged":[1]}}`,
	`{"context":{},"message":{"from":"U2","text":"x"}}`,
	`{"context":[{"text":"no from"}],"message":{"from":"U2","text":"x"}}`,
	`{"conversation":[1],"message":{"from":"U2","text":"x"}}`,
	`{"conversation":{},"message":{"from":"U2","text":"x"}}`,
	`{"conversation":[{"messages":[{"from":5}]}],"message":{"from":"U2","text":"x"}}`,
	`{"users":[{"id":1}],"message":{"from":"U2","text":"x"}}`,
	`{"message":null}`, `{"message":[]}`, `{}`, `[]`, `null`, `{`, ``,
}

// FuzzParseRequest checks request parsing and validation. Properties: every
// refusal is duet.EINVALID with a client message that names the field; an
// accepted request has a non-empty text within the limits and a sender on
// every message, survives re-encoding, has a usable conversation id, and a
// history that holds no copy of the message it answers.
func FuzzParseRequest(f *testing.F) {
	for _, s := range requestSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := ParseRequest(body)
		if err == nil {
			err = req.Validate()
		}
		if err != nil {
			if code := duet.Code(err); code != duet.EINVALID && code != duet.ETOOLARGE {
				t.Fatalf("refusal %v has code %q, want %q", err, code, duet.EINVALID)
			}
			if msg := duet.Message(err); !fieldMessage.MatchString(msg) {
				t.Fatalf("refusal message %q names no field", msg)
			}
			return
		}
		if strings.TrimSpace(req.Message.Text) == "" || len(req.Message.Text) > MaxTextBytes {
			t.Fatalf("accepted message text of %d bytes: %q", len(req.Message.Text), req.Message.Text)
		}
		all := append([]Message{req.Message}, req.Context...)
		for _, c := range req.Conversation {
			if len(c.ID) > MaxIDBytes {
				t.Fatalf("accepted a conversation id of %d bytes", len(c.ID))
			}
			all = append(all, c.Messages...)
		}
		for _, m := range all {
			if strings.TrimSpace(m.From) == "" {
				t.Fatalf("accepted a message without a sender: %+v", m)
			}
			if len(m.ID) > MaxIDBytes || len(m.From) > MaxIDBytes || len(m.Timestamp) > MaxIDBytes || len(m.Tagged) > MaxTagged {
				t.Fatalf("accepted a message over the limits: %+v", m)
			}
		}

		enc, err := json.Marshal(req)
		if err != nil {
			t.Fatalf("re-encode: %v", err)
		}
		again, err := ParseRequest(enc)
		if err != nil {
			t.Fatalf("re-encoded request %s refused: %v", enc, err)
		}
		if enc2, _ := json.Marshal(again); string(enc2) != string(enc) {
			t.Fatalf("round trip changed the request:\n got %s\nwant %s", enc2, enc)
		}

		id := req.ConversationID()
		if strings.TrimSpace(id) == "" || len(id) > MaxIDBytes+len("msg-") {
			t.Fatalf("conversation id %q is not a usable key", id)
		}
		h := req.History()
		if len(h) > len(all)-1 {
			t.Fatalf("history of %d messages from %d", len(h), len(all)-1)
		}
		for _, m := range h {
			if m.ID == req.Message.ID && (m.ID != "" || m.From == req.Message.From && m.Text == req.Message.Text) {
				t.Fatalf("history holds the message it answers: %+v", m)
			}
		}
	})
}

// FuzzConversationShapes encodes the same messages in both documented
// shapes of "conversation" — an array of conversations and a flat array of
// messages — and checks that they decode to the same conversation.
func FuzzConversationShapes(f *testing.F) {
	f.Add("U2", "hi", "m0", "2024-03-04T09:00:00Z", uint8(2), true)
	f.Add("BOT", "", "", "", uint8(1), false)
	f.Add("U\"2", "{\"messages\":[]}", "\u00e9", "x", uint8(5), true)
	f.Fuzz(func(t *testing.T, from, text, id, ts string, n uint8, tagged bool) {
		from, text, id, ts = validUTF8(from), validUTF8(text), validUTF8(id), validUTF8(ts)
		var msgs []Message
		for i := range int(n % 6) {
			m := Message{From: from, ID: id + strings.Repeat("'", i), Text: text, Timestamp: ts}
			if tagged {
				m.Tagged = []string{from, id}
			}
			msgs = append(msgs, m)
		}
		flat, _ := json.Marshal(map[string]any{"conversation": msgs})
		nested, _ := json.Marshal(map[string]any{"conversation": []Conversation{{Messages: msgs}}})
		var a, b struct{ Conversation Conversations }
		if err := json.Unmarshal(flat, &a); err != nil {
			t.Fatalf("flat %s: %v", flat, err)
		}
		if err := json.Unmarshal(nested, &b); err != nil {
			t.Fatalf("nested %s: %v", nested, err)
		}
		if len(msgs) == 0 {
			if len(a.Conversation) != 0 || len(b.Conversation) != 1 || len(b.Conversation[0].Messages) != 0 {
				t.Fatalf("no messages: flat %+v, nested %+v", a.Conversation, b.Conversation)
			}
			return
		}
		ja, _ := json.Marshal(a.Conversation)
		jb, _ := json.Marshal(b.Conversation)
		if string(ja) != string(jb) {
			t.Fatalf("shapes differ:\n flat   %s\n nested %s", ja, jb)
		}
		want, _ := json.Marshal(msgs)
		if got, _ := json.Marshal(a.Conversation[0].Messages); len(a.Conversation) != 1 || string(got) != string(want) {
			t.Fatalf("flat messages became %s, want one conversation of %s", ja, want)
		}
	})
}

func validUTF8(s string) string { return strings.ToValidUTF8(s, "\uFFFD") }

// FuzzParseTranscript checks transcripts. Properties: an accepted one names
// its person and has messages, each with a sender; ParseTranscriptText
// reads the same person, users, senders and texts from it; it survives
// re-encoding; its turns are the person's non-empty answers to someone
// else's message just before; its pairs are the person's non-empty
// messages.
func FuzzParseTranscript(f *testing.F) {
	for _, s := range []string{
		`{"person":"U1","users":[{"id":"U1","username":"ada"}],"messages":[{"from":"U2","text":"Friday deploy?"},{"from":"U1","text":"No."},{"from":"U1","text":"Never."}]}`,
		`{"person":"U1","messages":[{"from":"U1","text":"first"},{"from":"U2","text":" "},{"from":"U1","text":"  "}]}`,
		`{"person":" ","messages":[{"from":"U1","text":"x"}]}`,
		`{"person":"U1","messages":[]}`,
		`{"person":"U1","messages":[{"text":"no from"}]}`,
		`{"person":1}`, `[]`, `null`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		tr, err := ParseTranscript(b)
		if err != nil {
			return
		}
		// What a persona reads of it is the same, read lean.
		text, err := ParseTranscriptText(b)
		if err != nil {
			t.Fatalf("ParseTranscriptText refused what ParseTranscript accepted: %v", err)
		}
		if text.Person != tr.Person || !slices.Equal(text.Users, tr.Users) || !slices.Equal(text.Pairs(), tr.Pairs()) || len(text.Turns()) != len(tr.Turns()) {
			t.Fatalf("ParseTranscriptText: got %+v, want the person, users and messages' senders and texts of %+v", text, tr)
		}
		if strings.TrimSpace(tr.Person) == "" || len(tr.Messages) == 0 {
			t.Fatalf("accepted a transcript without a person or messages: %+v", tr)
		}
		for i, m := range tr.Messages {
			if m.From == "" {
				t.Fatalf("accepted messages[%d] without a sender", i)
			}
		}
		enc, err := json.Marshal(tr)
		if err != nil {
			t.Fatal(err)
		}
		again, err := ParseTranscript(enc)
		if err != nil {
			t.Fatalf("re-encoded transcript %s refused: %v", enc, err)
		}
		if enc2, _ := json.Marshal(again); string(enc2) != string(enc) {
			t.Fatalf("round trip changed the transcript:\n got %s\nwant %s", enc2, enc)
		}

		for _, turn := range tr.Turns() {
			if turn.Index < 1 || turn.Index >= len(tr.Messages) {
				t.Fatalf("turn index %d out of range", turn.Index)
			}
			if turn.Answer.From != tr.Person || turn.Prompt.From == tr.Person || strings.TrimSpace(turn.Answer.Text) == "" {
				t.Fatalf("turn %+v is not the person answering someone else", turn)
			}
			if turn.Prompt.Text != tr.Messages[turn.Index-1].Text || turn.Answer.Text != tr.Messages[turn.Index].Text {
				t.Fatalf("turn %+v does not match messages %d-%d", turn, turn.Index-1, turn.Index)
			}
		}
		theirs := 0
		for _, m := range tr.Messages {
			if m.From == tr.Person && strings.TrimSpace(m.Text) != "" {
				theirs++
			}
		}
		pairs := tr.Pairs()
		if len(pairs) != theirs {
			t.Fatalf("%d pairs from %d messages of the person", len(pairs), theirs)
		}
		for _, p := range pairs {
			if strings.TrimSpace(p.Answer) == "" {
				t.Fatalf("pair with an empty answer: %+v", p)
			}
		}
	})
}
