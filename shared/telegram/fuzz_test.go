package telegram

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/duetbot/duet/shared/convai"
)

// fuzzToken is the bot token of the fuzzed clients: no error may show it.
const fuzzToken = "4242:fuzz-secret-token"

// roundTripFunc is an http.RoundTripper made of a function.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// cannedClient returns a client whose every call gets the same answer,
// without a network, and is tried once.
func cannedClient(t testing.TB, status int, contentType string, body []byte) *Client {
	t.Helper()
	rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		h := http.Header{}
		if contentType != "" {
			h.Set("Content-Type", contentType)
		}
		return &http.Response{StatusCode: status, Header: h, Body: io.NopCloser(bytes.NewReader(body)), Request: r}, nil
	})
	c, err := New("http://bot.invalid", fuzzToken, WithHTTPClient(&http.Client{Transport: rt}), WithMaxAttempts(1))
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c
}

// fuzzStatus maps any int onto an HTTP status the client may meet.
func fuzzStatus(n int) int {
	if n < 0 {
		n = -(n + 1)
	}
	return 100 + n%500
}

// wantCode is the error code an error answer must carry: the body's
// error_code when it is an object with a non-zero one, else the status.
func wantCode(status int, body []byte) int {
	var env envelope
	t := bytes.TrimSpace(body)
	if len(t) > 0 && t[0] == '{' && json.Unmarshal(t, &env) == nil && env.ErrorCode != 0 {
		return env.ErrorCode
	}
	return status
}

// checkCallError holds the properties of every failed call: the token never
// shows, an error answer of 429 or 5xx is retryable and any other (a 4xx,
// {"ok":false} in a 2xx) is permanent, never both nor neither, and
// convai.Rejected agrees; the description is valid UTF-8 when the answer is.
func checkCallError(t *testing.T, status int, body []byte, err error) {
	t.Helper()
	if strings.Contains(err.Error(), fuzzToken) {
		t.Fatalf("error shows the token: %v", err)
	}
	var apiErr *APIError
	if !errors.As(err, &apiErr) {
		if status < 200 || status > 299 {
			t.Fatalf("status %d gave %v, want an *APIError", status, err)
		}
		if convai.Rejected(err) {
			t.Fatalf("non-API error %v is Rejected", err)
		}
		return
	}
	code := wantCode(status, body)
	if apiErr.Code != code {
		t.Fatalf("APIError code %d, want %d (status %d, body %q)", apiErr.Code, code, status, body)
	}
	retryable := code == 429 || code >= 500
	permanent := !retryable
	if apiErr.Permanent() != permanent || apiErr.retryable() != retryable {
		t.Fatalf("code %d: Permanent %v retryable %v, want %v %v", code, apiErr.Permanent(), apiErr.retryable(), permanent, retryable)
	}
	if convai.Rejected(err) != permanent {
		t.Fatalf("code %d: convai.Rejected %v, want %v", code, convai.Rejected(err), permanent)
	}
	if apiErr.Description == "" {
		t.Fatal("APIError with an empty description")
	}
	if utf8.Valid(body) && !utf8.ValidString(apiErr.Description) {
		t.Fatalf("description %q of a UTF-8 answer is not UTF-8", apiErr.Description)
	}
	if apiErr.RetryAfter < 0 {
		t.Fatalf("negative RetryAfter %s", apiErr.RetryAfter)
	}
}

// sameOutcome fails unless two calls ended the same way.
func sameOutcome(t *testing.T, what string, a, b any, errA, errB error) {
	t.Helper()
	if (errA == nil) != (errB == nil) || (errA != nil && errA.Error() != errB.Error()) || !reflect.DeepEqual(a, b) {
		t.Fatalf("%s depends on the Content-Type: %v, %v / %v, %v", what, a, errA, b, errB)
	}
}

// FuzzParseUpdate checks that an accepted webhook update always has a
// message in a chat (id non-zero) and survives re-encoding unchanged.
func FuzzParseUpdate(f *testing.F) {
	for _, s := range []string{
		`{"update_id":1,"message":{"message_id":1,"from":{"id":7,"is_bot":false,"first_name":"A"},"chat":{"id":7,"type":"private"},"date":1795255200,"text":"/start hi"}}`,
		`{"update_id":0,"message":{"chat":{"id":-1001234567890},"date":"2017-07-20T10:00:00","text":"hello"}}`,
		`{"message":{"chat":{"id":5},"text":"no update id"}}`,
		`{"update_id":3,"edited_message":{"chat":{"id":1}}}`,
		`{"update_id":4,"message":{"text":"no chat"}}`,
		`{"update_id":5,"message":null}`,
		`{"message":{"chat":{"id":1},"date":null,"text":"\ud83d\ude00 \u0000"}}`,
		`{"message":{"chat":{"id":1.5}}}`,
		`[]`, `null`, ``, `{`, `"x"`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		u, err := ParseUpdate(body)
		if err != nil {
			if !reflect.DeepEqual(u, Update{}) {
				t.Fatalf("rejected update comes with a value: %+v", u)
			}
			return
		}
		if u.Message == nil || u.Message.Chat.ID == 0 {
			t.Fatalf("accepted an update without a message in a chat: %+v", u)
		}
		if !utf8.ValidString(u.Message.Text) {
			t.Fatalf("accepted text is not UTF-8: %q", u.Message.Text)
		}
		enc, err := json.Marshal(u)
		if err != nil {
			t.Fatalf("re-encode %+v: %v", u, err)
		}
		again, err := ParseUpdate(enc)
		if err != nil {
			t.Fatalf("re-encoded update %s is refused: %v", enc, err)
		}
		if !reflect.DeepEqual(normalize(u), normalize(again)) {
			t.Fatalf("round trip changed the update:\n got %+v %+v\nwant %+v %+v", again, *again.Message, u, *u.Message)
		}
	})
}

// normalize compacts and HTML-escapes the raw date, as re-encoding does
// ("&" comes back as "\u0026": the same JSON value).
func normalize(u Update) Update {
	if u.Message != nil && len(u.Message.Date) > 0 {
		m := *u.Message
		var compact, escaped bytes.Buffer
		if json.Compact(&compact, m.Date) == nil {
			json.HTMLEscape(&escaped, compact.Bytes())
			m.Date = escaped.Bytes()
		}
		u.Message = &m
	}
	return u
}

// FuzzGetUpdates decodes arbitrary getUpdates answers. Properties: success
// only on a 2xx status, with exactly the updates of the wrapped result or
// of the bare array; errors classified by their code; the outcome never
// depends on the Content-Type.
func FuzzGetUpdates(f *testing.F) {
	seeds := []struct {
		status int
		ct     string
		body   string
	}{
		{200, "application/json", `{"ok":true,"result":[{"update_id":1,"message":{"message_id":1,"chat":{"id":7},"date":1,"text":"/start x"}}]}`},
		{200, "text/plain; charset=utf-8", `[{"update_id":0,"message":{"chat":{"id":7},"text":"hi"}}]`},
		{200, "", `[]`},
		{200, "application/json", `{"ok":true,"result":[]}`},
		{200, "application/json", `{"ok":true}`},
		{200, "application/json", `{"ok":false,"error_code":409,"description":"Conflict: can't use getUpdates method while webhook is active"}`},
		{429, "application/json", `{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 3","parameters":{"retry_after":3}}`},
		{502, "text/html", `<html>Bad Gateway</html>`},
		{404, "text/plain", `Not Found`},
		{200, "text/html", `<html>captive portal</html>`},
		{200, "application/json", `{"ok":true,"result":{"update_id":1}}`},
		{500, "application/json", `{"ok":false,"error_code":400,"description":"Bad Request"}`},
		{200, "application/json", `{"ok":false}`},
		{401, "", ``},
	}
	for _, s := range seeds {
		f.Add(s.status, s.ct, []byte(s.body))
	}
	f.Fuzz(func(t *testing.T, status int, contentType string, body []byte) {
		status = fuzzStatus(status)
		ctx := context.Background()
		ups, err := cannedClient(t, status, contentType, body).GetUpdates(ctx, 0, time.Second)
		ups2, err2 := cannedClient(t, status, "application/json", body).GetUpdates(ctx, 0, time.Second)
		sameOutcome(t, "getUpdates", ups, ups2, err, err2)
		if err != nil {
			checkCallError(t, status, body, err)
			return
		}
		if status < 200 || status > 299 {
			t.Fatalf("status %d accepted", status)
		}
		// The one shape decoded must be the wrapped result or the bare array.
		var env struct {
			OK     *bool           `json:"ok"`
			Result json.RawMessage `json:"result"`
		}
		raw := bytes.TrimSpace(body)
		if raw[0] == '{' {
			if json.Unmarshal(raw, &env) != nil || env.OK == nil || !*env.OK {
				t.Fatalf("answer %q accepted, want an ok:true envelope", body)
			}
			raw = env.Result
		}
		var want []Update
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatalf("answer %q accepted, but its result is not an update list: %v", body, err)
		}
		if !reflect.DeepEqual(ups, want) {
			t.Fatalf("decoded %+v, want %+v", ups, want)
		}
	})
}

// FuzzUpdatesRoundTrip encodes a valid update list in both dialects (the
// wrapped envelope and the 2017 bare array, under any Content-Type) and
// checks that decoding gives it back.
func FuzzUpdatesRoundTrip(f *testing.F) {
	f.Add(int64(1), int64(7), "/start hello\n/begin", uint8(3), false, "application/json")
	f.Add(int64(0), int64(-1001234567890), "hi \u00e9\U0001F600", uint8(1), true, "text/plain; charset=utf-8")
	f.Add(int64(1<<62), int64(1), "", uint8(0), true, "")
	f.Fuzz(func(t *testing.T, firstID, chatID int64, text string, n uint8, withFrom bool, contentType string) {
		if chatID == 0 {
			chatID = 1
		}
		text = strings.ToValidUTF8(text, "\uFFFD")
		var list []Update
		for i := range int64(n % 8) {
			m := &Message{MessageID: i + 1, Chat: Chat{ID: chatID + i, Type: "private"}, Text: text,
				Date: json.RawMessage("1795255200")}
			if withFrom {
				m.From = &User{ID: chatID, FirstName: "Anonym"}
			}
			id := firstID
			if firstID != 0 {
				id = firstID + i
			}
			list = append(list, Update{UpdateID: id, Message: m})
		}
		bare, err := json.Marshal(list)
		if err != nil {
			t.Fatal(err)
		}
		wrapped, err := json.Marshal(map[string]any{"ok": true, "result": list})
		if err != nil {
			t.Fatal(err)
		}
		for name, body := range map[string][]byte{"bare": bare, "wrapped": wrapped} {
			got, err := cannedClient(t, 200, contentType, body).GetUpdates(context.Background(), 0, time.Second)
			if err != nil {
				t.Fatalf("%s %s: %v", name, body, err)
			}
			if len(got) != len(list) || (len(list) > 0 && !reflect.DeepEqual(got, list)) {
				t.Fatalf("%s: got %+v, want %+v", name, got, list)
			}
		}
	})
}

// FuzzSendMessage decodes arbitrary sendMessage answers: the wrapped
// Message, a bare Message, true, and {"ok":false,…} errors. Properties: a
// success (2xx only) always returns a message in a chat; errors are
// classified by their code and convai.Rejected agrees; the Content-Type
// changes nothing.
func FuzzSendMessage(f *testing.F) {
	seeds := []struct {
		status int
		ct     string
		body   string
	}{
		{200, "application/json", `{"ok":true,"result":{"message_id":9,"chat":{"id":7},"date":1,"text":"{\"text\":\"hi\",\"evaluation\":5}"}}`},
		{200, "text/plain", `{"message_id":0,"chat":{"id":7},"date":1500000000000,"text":"x"}`},
		{200, "application/json", `{"ok":true,"result":true}`},
		{200, "", `true`},
		{400, "application/json", `{"ok":false,"error_code":400,"description":"Bad Request: chat not found"}`},
		{403, "application/json", `{"ok":false,"error_code":403,"description":"Forbidden: bot was blocked by the user"}`},
		{429, "application/json", `{"ok":false,"error_code":429,"description":"Too Many Requests","parameters":{"retry_after":-5}}`},
		{400, "text/plain; charset=utf-8", "Bad Request: chat is over\n"},
		{500, "", ``},
		{200, "application/json", `{"ok":false,"error_code":0}`},
		{200, "application/json", `{"ok":true,"result":{"chat":{"id":0}}}`},
	}
	for _, s := range seeds {
		f.Add(s.status, s.ct, []byte(s.body), int64(7), "hello")
	}
	f.Fuzz(func(t *testing.T, status int, contentType string, body []byte, chatID int64, text string) {
		status = fuzzStatus(status)
		if chatID == 0 {
			chatID = 1
		}
		ctx := context.Background()
		m, err := cannedClient(t, status, contentType, body).SendMessage(ctx, chatID, text)
		m2, err2 := cannedClient(t, status, "application/json", body).SendMessage(ctx, chatID, text)
		sameOutcome(t, "sendMessage", m, m2, err, err2)
		// Send, which decodes no message, ends as SendMessage does.
		if serr := cannedClient(t, status, contentType, body).Send(ctx, chatID, text); (serr == nil) != (err == nil) || serr != nil && serr.Error() != err.Error() {
			t.Fatalf("Send: %v; SendMessage: %v", serr, err)
		}
		if err != nil {
			if m != nil {
				t.Fatalf("error %v with a message %+v", err, m)
			}
			checkCallError(t, status, body, err)
			return
		}
		if status < 200 || status > 299 {
			t.Fatalf("status %d accepted", status)
		}
		if m == nil || m.Chat.ID == 0 {
			t.Fatalf("success without a message in a chat: %+v", m)
		}
	})
}
