// Package brain is the seam between the bots and whatever writes their
// words: a Replier composes the next message and an Evaluator rates the
// partner. The offline back end (package brain/offline) is deterministic and
// needs no network; model back ends plug in behind the same interfaces
// without the chat engines noticing.
package brain

import "context"

// Role says who wrote a turn.
type Role string

// The two sides of a dialogue.
const (
	Partner Role = "partner" // the human or bot the Duet bot talks to
	Bot     Role = "bot"     // the Duet bot itself (or, for the annex bot, the person it emulates)
)

// Turn is one message of a dialogue.
type Turn struct {
	Role Role   `json:"role" dynamodbav:"role"`
	Text string `json:"text" dynamodbav:"text"`
}

// Example is one (prompt → answer) pair of the emulated person, with how
// similar its prompt is to the message being answered (0..1, higher is closer).
type Example struct {
	Prompt     string
	Answer     string
	Similarity float64
}

// Persona describes the person the annex bot answers as.
type Persona struct {
	Name string
	// Examples are the person's pairs most similar to the message being
	// answered, best first.
	Examples []Example
	// Samples are other messages the person wrote, for their manner: typical
	// length, phrases and vocabulary.
	Samples []string
}

// Request is everything a back end may use to reply or evaluate.
type Request struct {
	// Context is the ConvAI context text (the text after /start), or for
	// the annex bot the channel's earlier messages flattened to text.
	Context string
	// Turns is the dialogue so far, oldest first. When the last turn is the
	// partner's, that is the message to answer or rate; when Turns is empty
	// the bot speaks first, about Context.
	Turns []Turn
	// Omitted counts the partner's messages of the chat older than Turns:
	// an engine shows a brain only the newest turns of a long chat
	// (convai.Window), so a brain that keeps track of what it has told
	// knows that it may have told more.
	Omitted int
	// Persona is set when the reply must be in a named person's voice.
	Persona *Persona
	// Closing says the bot ends the chat right after this reply (the
	// partner said goodbye, or the chat reached its turn limit), so the
	// reply should take leave rather than ask something.
	Closing bool
	// Judge is the server's evaluation request when the chat ends with one
	// (the 2018 router's "/end 1 5\n/profile_0\n…"); nil otherwise. Only
	// Evaluator.Final reads it.
	Judge *Judge
}

// Judge is what a ConvAI2 server asks of the final evaluation: a whole-chat
// score in Min..Max and a guess of which of Profiles the partner played.
type Judge struct {
	Min, Max int
	// Profiles are the candidate profiles of the partner, each a list of
	// sentences, in the server's order (profile_0, profile_1, …).
	Profiles [][]string
}

// LastPartner returns the text of the last partner turn and whether there is one.
func (r Request) LastPartner() (string, bool) {
	for i := len(r.Turns) - 1; i >= 0; i-- {
		if r.Turns[i].Role == Partner {
			return r.Turns[i].Text, true
		}
	}
	return "", false
}

// Replier writes the bot's next message. It must never return an empty
// string without an error.
type Replier interface {
	Reply(ctx context.Context, req Request) (string, error)
}

// Ender is a Replier that may decide the chat is over (a ClariQ system
// with nothing useful left to ask). The ConvAI engine calls ReplyEnd instead
// of Reply when a Replier implements it; when end is true, text is sent as
// the bot's closing line and the engine then ends the chat with its final
// evaluation.
type Ender interface {
	ReplyEnd(ctx context.Context, req Request) (text string, end bool, err error)
}

// Scores are the whole-chat scores of the ConvAI protocol: the 2017
// server's three, each 1..10, and the 2018 router's score (in the Judge's
// range, 1..5 when none was asked) and profile guess.
type Scores struct {
	Quality    int `json:"quality"`
	Breadth    int `json:"breadth"`
	Engagement int `json:"engagement"`
	// Score rates the whole dialogue in Judge.Min..Judge.Max; 0 means the
	// evaluator gave none.
	Score int `json:"score,omitempty"`
	// Profile is the index in Judge.Profiles of the partner's profile;
	// nil when there were no candidates or the evaluator made no guess.
	Profile *int `json:"profile_idx,omitempty"`
}

// Evaluator rates the partner of a ConvAI chat.
type Evaluator interface {
	// Rate scores the last partner turn of req, 1 (very bad) to 10 (very good).
	Rate(ctx context.Context, req Request) (int, error)
	// Final scores the whole chat in req.
	Final(ctx context.Context, req Request) (Scores, error)
}

// Clamp returns n limited to the protocol's 1..10 range.
func Clamp(n int) int {
	return min(max(n, 1), 10)
}
