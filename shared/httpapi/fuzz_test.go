package httpapi_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/duetbot/duet/shared/annex"
	"github.com/duetbot/duet/shared/apigw"
	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/duet"
	"github.com/duetbot/duet/shared/httpapi"
	"github.com/duetbot/duet/shared/store/memstore"
	"github.com/duetbot/duet/shared/telegram"
)

// recordingEngine is a Handler that records what it is given and fails
// the way it is told to.
type recordingEngine struct {
	got []convai.Update
	err error
}

func (e *recordingEngine) Handle(_ context.Context, u convai.Update) error {
	e.got = append(e.got, u)
	return e.err
}

// engineErrors are the outcomes the engine documents, and a bare error
// (a bug, which duet.Code reads as EINTERNAL).
var engineErrors = []error{
	nil,
	duet.Errorf(duet.EINVALID, "not a command"),
	duet.Errorf(duet.ENOTFOUND, "no such chat"),
	duet.Errorf(duet.EUNAVAILABLE, "store down"),
	duet.Errorf(duet.EINTERNAL, "a bug"),
	errors.New("dynamodb: connection refused"),
}

// FuzzWebhook posts arbitrary requests to the Telegram webhook. Properties:
// the status is the one docs/delivery.md documents for the case (405, 401, 413,
// 400 only for a base64 body API Gateway would never send, 503 only when
// the engine says a retry may help, 200 for everything else); the body is
// JSON; the engine is called exactly when the request was authorized and
// ParseUpdate accepts the body, with that update's fields; no answer shows
// the secret or an internal error.
func FuzzWebhook(f *testing.F) {
	f.Add("POST", secret, false, []byte(update(1, 7, "/start hi\n/begin")), uint8(0))
	f.Add("POST", secret, false, []byte(update(2, -5, "hello")), uint8(3))
	f.Add("POST", secret, false, []byte(update(3, 9, "hello")), uint8(5))
	f.Add("post", secret, true, []byte(update(4, 9, "\u00e9")), uint8(1))
	f.Add("POST", secret, false, []byte(`{"update_id":5,"edited_message":{"chat":{"id":1}}}`), uint8(0))
	f.Add("POST", secret, false, []byte(`{"update_id":`), uint8(0))
	f.Add("POST", secret, false, []byte(`{"message":{"chat":{"id":0}}}`), uint8(0))
	f.Add("POST", "", false, []byte(update(1, 1, "x")), uint8(0))
	f.Add("POST", secret+"x", false, []byte(update(1, 1, "x")), uint8(0))
	f.Add("GET", secret, false, []byte(""), uint8(0))
	f.Add("", secret, false, []byte(update(1, 1, "x")), uint8(2))
	f.Fuzz(func(t *testing.T, method, token string, b64 bool, body []byte, outcome uint8) {
		engine := &recordingEngine{err: engineErrors[int(outcome)%len(engineErrors)]}
		h := httpapi.NewTelegram(engine, secret, slog.New(slog.DiscardHandler))
		req := request(string(body), token, method)
		if b64 {
			req.Body, req.IsBase64Encoded = base64.StdEncoding.EncodeToString(body), true
			if len(body) > 0 && body[0] == '!' {
				req.Body = string(body) // not base64: only a broken proxy sends this
			}
		}
		resp, err := h.Handle(context.Background(), req)
		if err != nil {
			t.Fatalf("Handle returned an error: %v", err)
		}
		if !json.Valid([]byte(resp.Body)) {
			t.Fatalf("body %q is not JSON", resp.Body)
		}
		if strings.Contains(resp.Body, secret) || strings.Contains(resp.Body, "connection refused") {
			t.Fatalf("body %s leaks the secret or an internal error", resp.Body)
		}

		want, called := http.StatusOK, false
		var parsed telegram.Update
		switch m := strings.ToUpper(method); {
		case m != "" && m != http.MethodPost:
			want = http.StatusMethodNotAllowed
		case token != secret:
			want = http.StatusUnauthorized
		default:
			raw, berr := apigw.Body(req)
			switch {
			case duet.Code(berr) == duet.ETOOLARGE:
				want = http.StatusRequestEntityTooLarge
			case berr != nil:
				want = http.StatusBadRequest
			default:
				u, perr := telegram.ParseUpdate(raw)
				if perr == nil {
					called, parsed = true, u
					if duet.Code(engine.err) == duet.EUNAVAILABLE {
						want = http.StatusServiceUnavailable
					}
				}
			}
		}
		if resp.StatusCode != want {
			t.Fatalf("status %d (%s), want %d", resp.StatusCode, resp.Body, want)
		}
		if !called {
			if len(engine.got) != 0 {
				t.Fatalf("the engine got %+v from a request it must never see", engine.got)
			}
			return
		}
		wantUpdate := convai.Update{UpdateID: parsed.UpdateID, ChatID: parsed.Message.Chat.ID, Text: parsed.Message.Text}
		if len(engine.got) != 1 || engine.got[0] != wantUpdate {
			t.Fatalf("the engine got %+v, want exactly %+v", engine.got, wantUpdate)
		}
	})
}

// FuzzAnnexHandler posts arbitrary bodies to the annex bot with its key.
// Properties: the status is 200 with a non-empty reply exactly when
// ParseRequest and Validate accept the body, else 400 with their
// field-naming message (413 for an oversized body) — never a 5xx for a bad
// request.
func FuzzAnnexHandler(f *testing.F) {
	for _, s := range []string{
		`{"context":[],"message":{"from":"U2","id":"m1","text":"@ada should we deploy on Friday?","timestamp":"2024-03-04T09:00:00Z"}}`,
		`{"conversation":[{"id":"c1","messages":[{"from":"U2","id":"m0","text":"hi","timestamp":"t"}]}],"message":{"from":"U2","text":"and now?"}}`,
		`{"conversation":[{"from":"U2","id":"m0","text":"hi"},{"from":"BOT","text":"hello"}],"message":{"from":"U2","text":"flat"}}`,
		`{"message":{"from":"U2","text":"   "}}`,
		`{"message":{"from":"","text":"x"}}`,
		`{"message":{"from":"U2","text":5}}`,
		`{"message":{"from":"U2","text":"x","tagged":"U1"}}`,
		`{"context":{},"message":{"from":"U2","text":"x"}}`,
		`{"users":[{"id":1}],"message":{"from":"U2","text":"x"}}`,
		`[]`, `null`, `{`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		h := newAnnex(t, memstore.NewAnnex())
		resp, err := h.Handle(context.Background(), event("POST", testKey, string(body)))
		if err != nil {
			t.Fatalf("Handle returned an error: %v", err)
		}
		var out struct {
			Message *string `json:"message"`
			Error   *string `json:"error"`
		}
		if err := json.Unmarshal([]byte(resp.Body), &out); err != nil {
			t.Fatalf("body %q is not JSON: %v", resp.Body, err)
		}
		req, perr := annexAccepts(body)
		switch resp.StatusCode {
		case http.StatusOK:
			if perr != nil {
				t.Fatalf("200 for a request ParseRequest/Validate refuse (%v)", perr)
			}
			if out.Message == nil || strings.TrimSpace(*out.Message) == "" {
				t.Fatalf("200 with no reply: %s", resp.Body)
			}
		case http.StatusBadRequest:
			if perr == nil {
				t.Fatalf("400 (%s) for a request ParseRequest and Validate accept: %+v", resp.Body, req)
			}
			if out.Error == nil || *out.Error != duet.Message(perr) {
				t.Fatalf("400 body %s, want the error %q", resp.Body, duet.Message(perr))
			}
		case http.StatusRequestEntityTooLarge:
			if len(body) <= apigw.MaxBodyBytes {
				t.Fatalf("413 for %d bytes", len(body))
			}
		default:
			t.Fatalf("status %d (%s) for a request body", resp.StatusCode, resp.Body)
		}
	})
}

// annexAccepts is what the handler must accept: a body that parses and
// validates.
func annexAccepts(body []byte) (annex.Request, error) {
	req, err := annex.ParseRequest(body)
	if err != nil {
		return req, err
	}
	return req, req.Validate()
}
