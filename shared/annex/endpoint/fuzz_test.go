package endpoint

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/duetbot/duet/shared/annex"
)

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// FuzzAsk reads arbitrary answers of a bot under evaluation. Properties: a
// reply comes only from a 2xx {"message": "<text>"} and is that text, not
// blank; every error is one line of bounded length, whatever the bot
// sent, since it goes into the evaluation report.
func FuzzAsk(f *testing.F) {
	for _, s := range []struct {
		status int
		body   string
	}{
		{200, `{"message":"Short answer: no."}`},
		{401, `{"error":"missing or wrong X-CALLER-KEY"}`},
		{400, `{"error":"line one\nline two"}`},
		{502, `Bad Gateway`},
		{200, `<html>hello</html>`},
		{200, `{"text":"hi"}`},
		{200, `{"message":"  "}`},
		{200, `{"message":null}`},
		{204, ``},
		{500, `{"error":"` + strings.Repeat("é", 3000) + `"}`},
	} {
		f.Add(s.status, []byte(s.body))
	}
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		if status < 0 {
			status = -(status + 1)
		}
		status = 100 + status%500
		rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
			return &http.Response{StatusCode: status, Header: http.Header{}, Body: io.NopCloser(bytes.NewReader(body)), Request: r}, nil
		})
		c := New("http://bot.invalid/annex", "key", &http.Client{Transport: rt})
		got, err := c.Ask(context.Background(), annex.Request{Message: annex.Message{From: "U2", Text: "hi"}})
		if err != nil {
			if msg := err.Error(); strings.ContainsAny(msg, "\r\n") || utf8.RuneCountInString(msg) > 1000 {
				t.Fatalf("error is not one short line: %q", msg)
			}
			return
		}
		if status < 200 || status > 299 {
			t.Fatalf("status %d gave reply %q", status, got)
		}
		var out struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(body, &out) != nil || out.Message != got || strings.TrimSpace(got) == "" {
			t.Fatalf("reply %q from answer %q", got, body)
		}
	})
}
