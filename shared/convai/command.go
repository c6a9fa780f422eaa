package convai

import (
	"strings"

	"github.com/duetbot/duet/shared/brain"
)

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

func isSpace(r rune) bool { return r == ' ' || r == '\n' || r == '\t' || r == '\r' }
