// Package convai2 reads dialogue files in the format of the ConvAI2
// (2018) releases — DeepPavlov/convai's 2018/data — and measures how well
// an evaluator's judgments agree with the human labels they carry.
//
// A file is a JSON array of dialogues:
//
//	{"dialog": [{"id", "sender": "participant1"|"participant2", "text",
//	             "evaluation_score"?: 0|1|null, "sender_class"?}],
//	 "bot_profile": [sentences], "user_profile": [sentences],
//	 "eval_score"?: 1..5|null, "profile_match"?: 0|1|"",
//	 "profile_options"?: [[sentences], …]}
//
// Other keys (times, participant ids) are allowed and ignored. Read checks
// every field it uses and names the dialogue and field of the first that
// is wrong; it never skips a dialogue.
package convai2

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/duetbot/duet/shared/bounded"
)

// The two seats of a ConvAI2 dialogue.
const (
	Participant1 = "participant1" // the human in the releases
	Participant2 = "participant2" // the bot being judged
)

// Limits on what Read accepts.
const (
	MaxFileBytes   = 64 << 20 // a whole file (the releases' largest is 2.3 MB)
	MaxMessages    = 10000    // messages in one dialogue
	MaxTextBytes   = 64 << 10 // one message's text
	MaxProfileSent = 64       // sentences in one profile
	MaxOptions     = 32       // candidate profiles of one dialogue
)

// Message is one message of a dialogue.
type Message struct {
	ID     int64  // the release's message id (its position when absent)
	Sender string // Participant1 or Participant2
	Text   string
	// Evaluation is the human's thumbs on this message: 1 good, 0 bad,
	// -1 not labelled.
	Evaluation int
}

// Dialogue is one dialogue of a release.
type Dialogue struct {
	Messages    []Message
	BotProfile  []string // participant2's profile
	UserProfile []string // participant1's profile
	// Score is participant1's 1..5 rating of participant2, 0 when absent.
	Score int
	// ProfileMatch is 1 when participant1 guessed participant2's profile
	// right, 0 when wrong, -1 when absent.
	ProfileMatch int
	// Options are candidate profiles of the partner for the final's
	// guess, as given in the file (nil: none).
	Options [][]string
}

// Profile is the profile of seat: UserProfile for Participant1,
// BotProfile for Participant2.
func (d *Dialogue) Profile(seat string) []string {
	if seat == Participant1 {
		return d.UserProfile
	}
	return d.BotProfile
}

// PartnerProfile is the profile of the participant facing seat.
func (d *Dialogue) PartnerProfile(seat string) []string {
	return d.Profile(Other(seat))
}

// Other is the seat facing seat.
func Other(seat string) string {
	if seat == Participant1 {
		return Participant2
	}
	return Participant1
}

// ValidSeat reports whether seat names a participant.
func ValidSeat(seat string) bool { return seat == Participant1 || seat == Participant2 }

// Read parses a whole dialogue file (at most MaxFileBytes).
func Read(r io.Reader) ([]Dialogue, error) { return read(r, MaxFileBytes) }

func read(r io.Reader, limit int64) ([]Dialogue, error) {
	b, err := bounded.ReadAll(r, "dialogue file", limit)
	if err != nil {
		return nil, err
	}
	return Parse(b)
}

// Parse parses the bytes of a dialogue file.
func Parse(b []byte) ([]Dialogue, error) {
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return nil, fmt.Errorf("a dialogue file is a JSON array of dialogues, not %s", te.Value)
		}
		return nil, fmt.Errorf("not JSON: %v", err)
	}
	if raw == nil && !bytes.Equal(bytes.TrimSpace(b), []byte("[]")) {
		return nil, errors.New("a dialogue file is a JSON array of dialogues, not null")
	}
	out := make([]Dialogue, len(raw))
	for i, m := range raw {
		if err := parseDialogue(m, &out[i]); err != nil {
			return nil, fmt.Errorf("dialogue %d: %w", i, err)
		}
	}
	return out, nil
}

// rawDialogue is a dialogue as the JSON has it; json.RawMessage fields are
// checked by hand so that errors can name them.
type rawDialogue struct {
	Dialog         json.RawMessage `json:"dialog"`
	BotProfile     json.RawMessage `json:"bot_profile"`
	UserProfile    json.RawMessage `json:"user_profile"`
	EvalScore      json.RawMessage `json:"eval_score"`
	ProfileMatch   json.RawMessage `json:"profile_match"`
	ProfileOptions json.RawMessage `json:"profile_options"`
}

type rawMessage struct {
	ID         json.RawMessage `json:"id"`
	Sender     json.RawMessage `json:"sender"`
	Text       json.RawMessage `json:"text"`
	Evaluation json.RawMessage `json:"evaluation_score"`
}

func parseDialogue(b []byte, d *Dialogue) error {
	var r rawDialogue
	if err := json.Unmarshal(b, &r); err != nil {
		// The keys are all json.RawMessage: only a value that is not an
		// object fails here.
		return fmt.Errorf("want a JSON object, got %s", show(b))
	}
	if len(r.Dialog) == 0 {
		return errors.New(`"dialog": missing (want an array of messages)`)
	}
	var dialog []json.RawMessage
	if json.Unmarshal(r.Dialog, &dialog) != nil || isNull(r.Dialog) {
		return fmt.Errorf(`"dialog": want an array of messages, got %s`, show(r.Dialog))
	}
	if len(dialog) > MaxMessages {
		return fmt.Errorf(`"dialog": %d messages, more than %d`, len(dialog), MaxMessages)
	}
	var err error
	if d.BotProfile, err = profile(r.BotProfile, "bot_profile", true); err != nil {
		return err
	}
	if d.UserProfile, err = profile(r.UserProfile, "user_profile", true); err != nil {
		return err
	}
	if d.Score, err = optInt(r.EvalScore, "eval_score", 1, 5, false); err != nil {
		return err
	}
	if d.ProfileMatch, err = optInt(r.ProfileMatch, "profile_match", 0, 1, true); err != nil {
		return err
	}
	if d.ProfileMatch == 0 && isAbsent(r.ProfileMatch, true) {
		d.ProfileMatch = -1
	}
	if len(r.ProfileOptions) > 0 && !isNull(r.ProfileOptions) {
		var opts []json.RawMessage
		if json.Unmarshal(r.ProfileOptions, &opts) != nil {
			return errors.New(`"profile_options": want an array of profiles (arrays of sentences)`)
		}
		if len(opts) == 0 || len(opts) > MaxOptions {
			return fmt.Errorf(`"profile_options": %d profiles, want 1..%d`, len(opts), MaxOptions)
		}
		d.Options = make([][]string, len(opts))
		for k, o := range opts {
			if d.Options[k], err = profile(o, fmt.Sprintf("profile_options[%d]", k), false); err != nil {
				return err
			}
		}
	}
	d.Messages = make([]Message, len(dialog))
	for j, m := range dialog {
		if err := parseMessage(m, int64(j), &d.Messages[j]); err != nil {
			return fmt.Errorf(`"dialog"[%d]: %w`, j, err)
		}
	}
	return nil
}

func parseMessage(b []byte, pos int64, m *Message) error {
	var r rawMessage
	if err := json.Unmarshal(b, &r); err != nil {
		return fmt.Errorf("want a JSON object, got %s", show(b))
	}
	if json.Unmarshal(r.Sender, &m.Sender) != nil || !ValidSeat(m.Sender) {
		return fmt.Errorf(`"sender": want "participant1" or "participant2", got %s`, show(r.Sender))
	}
	if json.Unmarshal(r.Text, &m.Text) != nil || isNull(r.Text) {
		return fmt.Errorf(`"text": want a string, got %s`, show(r.Text))
	}
	if len(m.Text) > MaxTextBytes {
		return fmt.Errorf(`"text": %d bytes, more than %d`, len(m.Text), MaxTextBytes)
	}
	m.ID = pos
	if len(r.ID) > 0 && !isNull(r.ID) {
		var f float64
		if json.Unmarshal(r.ID, &f) != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
			return fmt.Errorf(`"id": want an integer, got %s`, show(r.ID))
		}
		m.ID = int64(f)
	}
	ev, err := optInt(r.Evaluation, "evaluation_score", 0, 1, false)
	if err != nil {
		return err
	}
	m.Evaluation = ev
	if isAbsent(r.Evaluation, false) {
		m.Evaluation = -1
	}
	return nil
}

// profile reads an array of sentences; absent or null is nil when
// optional.
func profile(b json.RawMessage, field string, optional bool) ([]string, error) {
	if len(b) == 0 || isNull(b) {
		if optional {
			return nil, nil
		}
		return nil, fmt.Errorf("%q: missing", field)
	}
	var p []string
	if json.Unmarshal(b, &p) != nil {
		return nil, fmt.Errorf("%q: want an array of sentences, got %s", field, show(b))
	}
	if len(p) > MaxProfileSent {
		return nil, fmt.Errorf("%q: %d sentences, more than %d", field, len(p), MaxProfileSent)
	}
	return p, nil
}

// optInt reads an integer in lo..hi; absent or null (and "" when
// emptyOK) is 0.
func optInt(b json.RawMessage, field string, lo, hi int, emptyOK bool) (int, error) {
	if isAbsent(b, emptyOK) {
		return 0, nil
	}
	var f float64
	if json.Unmarshal(b, &f) != nil || f != math.Trunc(f) || f < float64(lo) || f > float64(hi) {
		return 0, fmt.Errorf("%q: want an integer %d..%d or null, got %s", field, lo, hi, show(b))
	}
	return int(f), nil
}

func isAbsent(b json.RawMessage, emptyOK bool) bool {
	return len(b) == 0 || isNull(b) || (emptyOK && string(b) == `""`)
}

func isNull(b json.RawMessage) bool { return string(b) == "null" }

// show quotes a JSON value for an error message, shortened.
func show(b json.RawMessage) string {
	if len(b) == 0 {
		return "nothing"
	}
	s := string(b)
	if len(s) > 40 {
		s = s[:37] + "…"
	}
	return strings.ToValidUTF8(s, "?")
}
