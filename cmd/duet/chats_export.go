package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/duetbot/duet/shared/transcript"
)

func chatsExport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := newChatsFlags("export", stderr)
	since := f.fs.Duration("since", 0, "only the chats active within this long (e.g. 24h; 0: all)")
	out := f.fs.String("out", "", "the file to write (required)")
	format := f.fs.String("format", "json", "json: the ConvAI2 release format, which duet rate -dialogs reads; html: one page to look at")
	bot := f.fs.String("bot", "convai", "convai: the ConvAI bot's chats; annex: the annex bot's exchanges as a transcript duet eval replays")
	if err := f.fs.Parse(args); err != nil {
		return err
	}
	switch {
	case f.fs.NArg() > 0:
		return fmt.Errorf("%w: unexpected %q\n%s", errUsage, f.fs.Arg(0), chatsUsage)
	case *out == "":
		return fmt.Errorf("%w: duet chats export needs -out FILE\n%s", errUsage, chatsUsage)
	case *format != "json" && *format != "html":
		return fmt.Errorf("%w: -format %q: want json or html", errUsage, *format)
	case *bot != "convai" && *bot != "annex":
		return fmt.Errorf("%w: -bot %q: want convai or annex", errUsage, *bot)
	case *bot == "annex" && *format != "json":
		return fmt.Errorf("%w: -bot annex writes a JSON transcript only", errUsage)
	}
	a, table, err := f.archive(ctx)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	what := ""
	if *bot == "annex" {
		exchanges, read, err := a.Exchanges(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "duet chats: read %d annex items of %s (%d examined, %d pages)\n", read.Items, table, read.Scanned, read.Pages)
		t, err := transcript.Annex(exchanges)
		if err != nil {
			return err
		}
		enc := json.NewEncoder(&buf)
		enc.SetIndent("", "  ")
		if err := enc.Encode(t); err != nil {
			return fmt.Errorf("encode transcript: %w", err)
		}
		what = fmt.Sprintf("%d exchanges as a transcript (replay it with duet eval --transcript %s)", len(exchanges), *out)
	} else {
		chats, err := readChats(ctx, a, table, *since, stderr)
		if err != nil {
			return err
		}
		if *format == "html" {
			err = transcript.WriteHTML(&buf, chats, table, time.Now())
		} else {
			err = transcript.WriteConvAI2(&buf, chats)
		}
		if err != nil {
			return err
		}
		what = fmt.Sprintf("%d chats (%s)", len(chats), *format)
	}
	if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", *out, err)
	}
	fmt.Fprintf(stdout, "wrote %s: %s\n", *out, what)
	return nil
}
