package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"testing"
)

// TestExitCodes maps each kind of outcome to its exit code and message:
// success and -h 0, a usage error 2 with its usage printed once and
// unprefixed, any other error 1 with the command's name, an unknown
// command or none 2 with the command list.
func TestExitCodes(t *testing.T) {
	const name = "exit-code-test"
	var result error
	register(name, "returns what the test says", func(context.Context, []string, io.Writer, io.Writer) error { return result })
	t.Cleanup(func() { delete(commands, name) })
	for _, tc := range []struct {
		name   string
		args   []string
		err    error
		code   int
		stderr string // what stderr must hold
	}{
		{"success", []string{name}, nil, 0, ""},
		{"help flag", []string{name}, fmt.Errorf("parse: %w", flag.ErrHelp), 0, ""},
		{"usage error", []string{name}, fmt.Errorf("%w: usage: duet %s -x N", errUsage, name), 2, "usage: duet " + name + " -x N\n"},
		{"failure", []string{name}, fmt.Errorf("open table: %w", errors.New("no such table")), 1, "duet " + name + ": open table: no such table\n"},
		{"unknown command", []string{"no-such-command"}, nil, 2, `duet: unknown command "no-such-command"`},
		{"no command", nil, nil, 2, "usage: duet <command>"},
		{"help", []string{"help"}, nil, 0, "usage: duet <command>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			result = tc.err
			var stdout, stderr bytes.Buffer
			if code := run(context.Background(), tc.args, &stdout, &stderr); code != tc.code {
				t.Errorf("exit code: got %d, want %d (stderr %q)", code, tc.code, stderr.String())
			}
			switch {
			case tc.stderr == "" && stderr.Len() > 0:
				t.Errorf("stderr: got %q, want nothing", stderr.String())
			case !strings.Contains(stderr.String(), tc.stderr):
				t.Errorf("stderr: got %q, want %q in it", stderr.String(), tc.stderr)
			}
			if strings.Count(stderr.String(), "usage:") > 1 {
				t.Errorf("stderr says usage more than once: %q", stderr.String())
			}
		})
	}
}
