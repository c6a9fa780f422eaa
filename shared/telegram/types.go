package telegram

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Update is one incoming update. Only message updates are used; the 2017
// ConvAI server sends update_id 0 for every one, so UpdateID is unique only
// when it is non-zero.
type Update struct {
	UpdateID int64    `json:"update_id"`
	Message  *Message `json:"message,omitempty"`
}

// Message is a message in a chat.
type Message struct {
	MessageID int64 `json:"message_id"`
	// From is absent on the 2017 ConvAI server.
	From *User `json:"from,omitempty"`
	Chat Chat  `json:"chat"`
	// Date is kept raw: Telegram sends a Unix time, the 2017 ConvAI server
	// something else, and no bot behaviour depends on it.
	Date json.RawMessage `json:"date,omitempty"`
	Text string          `json:"text,omitempty"`
}

// Chat is the chat a message belongs to. Its ID is a signed 64-bit integer
// that may be negative.
type Chat struct {
	ID        int64  `json:"id"`
	Type      string `json:"type,omitempty"`
	FirstName string `json:"first_name,omitempty"`
	LastName  string `json:"last_name,omitempty"`
	Username  string `json:"username,omitempty"`
}

// User is a Telegram user or bot.
type User struct {
	ID        int64  `json:"id"`
	IsBot     bool   `json:"is_bot"`
	FirstName string `json:"first_name,omitempty"`
	LastName  string `json:"last_name,omitempty"`
	Username  string `json:"username,omitempty"`
}

// WebhookInfo is the answer of getWebhookInfo.
type WebhookInfo struct {
	URL                  string   `json:"url"`
	HasCustomCertificate bool     `json:"has_custom_certificate"`
	PendingUpdateCount   int      `json:"pending_update_count"`
	IPAddress            string   `json:"ip_address,omitempty"`
	LastErrorDate        int64    `json:"last_error_date,omitempty"`
	LastErrorMessage     string   `json:"last_error_message,omitempty"`
	MaxConnections       int      `json:"max_connections,omitempty"`
	AllowedUpdates       []string `json:"allowed_updates,omitempty"`
}

// APIError is an error answer of the Bot API: {"ok":false,"error_code":N,
// "description":…}, or a non-2xx HTTP status with no such body. Check for it
// with errors.As.
type APIError struct {
	// Code is the error_code, or the HTTP status when the body had none.
	Code        int
	Description string
	// RetryAfter is how long a 429 answer asks to wait (parameters.retry_after
	// or the Retry-After header); zero otherwise.
	RetryAfter time.Duration
}

// Error describes the failure; it never contains the token.
func (e *APIError) Error() string {
	if e.RetryAfter > 0 {
		return fmt.Sprintf("telegram error %d: %s (retry after %s)", e.Code, e.Description, e.RetryAfter)
	}
	return fmt.Sprintf("telegram error %d: %s", e.Code, e.Description)
}

// retryable reports whether the same request may succeed later: 429 and
// 5xx. Every APIError is either retryable or Permanent.
func (e *APIError) retryable() bool { return e.Code == 429 || e.Code >= 500 }

// Permanent reports whether the server refused the request for good: any
// error answer but 429 and 5xx. That is a 4xx ("chat not found", "bot was
// blocked by the user", a ConvAI server's refusal after the chat ended),
// and also {"ok":false} in a 2xx answer without an error_code (Code is
// then the HTTP status): the server read the request and said no, and it
// would say so again. The chat engine drops such a message instead of
// retrying it (see convai.Rejected).
func (e *APIError) Permanent() bool { return !e.retryable() }

// ParseUpdate decodes one webhook update. Fields the servers leave out
// (from, update_id, a Unix date) may be missing; an update that is not JSON
// or carries no message with a chat is an error.
func ParseUpdate(body []byte) (Update, error) {
	var u Update
	if err := json.Unmarshal(body, &u); err != nil {
		return Update{}, fmt.Errorf("parse update: %w", err)
	}
	if u.Message == nil {
		return Update{}, errors.New("parse update: no message")
	}
	// Telegram never uses chat id 0: a zero id means the chat was missing.
	if u.Message.Chat.ID == 0 {
		return Update{}, errors.New("parse update: message has no chat")
	}
	return u, nil
}
