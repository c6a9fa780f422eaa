package convaisim

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/telegram"
)

var fuzzDialects = []Dialect{DialectTelegram, Dialect2017, Dialect2018}

// inProcess is an http.RoundTripper that serves requests with h directly.
type inProcess struct{ h http.Handler }

func (p inProcess) RoundTrip(r *http.Request) (*http.Response, error) {
	w := httptest.NewRecorder()
	p.h.ServeHTTP(w, r)
	resp := w.Result()
	resp.Request = r
	return resp, nil
}

// FuzzBotMessage has the bot's real client send arbitrary texts to a
// simulator chat in every dialect and state. Properties: the simulator
// records the text as sent; it finds a violation exactly when
// convai.Validate refuses the text or the chat expected no such message;
// a strict ConvAI dialect refuses an invalid message with an error the
// client classifies as permanent (so the engine drops it) and Telegram
// accepts it; an accepted message comes back with its chat and text.
func FuzzBotMessage(f *testing.F) {
	for i, s := range []string{
		convai.EncodeReply("Hello there", 7), convai.EncodeReply("Hi", 0),
		convai.EncodeFinal(brain.Scores{Quality: 7, Breadth: 5, Engagement: 9}), `{"text":"/end","evaluation":5}`,
		`{"text":"hi","evaluation":5.5}`, `{"text":" ","evaluation":5}`, `plain text`, ``, `/end`,
		`{"text":"a","evaluation":5,"evaluation":"x"}`, strings.Repeat("é", 5000),
		convai.EncodeFinal(brain.Scores{Quality: 7, Breadth: 5, Engagement: 9, Score: 3, Profile: new(int)}),
		`{"text":"Yes, I like to ride horses. Do you?","evaluation":5,"msg_evaluation":5}`,
	} {
		f.Add(uint8(i), uint8(i), i%2 == 0, s)
	}
	f.Fuzz(func(t *testing.T, dialect, expect uint8, requireEval bool, text string) {
		text = strings.ToValidUTF8(text, "\uFFFD") // Telegram refuses anything else
		d := fuzzDialects[int(dialect)%len(fuzzDialects)]
		s, err := NewServer(Config{Dialect: d, Chats: 1, Token: "100000:fuzz", Log: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		id := s.order[0]
		c := s.chats[id]
		c.started, c.expect, c.requireEval = true, expectation(int(expect)%3), requireEval
		before := c.expect

		client, err := telegram.New(s.APIURL("http://sim.invalid"), s.Token(),
			telegram.WithHTTPClient(&http.Client{Transport: inProcess{s}}), telegram.WithMaxAttempts(1))
		if err != nil {
			t.Fatal(err)
		}
		msg, sendErr := client.SendMessage(context.Background(), id, text)

		s.mu.Lock()
		defer s.mu.Unlock()
		if n := len(c.lines); n != 1 || c.lines[0] != (Line{From: "Bot", Text: text}) {
			t.Fatalf("transcript %q, want the one bot line %q", c.lines, text)
		}
		final, verr := convai.Validate(text, requireEval)
		routerBad, refused := routerRules(c, text, final, verr, before)
		wantViolation := verr != nil || (!final && before != expectReply) || routerBad
		if got := len(c.violations) > 0; got != wantViolation {
			t.Fatalf("%s, expecting %d: violations %q, want any: %v (Validate: final %v, %v)", d, before, c.violations, wantViolation, final, verr)
		}
		if c.final != (final && verr == nil) {
			t.Fatalf("chat final = %v after %q (Validate: final %v, %v)", c.final, text, final, verr)
		}
		strict := d != DialectTelegram
		if wantErr := strict && (verr != nil || refused); (sendErr != nil) != wantErr {
			t.Fatalf("%s: send error %v, want one: %v (Validate: %v)", d, sendErr, wantErr, verr)
		}
		if sendErr != nil {
			if !convai.Rejected(sendErr) {
				t.Fatalf("refusal %v is not permanent: the engine would retry it", sendErr)
			}
			return
		}
		if msg == nil || msg.Chat.ID != id || msg.Text != text {
			t.Fatalf("answer %+v, want chat %d with the text sent", msg, id)
		}
	})
}

// routerRules is the 2018 router's own rules for a message Validate
// accepted, written apart from the simulator's: whether the message
// breaks one, and whether the router refuses it.
func routerRules(c *chat, text string, final bool, verr error, before expectation) (bad, refused bool) {
	if c.judge == nil || verr != nil {
		return false, false
	}
	// The router is Python: its keys match exactly, not as encoding/json
	// matches struct fields (case-insensitively).
	var m map[string]json.RawMessage
	_ = json.Unmarshal([]byte(text), &m)
	var mText string
	_ = json.Unmarshal(m["text"], &mText)
	if final {
		j := convai.DefaultJudge
		if before == expectFinal {
			j = *c.judge
		}
		return convai.CheckJudged(text, j) != nil, false
	}
	if before != expectReply {
		return false, false
	}
	profile := map[[3]string]bool{}
	w := routerWords(strings.Join(c.profile, "\n"))
	for i := 0; i+3 < len(w); i++ {
		profile[[3]string{w[i], w[i+1], w[i+2]}] = true
	}
	mw := routerWords(mText)
	for i := 0; i+3 < len(mw); i++ {
		if profile[[3]string{mw[i], mw[i+1], mw[i+2]}] {
			refused = true
		}
	}
	_, hasEval := m["evaluation"]
	_, hasMsg := m["msg_evaluation"]
	return refused || (hasEval && !hasMsg), refused
}

// FuzzParams feeds the simulator's parameter reading arbitrary bodies and
// queries. Properties: a body that opens with '{' is read as a JSON object
// or refused; otherwise every value is a JSON string taken from the form or
// the query; intParam reads back integers written either way.
func FuzzParams(f *testing.F) {
	f.Add([]byte(`{"chat_id":7,"text":"{\"text\":\"hi\",\"evaluation\":5}"}`), "", int64(7))
	f.Add([]byte(`chat_id=7&text=hi`), "offset=3&timeout=1", int64(-1001234567890))
	f.Add([]byte(`{"chat_id":"7"}`), "chat_id=8", int64(0))
	f.Add([]byte(` {`), "%zz", int64(1<<62))
	f.Add([]byte(``), "limit=1e2&limit=5", int64(-1<<63))
	f.Fuzz(func(t *testing.T, body []byte, query string, n int64) {
		r := httptest.NewRequest(http.MethodPost, "/bot1:x/sendMessage", strings.NewReader(string(body)))
		r.URL.RawQuery = query
		params, isJSON, err := readParams(r)
		trimmed := strings.TrimSpace(string(body))
		if strings.HasPrefix(trimmed, "{") {
			var obj map[string]json.RawMessage
			valid := json.Unmarshal([]byte(trimmed), &obj) == nil
			if (err == nil) != valid || (err == nil && !isJSON) {
				t.Fatalf("JSON body %q: isJSON %v, err %v, want valid %v", body, isJSON, err, valid)
			}
		} else {
			if err != nil || isJSON {
				t.Fatalf("form body %q: isJSON %v, err %v", body, isJSON, err)
			}
			form, _ := url.ParseQuery(string(body))
			q, _ := url.ParseQuery(query)
			for k, raw := range params {
				var v string
				if json.Unmarshal(raw, &v) != nil {
					t.Fatalf("form value %s=%s is not a JSON string", k, raw)
				}
				if _, inForm := form[k]; !inForm {
					if _, inQuery := q[k]; !inQuery {
						t.Fatalf("parameter %q comes from neither the body nor the query", k)
					}
				}
			}
		}
		for k := range params {
			_, _, _ = intParam(params[k]) // never panics
		}

		num, _ := json.Marshal(n)
		if got, isNumber, ok := intParam(num); !ok || !isNumber || got != n {
			t.Fatalf("intParam(%s) = %d, %v, %v", num, got, isNumber, ok)
		}
		str, _ := json.Marshal(" " + strconv.FormatInt(n, 10) + " ")
		if got, isNumber, ok := intParam(str); !ok || isNumber || got != n {
			t.Fatalf("intParam(%s) = %d, %v, %v", str, got, isNumber, ok)
		}
	})
}
