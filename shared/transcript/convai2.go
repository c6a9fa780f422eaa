package transcript

import (
	"encoding/json"
	"io"
	"strings"

	"github.com/duetbot/duet/shared/convai2"
)

// Dialogue is one session in the ConvAI2 release format (see package
// convai2): the partner is participant1 (the human's seat in the
// releases), Duet participant2 (the bot's), and the context's lines are the
// bot's profile. Duet's own judgments are under keys that start with
// "duet_", which readers of the releases ignore: each partner message's
// rating, the final, the state.
type Dialogue struct {
	Dialog         []DialogMessage `json:"dialog"`
	StartTime      string          `json:"start_time"`
	EndTime        string          `json:"end_time"`
	BotProfile     []string        `json:"bot_profile"`
	UserProfile    []string        `json:"user_profile"`
	Participant1ID Participant     `json:"participant1_id"`
	Participant2ID Participant     `json:"participant2_id"`
	// ProfileOptions are Chat.Options, which duet rate reads for the
	// profile guess.
	ProfileOptions [][]string `json:"profile_options,omitempty"`

	DuetChat       string       `json:"duet_chat"`
	DuetState      State        `json:"duet_state"`
	DuetContext    string       `json:"duet_context"`
	DuetMeanRating *float64     `json:"duet_mean_rating"`
	DuetFinal      *ExportFinal `json:"duet_final"`
	// DuetFinalDelivered is false when the final was not sent (yet).
	DuetFinalDelivered *bool `json:"duet_final_delivered,omitempty"`
}

// DialogMessage is one message of a Dialogue.
type DialogMessage struct {
	ID          int    `json:"id"`
	Sender      string `json:"sender"`
	Text        string `json:"text"`
	SenderClass string `json:"sender_class"`
	// EvaluationScore is the human's thumbs in the releases; Duet's chats
	// have none.
	EvaluationScore *int `json:"evaluation_score"`
	// DuetRating is the bot's evaluation, 1..10, of this partner message.
	DuetRating int `json:"duet_rating,omitempty"`
	// DuetDelivered is false on a bot message that was not sent (yet).
	DuetDelivered *bool  `json:"duet_delivered,omitempty"`
	DuetTime      string `json:"duet_time"`
}

// Participant names a seat's occupant, as the releases do.
type Participant struct {
	Class  string `json:"class"`
	UserID string `json:"user_id"`
}

// ExportFinal is the bot's final evaluation, with the protocol's names.
type ExportFinal struct {
	Quality    int  `json:"quality"`
	Breadth    int  `json:"breadth"`
	Engagement int  `json:"engagement"`
	Score      int  `json:"score,omitempty"`
	ProfileIdx *int `json:"profile_idx,omitempty"`
}

// ConvAI2 returns chats in the ConvAI2 release format.
func ConvAI2(chats []Chat) []Dialogue {
	out := make([]Dialogue, 0, len(chats))
	for i := range chats {
		out = append(out, dialogue(&chats[i]))
	}
	return out
}

func dialogue(c *Chat) Dialogue {
	d := Dialogue{
		Dialog:         []DialogMessage{},
		StartTime:      showTime(c.Started),
		EndTime:        showTime(c.Last),
		BotProfile:     profileLines(c.Context),
		UserProfile:    []string{},
		Participant1ID: Participant{Class: "User", UserID: "chat " + c.ID()},
		Participant2ID: Participant{Class: "Bot", UserID: "duet"},
		DuetChat:       c.ID(),
		DuetState:      c.State,
		DuetContext:    c.Context,
		ProfileOptions: c.Options,
	}
	if m, ok := c.MeanRating(); ok {
		d.DuetMeanRating = &m
	}
	add := func(m DialogMessage) {
		m.ID = len(d.Dialog)
		d.Dialog = append(d.Dialog, m)
	}
	for _, t := range c.Turns {
		at := t.At.UTC().Format("2006-01-02T15:04:05.000Z")
		if t.Partner != "" {
			add(DialogMessage{Sender: convai2.Participant1, SenderClass: "Human", Text: t.Partner, DuetRating: t.Rating, DuetTime: at})
		}
		if t.Bot != "" {
			m := DialogMessage{Sender: convai2.Participant2, SenderClass: "Bot", Text: t.Bot, DuetTime: at}
			if !t.Delivered {
				m.DuetDelivered = new(bool)
			}
			add(m)
		}
		if t.Final != nil {
			f := t.Final
			d.DuetFinal = &ExportFinal{Quality: f.Quality, Breadth: f.Breadth, Engagement: f.Engagement, Score: f.Score, ProfileIdx: f.Profile}
			if !t.FinalDelivered {
				d.DuetFinalDelivered = new(bool)
			}
		}
	}
	return d
}

// profileLines splits a context into the sentences of a profile, one a
// line, at most as many as a release's profile may have (the whole
// context is under duet_context).
func profileLines(context string) []string {
	var lines []string
	for _, l := range strings.Split(context, "\n") {
		if l = strings.TrimSpace(l); l != "" && len(lines) < convai2.MaxProfileSent {
			lines = append(lines, l)
		}
	}
	if lines == nil {
		lines = []string{}
	}
	return lines
}

// WriteConvAI2 writes chats as a ConvAI2 release file: a JSON array of
// dialogues, indented.
func WriteConvAI2(w io.Writer, chats []Chat) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(ConvAI2(chats))
}
