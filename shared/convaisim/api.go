package convaisim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/telegram"
)

// ServeHTTP serves the Bot API methods of the dialect.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	prefix := "/bot" + s.cfg.Token + "/"
	if s.cfg.Dialect == Dialect2017 {
		prefix = "/" + s.cfg.Token + "/"
	}
	if !strings.HasPrefix(r.URL.Path, prefix) {
		s.mu.Lock()
		s.violateGlobal("a request to a URL that is not %s<method> with the simulator's token", s.shape())
		s.mu.Unlock()
		s.fail(w, http.StatusUnauthorized, "Unauthorized")
		return
	}
	s.mu.Lock()
	s.contacted = true
	s.mu.Unlock()
	method := strings.TrimPrefix(r.URL.Path, prefix)
	params, isJSON, err := readParams(r)
	if err != nil {
		s.fail(w, http.StatusBadRequest, "Bad Request: "+err.Error())
		return
	}
	switch method {
	case "getUpdates":
		s.pollOnce.Do(func() { close(s.polled) })
		s.getUpdates(w, r, params)
	case "sendMessage":
		s.sendMessage(w, params, isJSON)
	case "getMe", "deleteWebhook", "setWebhook", "getWebhookInfo":
		if s.cfg.Dialect != DialectTelegram {
			s.fail(w, http.StatusNotFound, "Not Found: method "+method+" is not supported by this server")
			return
		}
		switch method {
		case "getMe":
			s.ok(w, telegram.User{ID: 100000, IsBot: true, FirstName: "Duet sim bot", Username: "duet_sim_bot"})
		case "getWebhookInfo":
			s.ok(w, telegram.WebhookInfo{})
		default:
			s.ok(w, true)
		}
	default:
		s.fail(w, http.StatusNotFound, "Not Found: method "+method+" is not supported by this server")
	}
}

func (s *Server) shape() string {
	if s.cfg.Dialect == Dialect2017 {
		return "/<token>/"
	}
	return "/bot<token>/"
}

// ok answers result in the dialect's shape.
func (s *Server) ok(w http.ResponseWriter, result any) {
	if s.cfg.Dialect == Dialect2017 {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_ = json.NewEncoder(w).Encode(result)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"ok": true, "result": result})
}

// fail answers an error in the dialect's shape.
func (s *Server) fail(w http.ResponseWriter, status int, desc string) {
	if s.cfg.Dialect == Dialect2017 {
		http.Error(w, desc, status)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"ok": false, "error_code": status, "description": desc})
}

// readParams reads a method's parameters from a JSON body, a form body or
// the query string. Values of forms and queries become JSON strings.
func readParams(r *http.Request) (params map[string]json.RawMessage, isJSON bool, err error) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		return nil, false, fmt.Errorf("read body: %w", err)
	}
	params = map[string]json.RawMessage{}
	if t := bytes.TrimSpace(body); len(t) > 0 && t[0] == '{' {
		if err := json.Unmarshal(t, &params); err != nil {
			return nil, false, fmt.Errorf("body is not JSON: %v", err)
		}
		return params, true, nil
	}
	form, _ := url.ParseQuery(string(body))
	for k, v := range r.URL.Query() {
		form[k] = append(form[k], v...)
	}
	for k, v := range form {
		if len(v) > 0 {
			params[k], _ = json.Marshal(v[0])
		}
	}
	return params, false, nil
}

// intParam reads an integer given as a JSON number or a string of digits.
func intParam(raw json.RawMessage) (n int64, isNumber, ok bool) {
	if len(raw) == 0 {
		return 0, false, false
	}
	if err := json.Unmarshal(raw, &n); err == nil {
		return n, true, true
	}
	var str string
	if json.Unmarshal(raw, &str) == nil {
		if n, err := strconv.ParseInt(strings.TrimSpace(str), 10, 64); err == nil {
			return n, false, true
		}
	}
	return 0, false, false
}

func (s *Server) getUpdates(w http.ResponseWriter, r *http.Request, params map[string]json.RawMessage) {
	timeoutSecs, _, _ := intParam(params["timeout"])
	offset, _, _ := intParam(params["offset"])
	limit, _, hasLimit := intParam(params["limit"])
	if !hasLimit || limit <= 0 || limit > 100 {
		limit = 100
	}
	wait := min(time.Duration(max(timeoutSecs, 0))*time.Second, maxLongPoll)
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		s.mu.Lock()
		out := []telegram.Update{}
		switch s.cfg.Dialect {
		case DialectTelegram:
			// offset acknowledges every update before it; the rest stay.
			if offset > 0 {
				kept := s.queue[:0:0]
				for _, u := range s.queue {
					if u.UpdateID >= offset {
						kept = append(kept, u)
					}
				}
				s.queue = kept
			}
			out = append(out, s.queue[:min(int(limit), len(s.queue))]...)
		case Dialect2017:
			// Ignores offset, limit and timeout; drains the queue at once.
			out = append(out, s.queue...)
			s.queue = nil
		case Dialect2018:
			// A timeout of 0 answers [] even with updates queued.
			if timeoutSecs > 0 {
				out = append(out, s.queue...)
				s.queue = nil
			}
		}
		wake := s.wake
		s.mu.Unlock()
		if len(out) > 0 || wait <= 0 || s.cfg.Dialect == Dialect2017 {
			s.ok(w, out)
			return
		}
		select {
		case <-wake:
		case <-timer.C:
			s.ok(w, out)
			return
		case <-s.done:
			s.ok(w, out)
			return
		case <-r.Context().Done():
			return
		}
	}
}

func (s *Server) sendMessage(w http.ResponseWriter, params map[string]json.RawMessage, isJSON bool) {
	id, isNumber, hasID := intParam(params["chat_id"])
	var text string
	hasText := json.Unmarshal(params["text"], &text) == nil
	strict := s.cfg.Dialect != DialectTelegram

	s.mu.Lock()
	defer s.mu.Unlock()
	s.botMsgs++
	c := s.chats[id]
	switch {
	case !hasID || !hasText:
		s.violateGlobal("sendMessage without chat_id and text")
		s.fail(w, http.StatusBadRequest, "Bad Request: chat_id and text are required")
		return
	case c == nil || !c.started:
		s.violateGlobal("sendMessage to chat %d, which does not exist", id)
		s.fail(w, http.StatusBadRequest, "Bad Request: chat not found")
		return
	}
	c.lines = append(c.lines, Line{From: "Bot", Text: text})
	defer c.poke()
	if strict && !isJSON {
		c.violate("sendMessage with a form body: this server accepts only JSON bodies")
		s.fail(w, http.StatusBadRequest, "Bad Request: a JSON body is required")
		return
	}
	if strict && !isNumber {
		c.violate("chat_id sent as a string: it must be a JSON number")
		s.fail(w, http.StatusBadRequest, "Bad Request: chat_id must be a number")
		return
	}
	final, verr := convai.Validate(text, c.requireEval)
	reject := ""
	// The router takes one more final in answer to the evaluation request
	// it sends after a bot ended the chat itself.
	answersRequest := c.requested && !c.asked && c.expect == expectFinal && final && verr == nil
	switch {
	case c.final && !answersRequest:
		c.violate("a message after the final /end: %s", abbreviate(text))
		reject = "chat is over"
	case final && verr != nil:
		c.violate("invalid final /end: %v", verr)
		reject = verr.Error()
	case final:
		c.final = true
		s.checkFinal(c, text)
	case c.expect == expectFinal:
		c.violate("after the server's /end the bot must send the final /end evaluation, got: %s", abbreviate(text))
		if verr != nil {
			reject = verr.Error()
		}
	case c.expect == expectNothing:
		c.violate("a reply to no partner message (a second reply, or a reply to /start without /begin): %s", abbreviate(text))
		if verr != nil {
			reject = verr.Error()
		}
	default:
		// The reply the partner waits for, valid or not.
		c.expect = expectNothing
		if verr != nil {
			c.violate("invalid reply: %v", verr)
			reject = verr.Error()
			break
		}
		reject = s.checkReply(c, text)
	}
	if reject != "" && strict {
		s.fail(w, http.StatusBadRequest, "Bad Request: "+reject)
		return
	}
	s.nextMsg++
	s.ok(w, s.message(c.id, text, s.nextMsg))
}

// message is a Message of the dialect.
func (s *Server) message(chatID int64, text string, msgID int64) telegram.Message {
	now := time.Now()
	m := telegram.Message{MessageID: msgID, Chat: telegram.Chat{ID: chatID, Type: "private", FirstName: "Anonym"}, Text: text,
		Date: json.RawMessage(strconv.FormatInt(now.Unix(), 10))}
	if s.cfg.Dialect == Dialect2017 {
		// No ids, no from, and a date that is not a Unix time.
		m.MessageID = 0
		m.Date = json.RawMessage(strconv.FormatInt(now.UnixMilli(), 10))
	} else {
		m.From = &telegram.User{ID: chatID, FirstName: "Anonym"}
	}
	return m
}
