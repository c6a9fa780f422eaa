package convai2

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/duetbot/duet/shared/brain"
)

// TimeLayout is how the releases write start_time and end_time (UTC).
const TimeLayout = "2006-01-02 15:04:05"

// Record is one dialogue as the releases write it, for the writers of
// Duet's own transcripts (duet chat -save). Duet's ratings and finals sit
// under keys of their own (duet_*), which Read ignores; the release's
// human labels (eval_score, evaluation_score, profile_match) stay null or
// empty, since no judge gave them.
type Record struct {
	Dialog         []RecordMessage `json:"dialog"`
	StartTime      string          `json:"start_time"`
	EndTime        string          `json:"end_time"`
	BotProfile     []string        `json:"bot_profile"`
	UserProfile    []string        `json:"user_profile"`
	EvalScore      *int            `json:"eval_score"`
	ProfileMatch   string          `json:"profile_match"`
	ProfileOptions [][]string      `json:"profile_options,omitempty"`
	Participant1ID Participant     `json:"participant1_id"`
	Participant2ID Participant     `json:"participant2_id"`
	// DuetChatID is the chat's id on the Bot API.
	DuetChatID int64 `json:"duet_chat_id"`
	// DuetContext is the context the chat opened with (/start <context>),
	// which the release format has no key for.
	DuetContext string `json:"duet_context,omitempty"`
	// DuetDialect is the server the chat was held with.
	DuetDialect string `json:"duet_dialect,omitempty"`
	// DuetFinal is the bot's final evaluation of its partner, nil when it
	// sent none.
	DuetFinal *brain.Scores `json:"duet_final"`
}

// Participant is a participant's id in a release.
type Participant struct {
	Class  string `json:"class"` // "User" or "Bot"
	UserID string `json:"user_id"`
}

// RecordMessage is one message of a Record.
type RecordMessage struct {
	ID              int64  `json:"id"`
	Sender          string `json:"sender"`
	Text            string `json:"text"`
	EvaluationScore *int   `json:"evaluation_score"`
	SenderClass     string `json:"sender_class"` // "Human" or "Bot"
	// DuetRating is the bot's rating (1..10) of this partner message, as
	// its reply carried it; absent on the bot's own messages.
	DuetRating *int `json:"duet_rating,omitempty"`
}

// WriteRecords writes records as a release file: a JSON array, indented.
func WriteRecords(w io.Writer, records []Record) error {
	if records == nil {
		records = []Record{}
	}
	b, err := json.MarshalIndent(records, "", " ")
	if err != nil {
		return fmt.Errorf("encode dialogues: %w", err)
	}
	if _, err := w.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("write dialogues: %w", err)
	}
	return nil
}
