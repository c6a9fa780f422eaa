package annex

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/duetbot/duet/shared/duet"
)

// BotFrom is the from of the bot's own messages.
const BotFrom = "BOT"

// Message is one chat message. Timestamp is kept as sent (ISO-8601).
type Message struct {
	From      string   `json:"from" dynamodbav:"from"`
	Tagged    []string `json:"tagged,omitempty" dynamodbav:"tagged,omitempty"`
	ID        string   `json:"id" dynamodbav:"id"`
	Text      string   `json:"text" dynamodbav:"text"`
	Timestamp string   `json:"timestamp" dynamodbav:"timestamp"`
}

// Conversation is one earlier exchange with the bot: the tagged or reply
// messages of the channel plus the bot's replies.
type Conversation struct {
	ID       string    `json:"id"`
	Messages []Message `json:"messages"`
}

// User is a chat member.
type User struct {
	ID       string `json:"id"`
	Username string `json:"username"`
}

// Conversations is the conversation field. The document describes it both
// as [Conversation] and as a flat [Message]; both decode, a run of flat
// messages becoming one Conversation without an id.
type Conversations []Conversation

// UnmarshalJSON accepts [Conversation], [Message], a mix of both, and null.
func (cs *Conversations) UnmarshalJSON(b []byte) error {
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		*cs = nil
		return nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(b, &items); err != nil {
		return fieldError("conversation", "must be an array of conversations or of messages")
	}
	var out Conversations
	var flat *Conversation
	for i, raw := range items {
		var probe map[string]json.RawMessage
		if err := json.Unmarshal(raw, &probe); err != nil {
			return fieldError(fmt.Sprintf("conversation[%d]", i), "must be an object")
		}
		if _, ok := probe["messages"]; ok {
			var c Conversation
			if err := json.Unmarshal(raw, &c); err != nil {
				return typeError(fmt.Sprintf("conversation[%d]", i), err)
			}
			out = append(out, c)
			flat = nil
			continue
		}
		var m Message
		if err := json.Unmarshal(raw, &m); err != nil {
			return typeError(fmt.Sprintf("conversation[%d]", i), err)
		}
		if flat == nil {
			out = append(out, Conversation{})
			flat = &out[len(out)-1]
		}
		flat.Messages = append(flat.Messages, m)
	}
	*cs = out
	return nil
}

// Request is the body the platform POSTs to the bot.
type Request struct {
	Context      []Message     `json:"context"`
	Conversation Conversations `json:"conversation,omitempty"`
	Message      Message       `json:"message"`
	Users        []User        `json:"users,omitempty"`
}

// Response is the bot's answer.
type Response struct {
	Message string `json:"message"`
}

// ParseRequest decodes and validates a request body. Its errors are
// duet.EINVALID errors whose messages name the offending field. Unknown
// fields are ignored; context, conversation and users may be absent.
func ParseRequest(body []byte) (Request, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(body, &top); err != nil || top == nil {
		return Request{}, duet.Errorf(duet.EINVALID, "request body must be a JSON object")
	}
	raw, ok := top["message"]
	if !ok || isNull(raw) {
		return Request{}, fieldError("message", "is required")
	}
	var msg map[string]json.RawMessage
	if err := json.Unmarshal(raw, &msg); err != nil {
		return Request{}, fieldError("message", "must be an object")
	}
	if t, ok := msg["text"]; !ok || !isString(t) {
		return Request{}, fieldError("message.text", "must be a string")
	}
	if c, ok := top["context"]; ok && !isNull(c) && !isArray(c) {
		return Request{}, fieldError("context", "must be an array of messages")
	}
	var req Request
	if err := json.Unmarshal(body, &req); err != nil {
		return Request{}, typeError("", err)
	}
	return req, nil
}

// Size limits of request fields. A DynamoDB item holds at most 400 KB and
// a sort key 1024 bytes, and the exchange item holds message and reply, its
// key the message's timestamp and id: the limits keep every exchange
// recordable, so an oversized field is the caller's error (400), never a
// failed write (503).
const (
	// MaxTextBytes bounds message.text.
	MaxTextBytes = 32 << 10
	// MaxIDBytes bounds ids, senders, timestamps, tagged ids and
	// conversation ids.
	MaxIDBytes = 256
	// MaxTagged bounds how many users one message tags.
	MaxTagged = 100
)

// Validate reports the first thing wrong with r: an empty-but-present
// request is fine, but every message must have a from, the message must
// have text, and no field may exceed its size limit (the document's
// required fields id and timestamp may be missing: the bot copes).
func (r Request) Validate() error {
	if strings.TrimSpace(r.Message.Text) == "" {
		return fieldError("message.text", "is empty")
	}
	if len(r.Message.Text) > MaxTextBytes {
		return fieldError("message.text", fmt.Sprintf("is longer than %d bytes", MaxTextBytes))
	}
	if err := checkMessage("message", r.Message); err != nil {
		return err
	}
	for i, m := range r.Context {
		if err := checkMessage(fmt.Sprintf("context[%d]", i), m); err != nil {
			return err
		}
	}
	for i, c := range r.Conversation {
		if err := checkSize(fmt.Sprintf("conversation[%d].id", i), c.ID); err != nil {
			return err
		}
		for j, m := range c.Messages {
			if err := checkMessage(fmt.Sprintf("conversation[%d].messages[%d]", i, j), m); err != nil {
				return err
			}
		}
	}
	for i, u := range r.Users {
		if err := checkSize(fmt.Sprintf("users[%d].id", i), u.ID); err != nil {
			return err
		}
		if err := checkSize(fmt.Sprintf("users[%d].username", i), u.Username); err != nil {
			return err
		}
	}
	return nil
}

// checkMessage checks the from and the sizes of m's short fields.
func checkMessage(field string, m Message) error {
	if strings.TrimSpace(m.From) == "" {
		return fieldError(field+".from", "is required")
	}
	for _, f := range []struct{ name, value string }{{"from", m.From}, {"id", m.ID}, {"timestamp", m.Timestamp}} {
		if err := checkSize(field+"."+f.name, f.value); err != nil {
			return err
		}
	}
	if len(m.Tagged) > MaxTagged {
		return fieldError(field+".tagged", fmt.Sprintf("has more than %d ids", MaxTagged))
	}
	for i, id := range m.Tagged {
		if err := checkSize(fmt.Sprintf("%s.tagged[%d]", field, i), id); err != nil {
			return err
		}
	}
	return nil
}

func checkSize(field, value string) error {
	if len(value) > MaxIDBytes {
		return fieldError(field, fmt.Sprintf("is longer than %d bytes", MaxIDBytes))
	}
	return nil
}

func fieldError(field, problem string) error {
	return duet.Errorf(duet.EINVALID, "%s %s", field, problem)
}

// typeError turns a json type mismatch into a message naming the field.
func typeError(prefix string, err error) error {
	// An error of Conversations.UnmarshalJSON already names its field in
	// full ("conversation[0].messages.from"); the type error it wraps
	// does not.
	var de *duet.Error
	if errors.As(err, &de) {
		return err
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		field := te.Field
		if prefix != "" {
			field = prefix + "." + field
		}
		return duet.Wrap(duet.EINVALID, err, "%s must be %s", field, jsonKind(te.Type.Kind().String()))
	}
	if prefix != "" {
		return duet.Wrap(duet.EINVALID, err, "%s is malformed", prefix)
	}
	return duet.Wrap(duet.EINVALID, err, "request body is malformed")
}

// jsonKind names the JSON type a Go kind decodes from, with its article.
func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "slice", "array":
		return "an array"
	case "struct", "map":
		return "an object"
	case "bool":
		return "a boolean"
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "float32", "float64":
		return "a number"
	}
	return "a " + goKind
}

func isNull(raw json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(raw), []byte("null")) }

func first(raw json.RawMessage) byte {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return 0
	}
	return t[0]
}

func isString(raw json.RawMessage) bool { return first(raw) == '"' }
func isArray(raw json.RawMessage) bool  { return first(raw) == '[' }
