package llm

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/convai"
)

var (
	evalKeys  = []string{"evaluation"}
	finalKeys = []string{"quality", "breadth", "engagement"}
)

// FuzzParseScores reads arbitrary model answers as ratings and final
// scores. Properties: a refusal is ErrInvalid; an accepted answer has
// every key, each 1..10; and the scores read back the same once encoded
// plainly.
func FuzzParseScores(f *testing.F) {
	for _, s := range []string{
		`{"evaluation": 7}`, "```json\n{\"evaluation\": 10}\n```", `{"evaluation": 3, "reason": "rude"}`,
		`{"evaluation": 4.0}`, `<think>hmm</think>{"evaluation": 5}`, `{"quality":8,"breadth":6,"engagement":9}`,
		`{"evaluation": 11}`, `{"evaluation": 0}`, `{"evaluation": "7"}`, `seven`, `7`, `{"evaluation": 7.5}`,
		`{"evaluation": 1e1}`, `{"evaluation": -0}`, `{"evaluation": 10.000000000000001}`, `{"evaluation": 1e400}`,
		`{"evaluation": 7} hope that helps`, `null`, `[7]`, `<think>{"evaluation": 7}`, "```\n{\"quality\":1,\"breadth\":1,\"engagement\":1}```",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, keys := range [][]string{evalKeys, finalKeys} {
			got, err := parseScores(text, keys...)
			if err != nil {
				if !errors.Is(err, ErrInvalid) {
					t.Fatalf("parseScores(%q): %v, want ErrInvalid", text, err)
				}
				continue
			}
			if len(got) != len(keys) {
				t.Fatalf("parseScores(%q) = %v, want exactly %v", text, got, keys)
			}
			for _, k := range keys {
				if v, ok := got[k]; !ok || v < 1 || v > 10 {
					t.Fatalf("parseScores(%q)[%s] = %d, %v: want 1..10", text, k, v, ok)
				}
			}
			plain, _ := json.Marshal(got)
			again, err := parseScores(string(plain), keys...)
			if err != nil || fmt.Sprint(again) != fmt.Sprint(got) {
				t.Fatalf("scores %s read back as %v, %v", plain, again, err)
			}
		}
	})
}

// FuzzScoresRoundTrip writes scores the ways models do (plain, fenced,
// after reasoning, with a reason) and checks they are read back exactly
// when every one is 1..10.
func FuzzScoresRoundTrip(f *testing.F) {
	f.Add(7, 1, 10, uint8(0), "")
	f.Add(0, 5, 11, uint8(1), "too \"rude\"")
	f.Add(-3, 10, 10, uint8(2), "}```")
	f.Fuzz(func(t *testing.T, q, b, e int, style uint8, reason string) {
		obj := map[string]any{"quality": q, "breadth": b, "engagement": e}
		if reason != "" {
			obj["reason"] = reason
		}
		raw, err := json.Marshal(obj)
		if err != nil {
			t.Fatal(err)
		}
		text := string(raw)
		switch style % 4 {
		case 1:
			text = "```json\n" + text + "\n```"
		case 2:
			text = "<think>the partner was " + reason + "</think>\n" + text
		case 3:
			text = "  " + text + "\n\n"
		}
		got, err := parseScores(text, finalKeys...)
		in := func(n int) bool { return n >= 1 && n <= 10 }
		if !in(q) || !in(b) || !in(e) {
			if err == nil {
				t.Fatalf("parseScores(%q) accepted %v", text, got)
			}
			return
		}
		if err != nil {
			t.Fatalf("parseScores(%q): %v", text, err)
		}
		if got["quality"] != q || got["breadth"] != b || got["engagement"] != e {
			t.Fatalf("parseScores(%q) = %v, want %d %d %d", text, got, q, b, e)
		}
	})
}

// FuzzCleanReply cleans arbitrary model replies, plain and in a persona's
// voice. Properties: a refusal is ErrInvalid; an accepted reply is not
// blank, at most MaxReplyRunes characters, holds no reasoning block, and
// (plain) is neither a JSON object nor a protocol command; a persona reply
// never merely echoes the partner's message.
func FuzzCleanReply(f *testing.F) {
	for _, s := range []string{
		"Hello there!", `"Quoted reply."`, "Bot: hi", "<think>long\nreasoning</think>\nSure, cats.",
		"<think>unterminated", "Ada: Postgres.\nUser: why?\nAda: boring tech.", `{"text":"hi","evaluation":5}`,
		"/end", "Bot: /END", `"/start over"`, "**/begin**", "reply: answer: /end", "@ada <@U123> hi",
		"“«'nested'»”", "Bot\v:/END", "   ", strings.Repeat("word ", 1200), "Note: this stays.\nBen: thanks!",
	} {
		f.Add(s, false, "Ada Lovelace", "Should we deploy on Friday?")
	}
	f.Fuzz(func(t *testing.T, text string, persona bool, name, partner string) {
		var got string
		var err error
		if persona {
			req := brain.Request{Persona: &brain.Persona{Name: name}, Turns: []brain.Turn{{Role: brain.Partner, Text: partner}}}
			got, err = cleanPersonaReply(text, req)
		} else {
			got, err = cleanReply(text, false)
		}
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("cleanReply(%q): %v, want ErrInvalid", text, err)
			}
			return
		}
		if strings.TrimSpace(got) == "" {
			t.Fatalf("cleanReply(%q) = %q, blank", text, got)
		}
		if n := utf8.RuneCountInString(got); n > MaxReplyRunes {
			t.Fatalf("cleanReply(%q): %d characters, want at most %d", text, n, MaxReplyRunes)
		}
		if strings.Contains(got, "<think>") {
			t.Fatalf("cleanReply(%q) = %q keeps reasoning", text, got)
		}
		if persona {
			return
		}
		if strings.HasPrefix(got, "{") && json.Valid([]byte(got)) {
			t.Fatalf("cleanReply(%q) = %q is JSON", text, got)
		}
		if command().MatchString(got) || convai.IsCommand(got) {
			t.Fatalf("cleanReply(%q) = %q is a protocol command", text, got)
		}
	})
}

// FuzzParseFinal checks the reader of a model's answer to the router's
// evaluation request: never a panic; an accepted answer has the three
// scores 1..10, its score in the request's range and its profile guess a
// valid index (present exactly when there are candidates); and an answer
// written with valid values is read back exactly.
func FuzzParseFinal(f *testing.F) {
	f.Add(`{"quality":7,"breadth":5,"engagement":9,"score":4,"profile_idx":1}`, 1, 5, uint8(2), 7, 4, 1)
	f.Add("```json\n{\"quality\":7,\"breadth\":5,\"engagement\":9,\"score\":6}\n```", 1, 5, uint8(0), 0, 9, -1)
	f.Add(`{"quality":7,"breadth":5,"engagement":9,"score":3.0,"profile_idx":"0"}`, 3, 3, uint8(3), 10, 3, 2)
	f.Fuzz(func(t *testing.T, text string, lo, hi int, n uint8, q, s, p int) {
		lo, hi = min(max(lo, 1), 100), min(max(hi, 1), 100)
		if lo > hi {
			lo, hi = hi, lo
		}
		j := &brain.Judge{Min: lo, Max: hi}
		for i := range int(n % 5) {
			j.Profiles = append(j.Profiles, []string{strings.Repeat("x", i+1)})
		}
		check := func(text string) (brain.Scores, error) {
			got, err := parseFinal(text, j)
			if err != nil {
				if !errors.Is(err, ErrInvalid) {
					t.Fatalf("parseFinal(%q): %v, want ErrInvalid", text, err)
				}
				return got, err
			}
			for _, v := range []int{got.Quality, got.Breadth, got.Engagement} {
				if v < 1 || v > 10 {
					t.Fatalf("parseFinal(%q) = %+v: a score out of 1..10", text, got)
				}
			}
			if got.Score < lo || got.Score > hi {
				t.Fatalf("parseFinal(%q) score %d, want %d..%d", text, got.Score, lo, hi)
			}
			if (got.Profile != nil) != (len(j.Profiles) > 0) || got.Profile != nil && (*got.Profile < 0 || *got.Profile >= len(j.Profiles)) {
				t.Fatalf("parseFinal(%q) profile %v with %d candidates", text, got.Profile, len(j.Profiles))
			}
			return got, nil
		}
		_, _ = check(text)

		obj := map[string]any{"quality": q, "breadth": 5, "engagement": 5, "score": s}
		if p >= 0 {
			obj["profile_idx"] = p
		}
		raw, _ := json.Marshal(obj)
		got, err := check(string(raw))
		valid := q >= 1 && q <= 10 && s >= lo && s <= hi && (len(j.Profiles) == 0 || p >= 0 && p < len(j.Profiles))
		if valid != (err == nil) {
			t.Fatalf("parseFinal(%s) for %d..%d with %d profiles: %v, want valid %v", raw, lo, hi, len(j.Profiles), err, valid)
		}
		if valid && (got.Quality != q || got.Score != s || len(j.Profiles) > 0 && *got.Profile != p) {
			t.Fatalf("parseFinal(%s) = %+v", raw, got)
		}
	})
}
