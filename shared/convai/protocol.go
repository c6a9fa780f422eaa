package convai

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
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
		return Command{Kind: End, Arg: rest}
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
var decoration = regexp.MustCompile("^(?:\\s|[\"'\u201c\u201d\u2018\u2019\u00ab\u00bb`*_>~]|(?s:<think>.*?</think>)|(?i:bot|assistant|ai|reply|answer)\\s*:)+")

// trailing is decoration that may close a reply: quotes and markup.
var trailing = regexp.MustCompile("(?:\\s|[\"'\u201c\u201d\u2018\u2019\u00ab\u00bb`*_~])+$")

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
	r := Reply{Text: strings.TrimSpace(text)}
	if rating != 0 {
		v := brain.Clamp(rating)
		r.Evaluation = &v
	}
	for {
		msg := mustJSON(r)
		over := utf8.RuneCountInString(msg) - MaxTextLen
		if over <= 0 {
			return msg
		}
		// One character takes up to 6 once escaped (\u00XX): cutting over/6
		// never cuts more than needed, and the loop converges quickly.
		r.Text = truncate(r.Text, utf8.RuneCountInString(r.Text)-max(over/6, 1))
	}
}

// EncodeFinal returns the inner JSON of the last message of a chat.
func EncodeFinal(s brain.Scores) string {
	return mustJSON(Final{Text: "/end", Evaluation: brain.Scores{
		Quality:    brain.Clamp(s.Quality),
		Breadth:    brain.Clamp(s.Breadth),
		Engagement: brain.Clamp(s.Engagement),
	}})
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
		return true, nil
	}
	if strings.TrimSpace(text) == "" {
		return false, errors.New(`"text" is empty`)
	}
	if !hasEval {
		if requireEval {
			return false, errors.New(`"evaluation" is missing`)
		}
		return false, nil
	}
	if err := checkScore(ev); err != nil {
		return false, fmt.Errorf(`"evaluation": %v`, err)
	}
	return false, nil
}

func checkScore(raw json.RawMessage) error {
	if len(raw) == 0 {
		return errors.New("missing")
	}
	if raw[0] == '"' {
		return fmt.Errorf("got %s, want an integer", raw)
	}
	var n json.Number
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&n); err != nil {
		return fmt.Errorf("got %s, want an integer", raw)
	}
	v, err := n.Int64()
	if err != nil {
		return fmt.Errorf("got %s, want an integer", raw)
	}
	if v < 1 || v > 10 {
		return fmt.Errorf("got %d, want 1..10", v)
	}
	return nil
}

// goodbyes are phrases by which a partner clearly ends a conversation.
var goodbyes = []string{
	"goodbye", "good bye", "bye", "bye bye", "byebye", "see you", "see ya", "farewell",
	"gotta go", "got to go", "have to go", "i must go", "need to go", "talk to you later",
	"talk later", "ttyl", "good night", "cya", "later",
}

// IsGoodbye reports whether the partner's text clearly says goodbye: a
// farewell phrase that makes up the message or closes it.
func IsGoodbye(text string) bool {
	t := strings.ToLower(strings.TrimSpace(text))
	t = strings.TrimRight(t, " !.?,:;)(")
	if t == "" {
		return false
	}
	// Look only at the last sentence: "bye" inside a question is not a farewell.
	if i := strings.LastIndexAny(t, ".!?\n"); i >= 0 {
		t = strings.TrimSpace(t[i+1:])
	}
	words := strings.FieldsFunc(t, func(r rune) bool { return !(r == '\'' || r >= 'a' && r <= 'z') })
	joined := " " + strings.Join(words, " ") + " "
	for _, g := range goodbyes {
		if strings.HasSuffix(joined, " "+g+" ") || (len(words) <= 4 && strings.Contains(joined, " "+g+" ")) {
			if g == "later" && len(words) > 2 {
				continue // "later" alone or "see you later", not "I will do it later"
			}
			return true
		}
	}
	return false
}
