package chat

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/duetbot/duet/shared/annex"
)

// AnnexBot answers the hive's requests: the annex engine in-process, or an
// endpoint.Client for a running bot.
type AnnexBot interface {
	Ask(ctx context.Context, req annex.Request) (string, error)
}

// AnnexAsker adapts the in-process annex engine to AnnexBot.
type AnnexAsker struct{ Engine *annex.Engine }

// Ask answers req with the engine.
func (a AnnexAsker) Ask(ctx context.Context, req annex.Request) (string, error) {
	resp, err := a.Engine.Answer(ctx, req)
	return resp.Message, err
}

// The partner's ids in the requests, and the conversation's.
const (
	AnnexUserID         = "duet-chat-user"
	AnnexUsername       = "you"
	AnnexConversationID = "duet-chat"
)

// AnnexOptions configure an annex chat.
type AnnexOptions struct {
	// Person is the name of the person the bot emulates, for the prompt.
	Person string
	// JSON prints each answer as the bot's response body, one a line, and
	// nothing else on Out.
	JSON     bool
	Terminal bool
	Out      io.Writer
	Info     io.Writer
	// Now stamps the messages; nil: time.Now.
	Now func() time.Time
}

// AnnexSession is a conversation with the annex bot: each line a message
// to the person, sent as the hive would, with everything said before in
// context and the earlier exchanges in conversation.
type AnnexSession struct {
	bot  AnnexBot
	opts AnnexOptions
	said []annex.Message // the conversation so far, the bot's as "BOT"
	next int
}

// NewAnnexSession returns a conversation with bot.
func NewAnnexSession(bot AnnexBot, opts AnnexOptions) *AnnexSession {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Info == nil {
		opts.Info = io.Discard
	}
	return &AnnexSession{bot: bot, opts: opts}
}

// Request is the request the hive sends for text after what was said.
func (a *AnnexSession) Request(text string) annex.Request {
	a.next++
	msg := annex.Message{From: AnnexUserID, ID: "m" + strconv.Itoa(a.next), Text: text,
		Timestamp: a.opts.Now().UTC().Format(time.RFC3339)}
	req := annex.Request{
		Context: append([]annex.Message{}, a.said...),
		Message: msg,
		Users:   []annex.User{{ID: AnnexUserID, Username: AnnexUsername}},
	}
	if len(a.said) > 0 {
		req.Conversation = annex.Conversations{{ID: AnnexConversationID, Messages: append([]annex.Message{}, a.said...)}}
	}
	return req
}

// Say sends text to the person and returns the reply, which joins the
// conversation.
func (a *AnnexSession) Say(ctx context.Context, text string) (string, error) {
	req := a.Request(text)
	reply, err := a.bot.Ask(ctx, req)
	if err != nil {
		a.next--
		return "", err
	}
	a.next++
	a.said = append(a.said, req.Message, annex.Message{From: annex.BotFrom, ID: "m" + strconv.Itoa(a.next),
		Text: reply, Timestamp: a.opts.Now().UTC().Format(time.RFC3339)})
	return reply, nil
}

// Run reads one message a line from in until it ends (or /quit), and shows
// each reply. /new forgets the conversation.
func (a *AnnexSession) Run(ctx context.Context, in io.Reader) error {
	lines := readLines(in)
	for {
		a.prompt()
		var line string
		select {
		case <-ctx.Done():
			return ctx.Err()
		case l, ok := <-lines:
			if !ok {
				if a.opts.Terminal {
					fmt.Fprintln(a.opts.Out)
				}
				return nil
			}
			line = strings.TrimSpace(l.text)
			if l.err != nil {
				return fmt.Errorf("read input: %w", l.err)
			}
		}
		switch line {
		case "":
			continue
		case cmdQuit:
			return nil
		case cmdNew:
			a.said, a.next = nil, 0
			fmt.Fprintln(a.opts.Info, "duet chat: a new conversation")
			continue
		}
		reply, err := a.Say(ctx, line)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			fmt.Fprintf(a.opts.Info, "duet chat: the annex bot failed: %v\n", err)
			continue
		}
		if a.opts.JSON {
			b, _ := json.Marshal(annex.Response{Message: reply})
			fmt.Fprintln(a.opts.Out, string(b))
			continue
		}
		fmt.Fprintf(a.opts.Out, "%s: %s\n", a.opts.Person, reply)
	}
}

func (a *AnnexSession) prompt() {
	if a.opts.Terminal {
		fmt.Fprint(a.opts.Out, "you> ")
	}
}

// inputLine is one line read, or the error that ended the input.
type inputLine struct {
	text string
	err  error
}

// readLines reads in line by line on its own goroutine, so that a reader
// can stop waiting for input when its context ends. The channel closes at
// the end of in.
func readLines(in io.Reader) <-chan inputLine {
	out := make(chan inputLine)
	go func() {
		defer close(out)
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			out <- inputLine{text: sc.Text()}
		}
		if err := sc.Err(); err != nil {
			out <- inputLine{err: err}
		}
	}()
	return out
}
