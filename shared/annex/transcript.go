package annex

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/duetbot/duet/shared/bounded"
)

// MaxTranscriptBytes bounds a transcript file (`duet eval -transcript`,
// `duet persona --file`, ANNEX_PERSONA_FILE): some 500,000 messages, far
// past any real chat, while reading and decoding it stays well under 1 GB.
const MaxTranscriptBytes = 64 << 20

// Transcript is a recorded conversation of the person a bot emulates:
// Person is their user id, Messages are in order.
type Transcript struct {
	Person   string    `json:"person"`
	Users    []User    `json:"users"`
	Messages []Message `json:"messages"`
}

// Pair is one thing the person said (Answer) in reply to what someone else
// said just before (Prompt). A pair with an empty Prompt is a message of the
// person's that answered nobody: it still shows their manner.
type Pair struct {
	Prompt string `json:"prompt,omitempty"`
	Answer string `json:"answer"`
}

// Turn is a turn to score: the message Index of the transcript, written by
// the person in reply to the message just before it (Prompt).
type Turn struct {
	Index  int
	Prompt Message
	Answer Message
}

// ReadTranscript reads a transcript file.
func ReadTranscript(path string) (Transcript, error) { return readTranscript(path, ParseTranscript) }

// readTranscript reads the file at path and decodes it with parse.
func readTranscript(path string, parse func([]byte) (Transcript, error)) (Transcript, error) {
	b, err := bounded.ReadFile(path, MaxTranscriptBytes)
	var tooLarge *bounded.TooLargeError
	if errors.As(err, &tooLarge) {
		return Transcript{}, err // it names the file and the limit
	}
	if err != nil {
		return Transcript{}, fmt.Errorf("read transcript: %w", err)
	}
	t, err := parse(b)
	if err != nil {
		return Transcript{}, fmt.Errorf("transcript %s: %w", path, err)
	}
	return t, nil
}

// ParseTranscript decodes a transcript and checks that it names its person
// and holds messages, each with a sender.
func ParseTranscript(b []byte) (Transcript, error) {
	var t Transcript
	if err := json.Unmarshal(b, &t); err != nil {
		return Transcript{}, fmt.Errorf("decode: %w", err)
	}
	return t, t.check()
}

// ReadTranscriptText reads a transcript file for what a persona learns
// from it (see ParseTranscriptText).
func ReadTranscriptText(path string) (Transcript, error) {
	return readTranscript(path, ParseTranscriptText)
}

// ParseTranscriptText decodes what a persona learns from a transcript — its
// person, its users, and each message's sender and text — and checks those
// as ParseTranscript does. It skips the messages' ids, timestamps and tags,
// so it does not refuse a file for their types as ParseTranscript does:
// that halves the time a long transcript takes to decode, which a persona
// loaded at every start pays.
func ParseTranscriptText(b []byte) (Transcript, error) {
	var lean struct {
		Person   string `json:"person"`
		Users    []User `json:"users"`
		Messages []struct {
			From string `json:"from"`
			Text string `json:"text"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(b, &lean); err != nil {
		return Transcript{}, fmt.Errorf("decode: %w", err)
	}
	t := Transcript{Person: lean.Person, Users: lean.Users}
	if lean.Messages != nil {
		t.Messages = make([]Message, len(lean.Messages))
		for i, m := range lean.Messages {
			t.Messages[i] = Message{From: m.From, Text: m.Text}
		}
	}
	return t, t.check()
}

// check reports what a transcript lacks: a person, messages, a sender.
func (t Transcript) check() error {
	if strings.TrimSpace(t.Person) == "" {
		return fmt.Errorf(`"person" (the user id of the person to emulate) is required`)
	}
	if len(t.Messages) == 0 {
		return fmt.Errorf(`"messages" is empty`)
	}
	for i, m := range t.Messages {
		if m.From == "" {
			return fmt.Errorf("messages[%d]: from is required", i)
		}
	}
	return nil
}

// Username returns the person's username, or "" when users does not list them.
func (t Transcript) Username() string {
	for _, u := range t.Users {
		if u.ID == t.Person {
			return u.Username
		}
	}
	return ""
}

// Turns returns the turns to score: every message by the person that
// follows a message by someone else.
func (t Transcript) Turns() []Turn {
	var turns []Turn
	for i := 1; i < len(t.Messages); i++ {
		m, prev := t.Messages[i], t.Messages[i-1]
		if m.From == t.Person && prev.From != t.Person && strings.TrimSpace(m.Text) != "" {
			turns = append(turns, Turn{Index: i, Prompt: prev, Answer: m})
		}
	}
	return turns
}

// Pairs returns what the transcript teaches about the person: a pair for
// every scored turn, and a prompt-less pair for each other message of theirs.
func (t Transcript) Pairs() []Pair {
	return pairsOf(t.Messages, func(m Message) bool { return m.From == t.Person })
}

// pairsOf extracts pairs from msgs, isPerson telling whose messages are the
// person's.
func pairsOf(msgs []Message, isPerson func(Message) bool) []Pair {
	var pairs []Pair
	for i, m := range msgs {
		if !isPerson(m) || strings.TrimSpace(m.Text) == "" {
			continue
		}
		p := Pair{Answer: m.Text}
		if i > 0 && !isPerson(msgs[i-1]) {
			p.Prompt = msgs[i-1].Text
		}
		pairs = append(pairs, p)
	}
	return pairs
}
