package telegram

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Incoming is what a chat engine needs of a webhook update: its id, the
// chat and the text of its message.
type Incoming struct {
	UpdateID int64
	ChatID   int64
	Text     string
}

// ParseIncoming decodes a webhook update as ParseUpdate does, keeping only
// the update id, the chat id and the text; it accepts and refuses exactly
// what ParseUpdate does. It is the webhook's hot path: an update of the
// usual shape (the keys spelt as Telegram spells them, each once, integer
// ids, a text without escapes) is read in place, with no allocation, and
// its Text shares body's memory. Any other valid update goes through
// ParseUpdate.
func ParseIncoming(body string) (Incoming, error) {
	if in, ok := scanIncoming(body); ok {
		return in, nil
	}
	u, err := ParseUpdate([]byte(body))
	if err != nil {
		return Incoming{}, err
	}
	return Incoming{UpdateID: u.UpdateID, ChatID: u.Message.Chat.ID, Text: u.Message.Text}, nil
}

// scanIncoming reads an update of the usual shape; ok is false for
// anything else (invalid JSON included), which ParseUpdate then decides.
// Since the body is valid JSON, values it does not want are skipped by
// matching brackets and quotes only; those of Update's other fields are
// checked to be of a type ParseUpdate would accept.
func scanIncoming(body string) (in Incoming, ok bool) {
	if !json.Valid([]byte(body)) {
		return Incoming{}, false
	}
	var haveMessage, haveChat bool
	ok = eachMember(body, func(key, val string) bool {
		switch {
		case key == "update_id":
			id, ok := plainInt(val)
			in.UpdateID = id
			return ok
		case key == "message":
			haveMessage = true
			return strings.HasPrefix(val, "{") && eachMember(val, func(key, val string) bool {
				switch {
				case key == "text":
					text, ok := plainString(val)
					in.Text = text
					return ok
				case key == "chat":
					haveChat = true
					return strings.HasPrefix(val, "{") && eachMember(val, func(key, val string) bool {
						if key == "id" {
							id, ok := plainInt(val)
							in.ChatID = id
							return ok
						}
						return fits(chatFields, key, val)
					})
				case strings.EqualFold(key, "from"):
					return val == "null" || strings.HasPrefix(val, "{") && eachMember(val, func(key, val string) bool {
						return fits(userFields, key, val)
					})
				}
				return fits(messageFields, key, val)
			})
		}
		return fits(updateFields, key, val)
	})
	// A missing chat or chat id 0 is ParseUpdate's to refuse.
	return in, ok && haveMessage && haveChat && in.ChatID != 0
}

// A field is one of the fields ParseUpdate decodes, with a check that a
// raw JSON value decodes into it without error.
type field struct {
	name string
	fits func(val string) bool
}

// The fields of Update, Message, Chat and User that scanIncoming does not
// read itself. A key that matches one of its object's wanted fields (the
// update id, the message, its chat and text, the chat's id) only in
// another case is refused: encoding/json would read it, scanIncoming
// leaves it to ParseUpdate.
var (
	updateFields  = []field{{"update_id", never}, {"message", never}}
	messageFields = []field{{"message_id", isInt}, {"chat", never}, {"text", never}, {"date", isAny}}
	chatFields    = []field{{"id", never}, {"type", isString}, {"first_name", isString}, {"last_name", isString}, {"username", isString}}
	userFields    = []field{{"id", isInt}, {"is_bot", isBool}, {"first_name", isString}, {"last_name", isString}, {"username", isString}}
)

// fits reports whether val may be the value of key in an object with
// fields: true for a key that is none of them (encoding/json skips it).
func fits(fields []field, key, val string) bool {
	for _, f := range fields {
		if strings.EqualFold(f.name, key) {
			return f.fits(val)
		}
	}
	return true
}

func never(string) bool      { return false }
func isAny(string) bool      { return true }
func isString(v string) bool { return v == "null" || v[0] == '"' }
func isBool(v string) bool   { return v == "null" || v == "true" || v == "false" }
func isInt(v string) bool {
	_, ok := plainInt(v)
	return v == "null" || ok
}

// eachMember calls fn with each key (unquoted, without escapes) and raw
// value of the JSON object obj, which must be valid. It returns false as
// soon as fn does, or when a key repeats one seen before (encoding/json
// would merge or overwrite), has an escape, or obj is not an object.
func eachMember(obj string, fn func(key, val string) bool) bool {
	i := skipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return false
	}
	var seen [16]string
	n := 0
	for i = skipSpace(obj, i+1); i < len(obj) && obj[i] != '}'; {
		end := skipValue(obj, i) // the key
		key := obj[i+1 : end-1]
		if strings.IndexByte(key, '\\') >= 0 {
			return false
		}
		for _, k := range seen[:n] {
			if strings.EqualFold(k, key) {
				return false
			}
		}
		if n == len(seen) {
			return false // an unusual update: leave it to ParseUpdate
		}
		seen[n], n = key, n+1
		i = skipSpace(obj, end)
		i = skipSpace(obj, i+1) // past ':'
		end = skipValue(obj, i)
		if !fn(key, obj[i:end]) {
			return false
		}
		if i = skipSpace(obj, end); i < len(obj) && obj[i] == ',' {
			i = skipSpace(obj, i+1)
		}
	}
	return true
}

// skipValue returns the index just after the valid JSON value at s[i].
func skipValue(s string, i int) int {
	switch s[i] {
	case '"':
		for i++; s[i] != '"'; i++ {
			if s[i] == '\\' {
				i++
			}
		}
		return i + 1
	case '{', '[':
		depth := 0
		for ; ; i++ {
			switch s[i] {
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			case '"':
				i = skipValue(s, i) - 1
			}
		}
	}
	for i < len(s) && !strings.ContainsRune(",}] \t\r\n", rune(s[i])) {
		i++
	}
	return i
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n') {
		i++
	}
	return i
}

// plainInt reads a JSON integer that fits int64 (no fraction, exponent or
// null, which ParseUpdate treats in ways of its own).
func plainInt(v string) (int64, bool) {
	n, err := strconv.ParseInt(v, 10, 64)
	return n, err == nil
}

// plainString reads a JSON string with no escapes, of valid UTF-8.
func plainString(v string) (string, bool) {
	if len(v) < 2 || v[0] != '"' {
		return "", false
	}
	s := v[1 : len(v)-1]
	return s, strings.IndexByte(s, '\\') < 0 && utf8.ValidString(s)
}
