package transcript

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/duetbot/duet/shared/brain"
)

// timeFormat is how times are shown: UTC, to the second.
const timeFormat = "2006-01-02 15:04:05"

// WriteList writes one line a chat: id, start, partner turns, state, mean
// rating and final, under a header.
func WriteList(w io.Writer, chats []Chat) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTARTED (UTC)\tTURNS\tSTATE\tMEAN RATING\tFINAL")
	for i := range chats {
		c := &chats[i]
		mean := "-"
		if m, ok := c.MeanRating(); ok {
			mean = fmt.Sprintf("%.1f", m)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\n", c.ID(), showTime(c.Started), c.PartnerTurns(), c.State, mean, FinalText(c.Final))
	}
	return tw.Flush()
}

// FinalText is a final in one short phrase: "quality 8, breadth 4,
// engagement 7, score 4, profile 1", or "-" for none.
func FinalText(f *brain.Scores) string {
	if f == nil {
		return "-"
	}
	s := fmt.Sprintf("quality %d, breadth %d, engagement %d", f.Quality, f.Breadth, f.Engagement)
	if f.Score > 0 {
		s += fmt.Sprintf(", score %d", f.Score)
	}
	if f.Profile != nil {
		s += fmt.Sprintf(", profile %d", *f.Profile)
	}
	return s
}

// WriteChat writes one session as a readable transcript: the context,
// then each message with the bot's rating of the partner's messages,
// undelivered messages marked, and the final.
func WriteChat(w io.Writer, c *Chat) error {
	mean := "none"
	if m, ok := c.MeanRating(); ok {
		mean = fmt.Sprintf("%.1f", m)
	}
	fmt.Fprintf(w, "chat %s  started %s UTC  %s  %d partner turns  mean rating %s\n",
		c.ID(), showTime(c.Started), c.State, c.PartnerTurns(), mean)
	fmt.Fprintln(w, "context:")
	for _, line := range strings.Split(c.Context, "\n") {
		fmt.Fprintf(w, "  %s\n", line)
	}
	fmt.Fprintln(w)
	for _, t := range c.Turns {
		at := t.At.UTC().Format("15:04:05")
		switch {
		case t.Partner != "":
			rating := ""
			if t.Rating > 0 {
				rating = fmt.Sprintf("   [rated %d/10]", t.Rating)
			}
			fmt.Fprintf(w, "%s  partner: %s%s\n", at, t.Partner, rating)
		case t.Command != "":
			fmt.Fprintf(w, "%s  partner: %s\n", at, t.Command)
		}
		if t.Bot != "" {
			fmt.Fprintf(w, "%s  bot:     %s%s\n", at, t.Bot, undeliveredMark(t.Delivered))
		}
		if t.Final != nil {
			fmt.Fprintf(w, "%s  bot:     /end  final: %s%s\n", at, FinalText(t.Final), undeliveredMark(t.FinalDelivered))
		}
	}
	if c.Final == nil {
		fmt.Fprintln(w, "(no final yet)")
	}
	return nil
}

func undeliveredMark(delivered bool) string {
	if delivered {
		return ""
	}
	return "   [NOT DELIVERED]"
}

func showTime(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format(timeFormat)
}
