package chat

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode"

	"github.com/duetbot/duet/shared/convaisim"
	"github.com/duetbot/duet/shared/transcript"
)

// Options configure a ConvAI chat session.
type Options struct {
	Dialect convaisim.Dialect
	// Context opens each chat with "/start <Context>"; Profile with
	// "/start\n<profile>" (one message). With neither, the first line of
	// each chat is its context.
	Context string
	Profile []string
	// Options are the partner's candidate profiles of the 2018 router's
	// evaluation request.
	Options [][]string
	// JSON prints each bot message exactly as the server receives it (the
	// protocol's JSON, one a line) and nothing else on Out.
	JSON bool
	// Terminal shows a prompt before each line.
	Terminal bool
	// Out receives the bot's messages; Info the notes and protocol
	// violations.
	Out, Info io.Writer
	// Settle is how long a chat's first message waits for stray bot
	// messages (a bot must not answer /start).
	Settle time.Duration
}

// Commands a person may type instead of a partner message.
const (
	cmdBegin = "/begin"
	cmdEnd   = "/end"
	cmdNew   = "/new"
	cmdQuit  = "/quit"
)

// Session is one run of duet chat against the ConvAI bot: chats one after
// another on one Server.
type Session struct {
	opts    Options
	server  *convaisim.Server
	live    *convaisim.LiveChat // the open chat, nil between chats
	cur     *transcript.Chat    // the open chat's transcript
	records []transcript.Chat
	// pending is set while the partner's last message awaits its reply,
	// the last of cur.Turns.
	pending bool
	broke   int // protocol violations seen
	global  int // the server's violations tied to no chat, seen
	// quitting is set once the input has ended: no chat follows.
	quitting bool
	renewing bool // /new: a chat follows at once
}

// NewSession returns a session on server, which must be serving its API to
// the bot (Server.Listen).
func NewSession(server *convaisim.Server, opts Options) *Session {
	if opts.Settle == 0 {
		opts.Settle = 200 * time.Millisecond
	}
	if opts.Info == nil {
		opts.Info = io.Discard
	}
	return &Session{opts: opts, server: server}
}

// Chats returns the transcripts of the chats so far, for
// transcript.WriteConvAI2 (duet chat -save).
func (s *Session) Chats() []transcript.Chat { return s.records }

// Violations is how many protocol violations the bot committed.
func (s *Session) Violations() int { return s.broke }

// Run reads lines from in until it ends (or /quit) and plays them, then
// ends the open chat as the server would.
func (s *Session) Run(ctx context.Context, in io.Reader) error {
	if s.opts.Context != "" || len(s.opts.Profile) > 0 {
		// The server opens the chat before the partner says a word.
		if err := s.open(ctx, ""); err != nil {
			return err
		}
	}
	lines := readLines(in)
	for {
		s.prompt()
		var l inputLine
		var ok bool
		select {
		case <-ctx.Done():
			return s.interrupted(ctx)
		case l, ok = <-lines:
		}
		if l.err != nil {
			return fmt.Errorf("read input: %w", l.err)
		}
		line := strings.TrimSpace(l.text)
		if !ok || line == cmdQuit {
			break
		}
		if err := s.Line(ctx, line); err != nil {
			if ctx.Err() != nil {
				return s.interrupted(ctx)
			}
			return err
		}
	}
	if s.opts.Terminal {
		fmt.Fprintln(s.opts.Out)
	}
	s.quitting = true
	return s.end(ctx)
}

// interrupted ends the open chat after ctx ended (Ctrl-C), as the server
// would, and quits as the end of input does.
func (s *Session) interrupted(ctx context.Context) error {
	end, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if s.opts.Terminal {
		fmt.Fprintln(s.opts.Out)
	}
	s.quitting = true
	return s.end(end)
}

func (s *Session) prompt() {
	if !s.opts.Terminal {
		return
	}
	if s.live == nil && s.opts.Context == "" && len(s.opts.Profile) == 0 {
		fmt.Fprint(s.opts.Out, "context> ")
		return
	}
	fmt.Fprint(s.opts.Out, "you> ")
}

// Line plays one typed line: a command, the context of a new chat, or a
// partner message.
func (s *Session) Line(ctx context.Context, line string) error {
	switch line {
	case "":
		return nil
	case cmdNew:
		s.renewing = true
		err := s.end(ctx)
		s.renewing = false
		if err != nil {
			return err
		}
		if s.opts.Context != "" || len(s.opts.Profile) > 0 {
			return s.open(ctx, "")
		}
		s.note("a new chat: type its context first")
		return nil
	case cmdEnd:
		if s.live == nil {
			s.note("no chat is open")
			return nil
		}
		return s.end(ctx)
	case cmdBegin:
		if s.live == nil {
			if err := s.open(ctx, ""); err != nil {
				return err
			}
		}
		s.turn(transcript.Turn{Command: cmdBegin})
		s.pending = true
		msgs, err := s.live.Begin(ctx)
		return s.after(ctx, msgs, err)
	}
	if s.live == nil {
		usesLine := s.opts.Context == "" && len(s.opts.Profile) == 0
		if usesLine {
			return s.open(ctx, line)
		}
		if err := s.open(ctx, ""); err != nil {
			return err
		}
	}
	s.turn(transcript.Turn{Partner: line})
	s.pending = true
	msgs, err := s.live.Say(ctx, line)
	return s.after(ctx, msgs, err)
}

// open starts a chat: typed is the context typed as its first line, or "".
func (s *Session) open(ctx context.Context, typed string) error {
	s.live = s.server.NewLiveChat(convaisim.LiveOptions{Profile: s.opts.Profile, Options: s.opts.Options})
	now := time.Now()
	s.cur = &transcript.Chat{ChatID: s.live.ID(), Started: now, Last: now, State: transcript.Open}
	if j := s.live.Judge(); j != nil {
		s.cur.Options = j.Profiles
	}
	s.pending = false
	situation := s.opts.Context
	if typed != "" {
		situation = typed
	}
	if rest, ok := strings.CutPrefix(situation, "/start"); ok && (rest == "" || unicode.IsSpace(rune(rest[0]))) {
		situation = strings.TrimSpace(rest) // typed as the server sends it
	}
	s.cur.Context = situation
	if len(s.opts.Profile) > 0 {
		s.cur.Context = strings.Join(s.opts.Profile, "\n")
	}
	start := "/start"
	switch {
	case len(s.opts.Profile) > 0:
		start += "\n" + strings.Join(s.opts.Profile, "\n")
	case situation != "" && s.opts.Dialect == convaisim.Dialect2018:
		start += "\n" + situation
	case situation != "":
		start += " " + situation
	}
	s.note("chat %d opened: %s", s.live.ID(), strings.ReplaceAll(start, "\n", " | "))
	msgs, err := s.live.Start(ctx, start, s.opts.Settle)
	return s.after(ctx, msgs, err)
}

// end ends the open chat as the server would and keeps its transcript.
func (s *Session) end(ctx context.Context) error {
	if s.live == nil {
		return nil
	}
	msgs, err := s.live.End(ctx)
	s.show(msgs)
	s.violations()
	s.cur.Last = time.Now()
	if s.cur.Final != nil {
		s.cur.State = transcript.Ended
	}
	s.records = append(s.records, *s.cur)
	s.live, s.cur = nil, nil
	if err != nil {
		s.note("the chat ended without the bot's final: %v", err)
	}
	if s.opts.Terminal && !s.quitting && !s.renewing {
		s.note("the chat is over: the next line starts a new one (Ctrl-D: quit)")
	}
	return ctx.Err()
}

// after shows the bot's messages of a turn; a bot that ended the chat
// itself gets the server's end.
func (s *Session) after(ctx context.Context, msgs []string, err error) error {
	s.show(msgs)
	s.violations()
	if err != nil {
		s.note("%v", err)
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	if s.live != nil && s.live.Ended() {
		s.note("the bot ended the chat")
		return s.end(ctx)
	}
	return nil
}

func (s *Session) violations() {
	global := s.server.GlobalViolations(s.global)
	s.global += len(global)
	var chat []string
	if s.live != nil {
		chat = s.live.Violations()
	}
	for _, v := range append(global, chat...) {
		s.broke++
		fmt.Fprintf(s.opts.Info, "duet chat: PROTOCOL: %s\n", v)
	}
}

func (s *Session) note(format string, args ...any) {
	fmt.Fprintf(s.opts.Info, "duet chat: "+format+"\n", args...)
}

// turn adds t to the open chat's transcript, at the time it happens.
func (s *Session) turn(t transcript.Turn) {
	t.At, t.Delivered, t.FinalDelivered = time.Now(), true, true
	t.Seq = int64(len(s.cur.Turns))
	s.cur.Turns = append(s.cur.Turns, t)
}
