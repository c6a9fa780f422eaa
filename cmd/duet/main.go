// Command duet runs Duet's bots and tools on a workstation: both bots on one
// HTTP server with embedded defaults (serve), the ConvAI bot over getUpdates
// (poll), a local ConvAI server that checks a bot against the protocol (sim),
// the annex evaluator (eval) and the deployment helpers (webhook, table,
// persona). Run `duet help` for the list.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"

	"github.com/duetbot/duet/shared/app"
)

// command is one subcommand of duet.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

// commands is filled by the init functions of the files that define them.
var commands = map[string]command{}

func register(name, summary string, run func(ctx context.Context, args []string, stdout, stderr io.Writer) error) {
	if _, dup := commands[name]; dup {
		panic("duet: command registered twice: " + name)
	}
	commands[name] = command{summary: summary, run: run}
}

// errUsage marks an error whose message is usage help, printed without a prefix.
var errUsage = errors.New("usage")

func main() {
	// The AWS SDK's own lines (awslog) read as the commands' text lines.
	slog.SetDefault(app.CLILogger(os.Stderr, slog.LevelInfo))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "duet: unknown command %q\n\n", args[0])
		usage(stderr)
		return 2
	}
	tracked := &trackedStderr{Writer: stderr}
	err := cmd.run(ctx, args[1:], stdout, tracked)
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		// The commands wrap their usage text, which starts with "usage:".
		msg := strings.TrimPrefix(err.Error(), errUsage.Error()+": ")
		if len(args) == 2 && isHelp(args[1]) {
			// A command with subcommands answers -h with its usage: help
			// asked for, not a mistake (nor an "unknown command -h").
			if i := strings.Index(msg, "usage:"); i > 0 {
				msg = msg[i:]
			}
			fmt.Fprintln(stderr, msg)
			return 0
		}
		fmt.Fprintln(stderr, msg)
		return 2
	case tracked.flagsPrinted:
		// The flag package has printed the error, and the flags, already.
		return 2
	}
	fmt.Fprintf(stderr, "duet %s: %v\n", args[0], err)
	return 1
}

func isHelp(arg string) bool { return arg == "-h" || arg == "-help" || arg == "--help" }

// trackedStderr is the stderr a command runs with: it remembers whether a
// FlagSet of newFlags wrote to it, which a FlagSet does only to report a
// parse error (or -h) with the flags, so that run does not print the error
// a second time.
type trackedStderr struct {
	io.Writer
	flagsPrinted bool
}

// flagOutput is a FlagSet's output on a trackedStderr.
type flagOutput struct{ t *trackedStderr }

func (f flagOutput) Write(p []byte) (int, error) {
	f.t.flagsPrinted = true
	return f.t.Write(p)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: duet <command> [flags]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-9s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun `duet <command> -h` for a command's flags.")
}

// newFlags returns a FlagSet for a subcommand that reports errors instead of exiting.
func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("duet "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	if t, ok := stderr.(*trackedStderr); ok {
		fs.SetOutput(flagOutput{t})
	}
	return fs
}
