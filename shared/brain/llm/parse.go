package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/embed"
)

// MaxReplyRunes caps a reply: the ConvAI protocol's message limit.
const MaxReplyRunes = 4096

// ErrInvalid is returned (wrapped) when the model's answer is not what was
// asked for: an empty reply, or an evaluation that does not validate.
var ErrInvalid = errors.New("invalid model output")

// compileOnce returns expr's regexp, compiled at its first use: a Lambda
// function on the offline brain (the default) never needs these, and
// compiling them, their Unicode classes above all, was 0.7 ms of every
// telegram and annex cold start.
func compileOnce(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// command matches a reply a server might read as a command even where
// convai.IsCommand does not: a model asked to end the chat, or a partner
// who talked it into "/end", behind any markup and speaker labels
// ("Answer: Bot: /end") and before any word boundary ("**/start** again").
var command = compileOnce("(?i)^(?:[^\\pL\\pN/]|(?:bot|assistant|ai|reply|answer)\\s*:)*/+(start|begin|end)(?:\\b|_[\\s\"'\u201c\u201d\u2018\u2019\u00ab\u00bb`*_~]*$)")

var fence = compileOnce("(?s)^```[a-zA-Z]*\\s*(.*?)\\s*```$")

// parseScores reads a JSON object holding each of keys as an integer 1..10.
// The object may sit in a ``` fence, and may hold other keys (models like
// to add a "reason"); anything else around it, a missing key, a string, a
// fraction or a number out of range is invalid.
func parseScores(text string, keys ...string) (map[string]int, error) {
	obj, err := answerObject(text)
	if err != nil {
		return nil, err
	}
	return scoresOf(obj, keys...)
}

// answerObject reads the one JSON object a model answered with, maybe in
// a ``` fence, after any reasoning block.
func answerObject(text string) (map[string]json.RawMessage, error) {
	text = strings.TrimSpace(stripThinking(text))
	if m := fence().FindStringSubmatch(text); m != nil {
		text = m[1]
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var obj map[string]json.RawMessage
	if err := dec.Decode(&obj); err != nil || obj == nil {
		return nil, fmt.Errorf("%w: not a JSON object", ErrInvalid)
	}
	if strings.TrimSpace(text[dec.InputOffset():]) != "" {
		return nil, fmt.Errorf("%w: text after the JSON object", ErrInvalid)
	}
	return obj, nil
}

// parseFinal reads the model's whole-chat evaluation: quality, breadth and
// engagement, each 1..10, and for the router's request j (when set) a
// "score" in j.Min..j.Max and, when j lists candidates, a "profile_idx"
// that is one of their indexes. Anything else is invalid, so that the
// caller retries or falls back.
func parseFinal(text string, j *brain.Judge) (brain.Scores, error) {
	obj, err := answerObject(text)
	if err != nil {
		return brain.Scores{}, err
	}
	m, err := scoresOf(obj, "quality", "breadth", "engagement")
	if err != nil {
		return brain.Scores{}, err
	}
	s := brain.Scores{Quality: m["quality"], Breadth: m["breadth"], Engagement: m["engagement"]}
	if j == nil {
		return s, nil
	}
	if s.Score, err = wholeIn(obj["score"], j.Min, j.Max); err != nil {
		return brain.Scores{}, fmt.Errorf("%w: %q: %v", ErrInvalid, "score", err)
	}
	if len(j.Profiles) > 0 {
		i, err := wholeIn(obj["profile_idx"], 0, len(j.Profiles)-1)
		if err != nil {
			return brain.Scores{}, fmt.Errorf("%w: %q: %v", ErrInvalid, "profile_idx", err)
		}
		s.Profile = &i
	}
	return s, nil
}

// scoresOf reads each of keys from obj as an integer 1..10.
func scoresOf(obj map[string]json.RawMessage, keys ...string) (map[string]int, error) {
	out := make(map[string]int, len(keys))
	for _, k := range keys {
		raw, ok := obj[k]
		if !ok {
			return nil, fmt.Errorf("%w: no %q", ErrInvalid, k)
		}
		n, err := score(raw)
		if err != nil {
			return nil, fmt.Errorf("%w: %q: %v", ErrInvalid, k, err)
		}
		out[k] = n
	}
	return out, nil
}

// score reads a JSON number that is a whole number 1..10 (7 or 7.0).
func score(raw json.RawMessage) (int, error) { return wholeIn(raw, 1, 10) }

// wholeIn reads a JSON number that is a whole number in lo..hi.
func wholeIn(raw json.RawMessage, lo, hi int) (int, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || (raw[0] != '-' && (raw[0] < '0' || raw[0] > '9')) {
		return 0, errors.New("not a number")
	}
	var f float64
	if err := json.Unmarshal(raw, &f); err != nil {
		return 0, errors.New("not a number")
	}
	if f != math.Trunc(f) {
		return 0, errors.New("not an integer")
	}
	if f < float64(lo) || f > float64(hi) {
		return 0, fmt.Errorf("out of %d..%d", lo, hi)
	}
	return int(f), nil
}

var (
	thinking     = compileOnce(`(?s)<think>.*?</think>`)
	otherSpeaker = compileOnce(`(?im)^\s*(partner|user|human)\s*:`)
	// speakerLabel is a line opening with one word and a colon: "Ben: …".
	speakerLabel = compileOnce(`^\s*([\p{L}][\p{L}\p{N}_.\-]{0,31})\s*:(\s|$)`)
)

// speakers are the labels that always mark a dialogue turn.
var speakers = []string{"partner", "user", "human", "bot", "assistant"}

// quotes are the pairs a model may wrap its whole reply in.
var quotes = [][2]string{{`"`, `"`}, {"“", "”"}, {"«", "»"}, {"'", "'"}, {"„", "“"}}

// cleanReply turns a model's answer into a chat message: reasoning
// (<think>…</think>) dropped, a "Bot:"-style label and wrapping quotes
// removed, any continuation of the dialogue in another speaker's name cut,
// mentions defused when persona is set, and the length capped. labels are
// the names the model may have prefixed its reply with (the persona's).
func cleanReply(text string, persona bool, labels ...string) (string, error) {
	s := strings.TrimSpace(stripThinking(text))
	if persona {
		s = cutSpeakers(s, labels)
	}
	if loc := otherSpeaker().FindStringIndex(s); loc != nil && loc[0] > 0 {
		s = strings.TrimSpace(s[:loc[0]])
	}
	labels = append([]string{"Bot", "Assistant", "AI", "Reply", "Answer"}, labels...)
	s = stripLabel(s, labels)
	for _, q := range quotes {
		if inner, ok := strings.CutPrefix(s, q[0]); ok {
			if inner, ok = strings.CutSuffix(inner, q[1]); ok && !strings.Contains(inner, q[0]) && !strings.Contains(inner, q[1]) {
				s = stripLabel(strings.TrimSpace(inner), labels)
				break
			}
		}
	}
	if persona {
		s = brain.StripMentions(s)
	}
	if utf8.RuneCountInString(s) > MaxReplyRunes {
		s = strings.TrimSpace(cut(s, MaxReplyRunes))
	}
	if s == "" {
		return "", fmt.Errorf("%w: empty reply", ErrInvalid)
	}
	if !persona && strings.HasPrefix(s, "{") && json.Valid([]byte(s)) {
		return "", fmt.Errorf("%w: JSON instead of a chat message", ErrInvalid)
	}
	if !persona && (command().MatchString(s) || convai.IsCommand(s)) {
		return "", fmt.Errorf("%w: a protocol command instead of a chat message", ErrInvalid)
	}
	return s, nil
}

// cleanPersonaReply is cleanReply for a reply in req.Persona's voice, which
// must also not merely repeat the message it answers: an echo is invalid
// output, so that the persona fallback answers instead.
func cleanPersonaReply(text string, req brain.Request) (string, error) {
	var labels []string
	if req.Persona != nil {
		name := strings.TrimSpace(req.Persona.Name)
		labels = append(labels, name, strings.Split(name, " ")[0])
	}
	s, err := cleanReply(text, true, labels...)
	if err != nil {
		return "", err
	}
	if msg, ok := req.LastPartner(); ok && embed.Echoes(s, msg) {
		return "", fmt.Errorf("%w: the reply echoes the message", ErrInvalid)
	}
	return s, nil
}

// cutSpeakers cuts a persona reply where the model went on writing the
// dialogue: at the first later line labelled with a known name (names, or
// a generic speaker such as "User"). Once the reply shows such a label —
// on any line, its own first included — it is a transcript, and a later
// line opening with any one word and a colon ("Ben: thanks!") is another
// speaker too; without one, "Note: …" is just text and is kept.
func cutSpeakers(s string, names []string) string {
	var known []string
	for _, n := range append(append([]string(nil), speakers...), names...) {
		if n = strings.TrimSpace(n); n != "" {
			known = append(known, n)
		}
	}
	lines := strings.Split(s, "\n")
	// knownLabel reports whether line opens with a known name and a colon;
	// names may be several words ("Ada Lovelace:").
	knownLabel := func(line string) bool {
		line = strings.TrimLeft(line, " \t")
		for _, n := range known {
			if len(line) > len(n) && strings.EqualFold(line[:len(n)], n) &&
				strings.HasPrefix(strings.TrimLeft(line[len(n):], " \t"), ":") {
				return true
			}
		}
		return false
	}
	label := func(line string) bool { return knownLabel(line) || speakerLabel().MatchString(line) }
	dialogue := false
	for _, l := range lines {
		if knownLabel(l) {
			dialogue = true
			break
		}
	}
	if !dialogue {
		return s
	}
	for i := 1; i < len(lines); i++ {
		if label(lines[i]) {
			return strings.TrimSpace(strings.Join(lines[:i], "\n"))
		}
	}
	return s
}

// stripThinking drops reasoning blocks some open models write before their
// answer; an unterminated one leaves nothing.
func stripThinking(s string) string {
	s = thinking().ReplaceAllString(s, "")
	if i := strings.Index(s, "<think>"); i >= 0 {
		s = s[:i]
	}
	return s
}

// stripLabel removes one leading "label:" (case-insensitive) from s.
func stripLabel(s string, labels []string) string {
	for _, l := range labels {
		l = strings.TrimSpace(l)
		if l == "" || len(s) <= len(l) {
			continue
		}
		if strings.EqualFold(s[:len(l)], l) {
			if rest, ok := strings.CutPrefix(strings.TrimLeftFunc(s[len(l):], unicode.IsSpace), ":"); ok {
				return strings.TrimSpace(rest)
			}
		}
	}
	return s
}
