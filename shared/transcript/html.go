package transcript

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"strings"
	"time"
)

//go:embed page.html
var pageHTML string

var page = template.Must(template.New("page").Parse(pageHTML))

// pageData is what page.html shows.
type pageData struct {
	Source    string
	Generated string
	States    []State
	Chats     []pageChat
}

type pageChat struct {
	ID, Anchor, Started, Mean, Final, Context, Short, Search string
	State                                                    State
	StateClass                                               string
	Turns                                                    int
	Lines                                                    []pageLine
}

type pageLine struct {
	At, Who, Class, Text string
	Rating               int
	Undelivered          bool
}

// WriteHTML writes chats as one self-contained page: a list of the chats,
// filterable by text and state, with their scores, and each transcript
// with the bot's ratings. source says where they were read from; now is
// when.
func WriteHTML(w io.Writer, chats []Chat, source string, now time.Time) error {
	d := pageData{
		Source:    source,
		Generated: now.UTC().Format(timeFormat) + " UTC",
		States:    []State{Open, Ended, Swept, Undelivered, Restarted},
	}
	for i := range chats {
		d.Chats = append(d.Chats, pageChatOf(&chats[i]))
	}
	if err := page.Execute(w, d); err != nil {
		return fmt.Errorf("render chats page: %w", err)
	}
	return nil
}

func pageChatOf(c *Chat) pageChat {
	p := pageChat{
		ID: c.ID(), Anchor: strings.NewReplacer(":", "-").Replace(c.ID()),
		Started: showTime(c.Started), Mean: "-", Final: FinalText(c.Final),
		Context: c.Context, Short: short(c.Context, 80),
		State: c.State, StateClass: strings.ReplaceAll(string(c.State), " ", "-"),
		Turns: c.PartnerTurns(),
	}
	if m, ok := c.MeanRating(); ok {
		p.Mean = fmt.Sprintf("%.1f", m)
	}
	search := []string{c.ID(), c.Context}
	for _, t := range c.Turns {
		at := t.At.UTC().Format("15:04:05")
		switch {
		case t.Partner != "":
			p.Lines = append(p.Lines, pageLine{At: at, Who: "partner", Class: "partner", Text: t.Partner, Rating: t.Rating})
			search = append(search, t.Partner)
		case t.Command != "":
			p.Lines = append(p.Lines, pageLine{At: at, Who: "partner", Class: "partner", Text: t.Command})
		}
		if t.Bot != "" {
			p.Lines = append(p.Lines, pageLine{At: at, Who: "bot", Class: "bot", Text: t.Bot, Undelivered: !t.Delivered})
			search = append(search, t.Bot)
		}
		if t.Final != nil {
			p.Lines = append(p.Lines, pageLine{At: at, Who: "bot", Class: "bot", Text: "/end: " + FinalText(t.Final), Undelivered: !t.FinalDelivered})
		}
	}
	p.Search = strings.ToLower(strings.Join(search, " "))
	return p
}

// short returns s on one line, cut to at most n characters.
func short(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
