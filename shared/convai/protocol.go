package convai

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/duetbot/duet/shared/brain"
)

// MaxTextLen is the most characters Telegram (and so the ConvAI servers)
// accept in one message's text.
const MaxTextLen = 4096

// Kind is what a server message means.
type Kind int

// The kinds of server message.
const (
	Text  Kind = iota // the partner's words
	Start             // /start <context>: a new chat
	Begin             // /begin: the bot speaks first
	End               // /end [reason]: the chat is over
)

func (k Kind) String() string {
	switch k {
	case Start:
		return "start"
	case Begin:
		return "begin"
	case End:
		return "end"
	}
	return "text"
}

// Command is a parsed server message.
type Command struct {
	Kind Kind
	// Arg is the context of /start, the reason of /end, or the text itself.
	Arg string
	// Begin is set on a /start whose last line is /begin: the bot must
	// reply to the context at once.
	Begin bool
	// Judge is set on an /end that carries the 2018 router's evaluation
	// request ("/end 1 5\n/profile_0\n…"). When that request is
	// malformed, Judge asks for 1..5 without candidates and JudgeErr says
	// what was wrong: the chat still ends.
	Judge    *brain.Judge
	JudgeErr error
}

// Parse reads a server message. Commands match as prefixes followed by
// white space or the end of the text (the 2018 router sends "/start\n…"
// and "/end 1 5\n…"), and may carry Telegram's @botname suffix.
func Parse(text string) Command {
	t := strings.TrimSpace(text)
	name, rest, ok := command(t)
	if !ok {
		return Command{Kind: Text, Arg: t}
	}
	switch name {
	case "start":
		ctx := rest
		begin := false
		lines := strings.Split(ctx, "\n")
		if last := strings.TrimSpace(lines[len(lines)-1]); len(lines) > 0 && isBegin(last) {
			begin = true
			ctx = strings.TrimSpace(strings.Join(lines[:len(lines)-1], "\n"))
		}
		return Command{Kind: Start, Arg: ctx, Begin: begin}
	case "begin":
		return Command{Kind: Begin, Arg: rest}
	case "end":
		j, err := ParseJudge(rest)
		return Command{Kind: End, Arg: rest, Judge: j, JudgeErr: err}
	}
	return Command{Kind: Text, Arg: t}
}

func isBegin(line string) bool {
	name, rest, ok := command(line)
	return ok && name == "begin" && rest == ""
}

// command splits "/name@bot rest" into name and trimmed rest.
func command(t string) (name, rest string, ok bool) {
	if !strings.HasPrefix(t, "/") {
		return "", "", false
	}
	end := strings.IndexFunc(t, isSpace)
	head := t
	if end >= 0 {
		head, rest = t[:end], strings.TrimSpace(t[end:])
	}
	head = strings.TrimPrefix(head, "/")
	if at := strings.IndexByte(head, '@'); at >= 0 {
		head = head[:at]
	}
	head = strings.ToLower(head)
	switch head {
	case "start", "begin", "end":
		return head, rest, true
	}
	return "", "", false
}

// decoration is what may stand before a reply's words without changing
// how a server reads it: white space, quotes, markup, a model's hidden
// reasoning or a speaker label.
var decoration = regexp.MustCompile("^(?:[\\s\\v\\p{Z}\u0085]|[\"'\u201c\u201d\u2018\u2019\u00ab\u00bb`*_>~]|(?s:<think>.*?</think>)|(?i:bot|assistant|ai|reply|answer)[\\s\\v\\p{Z}\u0085]*:)+")

// trailing is decoration that may close a reply: quotes and markup.
var trailing = regexp.MustCompile("(?:[\\s\\v\\p{Z}\u0085]|[\"'\u201c\u201d\u2018\u2019\u00ab\u00bb`*_~])+$")

// undecorate returns text without its decoration and with at most one
// leading slash.
func undecorate(text string) string {
	t := trailing.ReplaceAllString(decoration.ReplaceAllString(text, ""), "")
	if bare := strings.TrimLeft(t, "/"); len(bare) < len(t) {
		return "/" + bare
	}
	return t
}

// IsCommand reports whether a reply would be read as a protocol command:
// once stripped of quotes, markup, hidden reasoning, a speaker label and
// extra slashes, it starts with /start, /begin or /end.
func IsCommand(text string) bool {
	return Parse(undecorate(text)).Kind != Text
}

// Defuse returns text unchanged unless it reads as a command; then it
// returns it without the decoration and the slashes, so that only the
// bot's own final ever ends a chat.
func Defuse(text string) string {
	if !IsCommand(text) {
		return text
	}
	return strings.TrimLeft(undecorate(text), "/")
}

func isSpace(r rune) bool { return r == ' ' || r == '\n' || r == '\t' || r == '\r' }

// Reply is the JSON a bot sends for every message but the last.
type Reply struct {
	Text string `json:"text"`
	// Evaluation rates the partner's last message, 1..10. It is omitted
	// only on the reply to the context (after /begin).
	Evaluation *int `json:"evaluation,omitempty"`
	// MsgEvaluation repeats Evaluation for the 2018 router, which reads
	// only this key (the 2017 server ignores it).
	MsgEvaluation *int `json:"msg_evaluation,omitempty"`
}

// Final is the JSON of the last message of every chat.
type Final struct {
	Text       string       `json:"text"` // always "/end"
	Evaluation brain.Scores `json:"evaluation"`
}

// EncodeReply returns the JSON message of a reply; rating 0 means no
// evaluation. The text is cut so that the whole message, JSON included,
// stays within MaxTextLen characters.
func EncodeReply(text string, rating int) string {
	text = strings.TrimSpace(text)
	if rating != 0 {
		rating = brain.Clamp(rating)
	}
	var buf [512]byte // most replies: encoded on the stack, one allocation
	for {
		msg := appendReply(buf[:0], text, rating)
		over := utf8.RuneCount(msg) - MaxTextLen
		if over <= 0 {
			return string(msg)
		}
		// One character takes up to 6 once escaped (\u00XX): cutting over/6
		// never cuts more than needed, and the loop converges quickly.
		text = truncate(text, utf8.RuneCountInString(text)-max(over/6, 1))
	}
}

// appendReply appends the JSON of Reply{text, rating, rating} (no
// evaluation for rating 0) as mustJSON writes it, without reflection.
func appendReply(b []byte, text string, rating int) []byte {
	b = append(b, `{"text":`...)
	b = appendString(b, text)
	if rating != 0 {
		b = append(b, `,"evaluation":`...)
		b = strconv.AppendInt(b, int64(rating), 10)
		b = append(b, `,"msg_evaluation":`...)
		b = strconv.AppendInt(b, int64(rating), 10)
	}
	return append(b, '}')
}

// appendString appends s as a JSON string the way encoding/json does
// without HTML escaping: invalid UTF-8 becomes U+FFFD; control
// characters, U+2028 and U+2029 are escaped.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// EncodeFinal returns the inner JSON of the last message of a chat: the
// 2017 server's three scores, and the router's score and profile guess as
// SettleFinal left them (a score of 0 is derived from quality in 1..5, so
// that the key is always there; a negative guess is left out).
func EncodeFinal(s brain.Scores) string {
	e := brain.Scores{
		Quality:    brain.Clamp(s.Quality),
		Breadth:    brain.Clamp(s.Breadth),
		Engagement: brain.Clamp(s.Engagement),
		Score:      s.Score,
	}
	if e.Score == 0 {
		e.Score = scaleScore(e.Quality, DefaultJudge.Min, DefaultJudge.Max)
	}
	if s.Profile != nil && *s.Profile >= 0 {
		i := *s.Profile
		e.Profile = &i
	}
	return mustJSON(Final{Text: "/end", Evaluation: e})
}

// SettleFinal returns the evaluator's scores made valid for the request j
// (nil: no request, 1..5 without candidates): the three 2017 scores in
// 1..10; the score in j's range, derived from quality when the evaluator
// gave none; the profile guess a valid index of j's candidates (0 when the
// evaluator made none), and no guess without candidates.
func SettleFinal(s brain.Scores, j *brain.Judge) brain.Scores {
	if j == nil {
		j = &DefaultJudge
	}
	lo, hi := j.Min, max(j.Max, j.Min)
	out := brain.Scores{
		Quality:    brain.Clamp(s.Quality),
		Breadth:    brain.Clamp(s.Breadth),
		Engagement: brain.Clamp(s.Engagement),
	}
	if s.Score == 0 {
		out.Score = scaleScore(out.Quality, lo, hi)
	} else {
		out.Score = min(max(s.Score, lo), hi)
	}
	if n := len(j.Profiles); n > 0 {
		i := 0
		if s.Profile != nil {
			i = min(max(*s.Profile, 0), n-1)
		}
		out.Profile = &i
	}
	return out
}

// scaleScore maps a 1..10 rating linearly onto lo..hi, rounding to nearest.
func scaleScore(q, lo, hi int) int {
	q = brain.Clamp(q)
	return lo + ((q-1)*(hi-lo)*2+9)/18
}

// DefaultJudge is the evaluation the router's shipped configuration asks
// for, used when an /end carries no request or a malformed one: a score in
// 1..5 and no candidate profiles.
var DefaultJudge = brain.Judge{Min: 1, Max: 5}

// Bounds of an evaluation request this bot accepts: the router's range is
// 1 5; anything far outside small positive integers is not a request.
const (
	maxJudgeScore    = 100 // highest hi
	maxJudgeProfiles = 32  // candidate profiles
	maxProfileLines  = 32  // sentences of one profile
)

// ParseJudge reads the part of an /end message after the command: the
// 2018 router's evaluation request "<lo> <hi>\n/profile_0\n<sentences…>
// \n/profile_1\n…". It returns nil and no error when rest is no request
// (empty, or a 2017 reason such as "Invalid JSON"). A malformed request
// returns DefaultJudge and an error saying why. Blank lines, surrounding
// white space and CRLF line ends are tolerated; the profile blocks must be
// numbered from 0 in order and each hold at least one sentence.
func ParseJudge(rest string) (*brain.Judge, error) {
	rest = strings.ReplaceAll(rest, "\r\n", "\n")
	rest = strings.ReplaceAll(rest, "\r", "\n")
	lines := strings.Split(strings.TrimSpace(rest), "\n")
	first := strings.Fields(lines[0])
	if len(first) == 0 {
		return nil, nil
	}
	_, numErr := strconv.Atoi(first[0])
	if numErr != nil && !strings.HasPrefix(first[0], "/profile") && !strings.Contains(rest, "\n/profile") {
		return nil, nil // a reason, not a request
	}
	fail := func(format string, a ...any) (*brain.Judge, error) {
		d := DefaultJudge
		return &d, fmt.Errorf("evaluation request: "+format, a...)
	}
	if len(first) != 2 {
		return fail("first line %q: want two integers lo hi", truncate(lines[0], 40))
	}
	lo, err1 := strconv.Atoi(first[0])
	hi, err2 := strconv.Atoi(first[1])
	switch {
	case err1 != nil || err2 != nil:
		return fail("first line %q: want two integers lo hi", truncate(lines[0], 40))
	case lo < 1 || hi > maxJudgeScore || lo > hi:
		return fail("score range %d..%d: want 1 <= lo <= hi <= %d", lo, hi, maxJudgeScore)
	}
	j := &brain.Judge{Min: lo, Max: hi}
	for _, line := range lines[1:] {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if name, ok := strings.CutPrefix(line, "/profile_"); ok {
			name, inline, _ := strings.Cut(strings.ReplaceAll(name, "\t", " "), " ") // tolerate "/profile_0 i like cats."
			n, err := strconv.Atoi(name)
			if err != nil || n != len(j.Profiles) {
				return fail("%q: want /profile_%d", truncate(line, 40), len(j.Profiles))
			}
			if n > 0 && len(j.Profiles[n-1]) == 0 {
				return fail("/profile_%d has no sentences", n-1)
			}
			if n >= maxJudgeProfiles {
				return fail("more than %d profiles", maxJudgeProfiles)
			}
			j.Profiles = append(j.Profiles, nil)
			if line = strings.TrimSpace(inline); line == "" {
				continue
			}
			if strings.HasPrefix(line, "/profile_") {
				return fail("%q: two profile headers on one line", truncate(line, 40))
			}
		}
		if len(j.Profiles) == 0 {
			return fail("text %q before /profile_0", truncate(line, 40))
		}
		p := &j.Profiles[len(j.Profiles)-1]
		if len(*p) >= maxProfileLines {
			return fail("/profile_%d has more than %d sentences", len(j.Profiles)-1, maxProfileLines)
		}
		*p = append(*p, line)
	}
	if n := len(j.Profiles); n > 0 && len(j.Profiles[n-1]) == 0 {
		return fail("/profile_%d has no sentences", n-1)
	}
	return j, nil
}

// FormatJudge returns the /end message by which the 2018 router asks for
// the final evaluation j; ParseJudge reads it back.
func FormatJudge(j brain.Judge) string {
	var b strings.Builder
	fmt.Fprintf(&b, "/end %d %d", j.Min, j.Max)
	for i, p := range j.Profiles {
		fmt.Fprintf(&b, "\n/profile_%d", i)
		for _, line := range p {
			b.WriteString("\n")
			b.WriteString(line)
		}
	}
	return b.String()
}

func mustJSON(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // only strings and ints: cannot fail
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// truncateBytes cuts s to at most n bytes, on a character boundary.
func truncateBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n])
}

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

// goodbyes are phrases by which a partner clearly ends a conversation.
var goodbyes = []string{
	"goodbye", "good bye", "bye", "bye bye", "byebye", "see you", "see ya", "farewell",
	"gotta go", "got to go", "have to go", "i must go", "need to go", "talk to you later",
	"talk later", "ttyl", "good night", "cya", "later",
}

// paddedGoodbyes are the goodbyes with a space either side, as they are
// found among the words.
var paddedGoodbyes = func() [][]byte {
	out := make([][]byte, len(goodbyes))
	for i, g := range goodbyes {
		out[i] = []byte(" " + g + " ")
	}
	return out
}()

// IsGoodbye reports whether the partner's text clearly says goodbye: a
// farewell phrase that makes up the message or closes it.
func IsGoodbye(text string) bool {
	// A short ASCII text, the partner's usual message, is lower-cased on
	// the stack: no allocation.
	var stack [256]byte
	lower := stack[:0]
	for i := range len(text) {
		c := text[i]
		if c >= utf8.RuneSelf || i == len(stack) {
			// strings.ToLower, since lower-casing some other runes gives
			// ASCII letters (the Kelvin sign, K).
			lower = []byte(strings.ToLower(text))
			break
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		lower = append(lower, c)
	}
	return saysGoodbye(lower)
}

// saysGoodbye is IsGoodbye of a lower-cased text.
func saysGoodbye(t []byte) bool {
	t = bytes.TrimRight(bytes.TrimSpace(t), " !.?,:;)(")
	if len(t) == 0 {
		return false
	}
	// Look only at the last sentence: "bye" inside a question is not a farewell.
	if i := bytes.LastIndexAny(t, ".!?\n"); i >= 0 {
		t = bytes.TrimSpace(t[i+1:])
	}
	// The words (runs of a-z and apostrophes), each with a space either
	// side: " w1 w2 … wn ".
	var buf [258]byte
	joined := buf[:0]
	if len(t)+2 > len(buf) {
		joined = make([]byte, 0, len(t)+2)
	}
	joined, words, in := append(joined, ' '), 0, false
	for _, c := range t {
		if c == '\'' || 'a' <= c && c <= 'z' {
			if !in {
				words++
			}
			joined, in = append(joined, c), true
		} else if in {
			joined, in = append(joined, ' '), false
		}
	}
	if in || words == 0 {
		joined = append(joined, ' ')
	}
	for i, g := range paddedGoodbyes {
		if bytes.HasSuffix(joined, g) || (words <= 4 && bytes.Contains(joined, g)) {
			if goodbyes[i] == "later" && words > 2 {
				continue // "later" alone or "see you later", not "I will do it later"
			}
			return true
		}
	}
	return false
}
