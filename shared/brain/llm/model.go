package llm

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Roles of a Message.
const (
	RoleUser      = "user"      // the partner, or a stage direction to the model
	RoleAssistant = "assistant" // the model, speaking as the bot
)

// Message is one turn of a model conversation.
type Message struct {
	Role    string // RoleUser or RoleAssistant
	Content string
}

// ChatRequest is one call to a chat model. Messages alternate roles,
// starting and ending with RoleUser (see Normalize).
type ChatRequest struct {
	System      string
	Messages    []Message
	MaxTokens   int
	Temperature float64
	// JSON asks for a JSON object as the answer; back ends that can, enforce
	// it (OpenAI's response_format json_object). The answer is validated
	// either way.
	JSON bool
}

// ChatResponse is a model's answer.
type ChatResponse struct {
	Text         string
	InputTokens  int
	OutputTokens int
	// StopReason is the back end's own word for why the model stopped
	// ("stop", "length", "end_turn", "max_tokens"…), for the logs.
	StopReason string
}

// Model is a chat model behind some API.
type Model interface {
	Chat(ctx context.Context, req ChatRequest) (ChatResponse, error)
}

// ErrRefused is returned (wrapped) by back ends when the model declined to
// answer or a content filter or guardrail stopped it.
var ErrRefused = errors.New("the model refused to answer")

// Error is an error answer of a model API, classified for the retry logic.
type Error struct {
	Status int    // HTTP status, 0 when unknown
	Code   string // the API's error code or exception name, e.g. "ThrottlingException"
	// Throttled says the request was rejected for rate or concurrency and
	// may succeed when retried after RetryAfter (0: the API did not say).
	Throttled  bool
	RetryAfter time.Duration
	Err        error // the client library's error
}

func (e *Error) Error() string {
	switch {
	case e.Code != "" && e.Status != 0:
		return fmt.Sprintf("model API: %d %s: %v", e.Status, e.Code, e.Err)
	case e.Status != 0:
		return fmt.Sprintf("model API: %d: %v", e.Status, e.Err)
	}
	return fmt.Sprintf("model API: %v", e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// IsThrottle reports whether err says the API throttled the request.
func IsThrottle(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Throttled
}

// RetryAfter returns how long a throttled err asked to wait; 0 when it did not say.
func RetryAfter(err error) time.Duration {
	var e *Error
	if errors.As(err, &e) {
		return e.RetryAfter
	}
	return 0
}

// Normalize returns msgs in the shape every chat API accepts: no empty
// messages, roles alternating (consecutive turns of one role joined by a
// newline), starting and ending with RoleUser. start is the user message put
// first when msgs would start with the assistant or be empty; next is put
// last when they would end with the assistant.
func Normalize(msgs []Message, start, next string) []Message {
	var out []Message
	for _, m := range msgs {
		if m.Content == "" {
			continue
		}
		if n := len(out); n > 0 && out[n-1].Role == m.Role {
			out[n-1].Content += "\n" + m.Content
			continue
		}
		out = append(out, m)
	}
	if len(out) == 0 || out[0].Role != RoleUser {
		out = append([]Message{{Role: RoleUser, Content: start}}, out...)
	}
	if out[len(out)-1].Role != RoleUser {
		out = append(out, Message{Role: RoleUser, Content: next})
	}
	return out
}
