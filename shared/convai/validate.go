package convai

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/duetbot/duet/shared/brain"
)

// Validate checks one message a bot sent against the protocol. It returns
// whether the message ends the chat. requireEval is false only for the
// reply to the context.
func Validate(outer string, requireEval bool) (final bool, err error) {
	if n := utf8.RuneCountInString(outer); n == 0 || n > MaxTextLen {
		return false, fmt.Errorf("message text has %d characters, want 1..%d", n, MaxTextLen)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(outer), &raw); err != nil {
		return false, fmt.Errorf("message text is not a JSON object: %v", err)
	}
	var text string
	if err := json.Unmarshal(raw["text"], &text); err != nil {
		return false, errors.New(`"text" is missing or not a string`)
	}
	ev, hasEval := raw["evaluation"]
	if strings.TrimSpace(text) == "/end" {
		var s map[string]json.RawMessage
		if !hasEval || json.Unmarshal(ev, &s) != nil {
			return true, errors.New(`/end needs "evaluation" as an object of quality, breadth and engagement`)
		}
		for _, k := range []string{"quality", "breadth", "engagement"} {
			if err := checkScore(s[k]); err != nil {
				return true, fmt.Errorf("/end evaluation %q: %v", k, err)
			}
		}
		// The router's keys: their ranges depend on its request, which
		// the caller checks (see CheckJudged); here only their type.
		if raw, ok := s["score"]; ok {
			if _, err := checkInt(raw, 1, maxJudgeScore); err != nil {
				return true, fmt.Errorf(`/end evaluation "score": %v`, err)
			}
		}
		if raw, ok := s["profile_idx"]; ok {
			if _, err := checkInt(raw, 0, maxJudgeProfiles-1); err != nil {
				return true, fmt.Errorf(`/end evaluation "profile_idx": %v`, err)
			}
		}
		return true, nil
	}
	if strings.TrimSpace(text) == "" {
		return false, errors.New(`"text" is empty`)
	}
	msg, hasMsg := raw["msg_evaluation"]
	if !hasEval {
		if hasMsg {
			return false, errors.New(`"msg_evaluation" without "evaluation"`)
		}
		if requireEval {
			return false, errors.New(`"evaluation" is missing`)
		}
		return false, nil
	}
	if err := checkScore(ev); err != nil {
		return false, fmt.Errorf(`"evaluation": %v`, err)
	}
	if hasMsg && !bytes.Equal(bytes.TrimSpace(msg), bytes.TrimSpace(ev)) {
		return false, fmt.Errorf(`"msg_evaluation" %s differs from "evaluation" %s`, msg, ev)
	}
	return false, nil
}

// CheckJudged checks the router's keys of a final (as Validate accepted
// it) against the request j: "score" in j's range, and "profile_idx" a
// valid index when j has candidates.
func CheckJudged(outer string, j brain.Judge) error {
	var f struct {
		Evaluation map[string]json.RawMessage `json:"evaluation"`
	}
	if err := json.Unmarshal([]byte(outer), &f); err != nil {
		return fmt.Errorf("final is not a JSON object: %v", err)
	}
	if _, err := checkInt(f.Evaluation["score"], j.Min, j.Max); err != nil {
		return fmt.Errorf(`"score": %v`, err)
	}
	raw, has := f.Evaluation["profile_idx"]
	if len(j.Profiles) == 0 {
		if has {
			return fmt.Errorf(`"profile_idx" %s without candidate profiles`, raw)
		}
		return nil
	}
	if _, err := checkInt(raw, 0, len(j.Profiles)-1); err != nil {
		return fmt.Errorf(`"profile_idx": %v`, err)
	}
	return nil
}

func checkScore(raw json.RawMessage) error {
	_, err := checkInt(raw, 1, 10)
	return err
}

// checkInt reads raw as an integer in lo..hi.
func checkInt(raw json.RawMessage, lo, hi int) (int, error) {
	if len(raw) == 0 {
		return 0, errors.New("missing")
	}
	if raw[0] == '"' {
		return 0, fmt.Errorf("got %s, want an integer", raw)
	}
	var n json.Number
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&n); err != nil {
		return 0, fmt.Errorf("got %s, want an integer", raw)
	}
	v, err := n.Int64()
	if err != nil {
		return 0, fmt.Errorf("got %s, want an integer", raw)
	}
	if v < int64(lo) || v > int64(hi) {
		return 0, fmt.Errorf("got %d, want %d..%d", v, lo, hi)
	}
	return int(v), nil
}
