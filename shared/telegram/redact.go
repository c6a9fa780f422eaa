package telegram

import (
	"errors"
	"net/url"
	"strings"
)

// redactMark replaces the token in text meant for logs and errors.
const redactMark = "<token>"

// minSubstringRedact is the shortest token masked wherever it occurs, even
// inside a longer word. A shorter one ("t", "local", a test token) is
// masked only where it stands alone: masking every "t" of a log line would
// hide the line and reveal the token anyway.
const minSubstringRedact = 8

// redactToken masks token in s: its raw, url.PathEscape'd and
// url.QueryEscape'd forms. Tokens of at least minSubstringRedact bytes are
// masked wherever they occur; shorter ones only as whole tokens, bounded by
// bytes that cannot be part of a token, or as "bot<token>" (the Bot API's
// URL path segment).
func redactToken(s, token string) string {
	if token == "" {
		return s
	}
	forms := []string{token}
	for _, f := range []string{url.PathEscape(token), url.QueryEscape(token)} {
		if f != forms[0] && (len(forms) == 1 || f != forms[1]) {
			forms = append(forms, f)
		}
	}
	for _, f := range forms {
		if len(f) >= minSubstringRedact {
			s = strings.ReplaceAll(s, f, redactMark)
			continue
		}
		s = replaceWhole(s, f)
	}
	return s
}

// replaceWhole masks the occurrences of f in s that are whole tokens, or
// whole tokens but for a "bot" prefix.
func replaceWhole(s, f string) string {
	var b strings.Builder
	i := 0
	for {
		j := strings.Index(s[i:], f)
		if j < 0 {
			break
		}
		start, end := i+j, i+j+len(f)
		before := start
		if before >= 3 && s[before-3:before] == "bot" {
			before -= 3
		}
		whole := (start == 0 || !isTokenByte(s[start-1]) || (before < start && (before == 0 || !isTokenByte(s[before-1])))) &&
			(end == len(s) || !isTokenByte(s[end]))
		if !whole {
			b.WriteString(s[i : start+1])
			i = start + 1
			continue
		}
		b.WriteString(s[i:start])
		b.WriteString(redactMark)
		i = end
	}
	if i == 0 {
		return s
	}
	b.WriteString(s[i:])
	return b.String()
}

// isTokenByte reports whether c may be part of a bot token or of its
// escaped forms: letters, digits, '_', '-', ':' and '%'.
func isTokenByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '_' || c == '-' || c == ':' || c == '%'
}

// redact drops the URL (which holds the token) from network errors and
// masks the token in whatever text is left.
func (c *Client) redact(err error) error {
	var uerr *url.Error
	if errors.As(err, &uerr) {
		err = uerr.Err
	}
	return &redactedError{err: err, token: c.token}
}

// redactedError hides the token in the text of the error it wraps.
type redactedError struct {
	err   error
	token string
}

func (e *redactedError) Error() string {
	return redactToken(e.err.Error(), e.token)
}

func (e *redactedError) Unwrap() error { return e.err }
