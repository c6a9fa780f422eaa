package telegram

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/duetbot/duet/shared/retry"
)

// envelope is the wrapped answer shape; OK is nil when the answer is bare.
type envelope struct {
	OK          *bool           `json:"ok"`
	Result      json.RawMessage `json:"result"`
	ErrorCode   int             `json:"error_code"`
	Description string          `json:"description"`
	Parameters  struct {
		RetryAfter int `json:"retry_after"`
	} `json:"parameters"`
}

// decodeAnswer accepts {"ok":true,"result":…}, a bare result and
// {"ok":false,…}, whatever the Content-Type.
func decodeAnswer(resp *http.Response, data []byte) (json.RawMessage, error) {
	trimmed := bytes.TrimSpace(data)
	success := resp.StatusCode >= 200 && resp.StatusCode < 300
	var env envelope
	isObject := len(trimmed) > 0 && trimmed[0] == '{' && json.Unmarshal(trimmed, &env) == nil
	switch {
	case isObject && env.OK != nil && *env.OK && success:
		if len(env.Result) == 0 {
			return json.RawMessage("true"), nil
		}
		return env.Result, nil
	case isObject && env.OK != nil && !*env.OK, isObject && !success:
		e := &APIError{Code: env.ErrorCode, Description: env.Description}
		if e.Code == 0 {
			e.Code = resp.StatusCode
		}
		if e.Description == "" {
			e.Description = snippet(trimmed)
		}
		e.RetryAfter = retryAfter(env.Parameters.RetryAfter, resp.Header)
		return nil, e
	case !success:
		return nil, &APIError{Code: resp.StatusCode, Description: snippet(trimmed), RetryAfter: retryAfter(0, resp.Header)}
	case len(trimmed) > 0 && json.Valid(trimmed):
		return json.RawMessage(trimmed), nil // a bare answer (2017 server)
	}
	return nil, fmt.Errorf("answer with status %d is not JSON: %q", resp.StatusCode, snippet(trimmed))
}

// retryAfter is the body's parameters.retry_after when positive, else the
// wait the headers ask for (see retry.After).
func retryAfter(secs int, h http.Header) time.Duration {
	if secs > 0 {
		return time.Duration(secs) * time.Second
	}
	d, _ := retry.After(h, time.Now())
	return d
}

// snippetBytes bounds the part of an answer quoted in an error.
const snippetBytes = 200

// snippet quotes the start of an answer, cut on a character boundary.
func snippet(b []byte) string {
	s := strings.TrimSpace(string(b))
	if s == "" {
		return "(empty answer)"
	}
	if len(s) > snippetBytes {
		n := snippetBytes
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		s = s[:n] + "…"
	}
	return s
}
