package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// subcommandsIn finds the subcommands of cmd that its usage text names:
// "duet clariq run …", and the alternatives of "set … | info | delete".
func subcommandsIn(cmd, usage string) []string {
	var subs []string
	add := func(s string) {
		if !slices.Contains(subs, s) {
			subs = append(subs, s)
		}
	}
	// Only the usage lines: "usage: duet cmd sub …" and the lines below
	// it that start with "duet cmd sub".
	for _, line := range regexp.MustCompile(`(?m)^(?:usage:)?\s*duet `+regexp.QuoteMeta(cmd)+` [a-z].*$`).FindAllString(usage, -1) {
		for _, m := range regexp.MustCompile(`duet `+regexp.QuoteMeta(cmd)+` ([a-z]+)\b`).FindAllStringSubmatch(line, -1) {
			add(m[1])
		}
		for _, m := range regexp.MustCompile(`\| ([a-z]+)\b`).FindAllStringSubmatch(line, -1) {
			add(m[1])
		}
	}
	return subs
}

// helpTargets is every command and every subcommand its usage names, as
// argument lists: {"serve"}, {"clariq", "run"}, ….
func helpTargets(t *testing.T) [][]string {
	t.Helper()
	var out [][]string
	for name := range commands {
		if name == "exit-code-test" {
			continue
		}
		out = append(out, []string{name})
		_, stderr, _ := runDuet(t, name, "-h")
		for _, sub := range subcommandsIn(name, stderr) {
			out = append(out, []string{name, sub})
		}
	}
	slices.SortFunc(out, func(a, b []string) int { return strings.Compare(strings.Join(a, " "), strings.Join(b, " ")) })
	return out
}

// flagLine is a flag's first line in PrintDefaults: "  -name", then at most
// the argument's name. A back-quoted phrase in a usage string becomes
// that name ("-addr duet serve"), which this catches.
var flagLine = regexp.MustCompile(`^  -(\S+)(?: (.*))?$`)

// TestHelpExitsZero asks every command and subcommand for -h: each must
// answer with exit 0, print no error, and name each flag's argument with
// one word.
func TestHelpExitsZero(t *testing.T) {
	t.Setenv("SESSIONS_TABLE", "")
	targets := helpTargets(t)
	for _, want := range []string{"clariq run", "persona show", "table create", "webhook info", "rate fit"} {
		if !slices.ContainsFunc(targets, func(a []string) bool { return strings.Join(a, " ") == want }) {
			t.Errorf("the usage texts do not name %q: found %q", want, targets)
		}
	}
	for _, args := range targets {
		t.Run(strings.Join(args, "_"), func(t *testing.T) {
			stdout, stderr, code := runDuet(t, append(args, "-h")...)
			if code != 0 {
				t.Fatalf("duet %s -h: exit %d, stderr %q", strings.Join(args, " "), code, stderr)
			}
			if !strings.Contains(stdout+stderr, "usage") && !strings.Contains(stdout+stderr, "Usage") {
				t.Errorf("duet %s -h says no usage: %q", strings.Join(args, " "), stdout+stderr)
			}
			if strings.Contains(stderr, "unknown") {
				t.Errorf("duet %s -h: stderr says unknown: %q", strings.Join(args, " "), stderr)
			}
			for _, line := range strings.Split(stderr, "\n") {
				if strings.HasPrefix(line, "duet "+args[0]+":") {
					t.Errorf("duet %s -h: an error: %q", strings.Join(args, " "), line)
				}
				if m := flagLine.FindStringSubmatch(line); m != nil && strings.Contains(m[2], " ") {
					t.Errorf("flag -%s has the argument name %q: a back-quoted phrase in its usage", m[1], m[2])
				}
			}
		})
	}
}

// TestFlagErrorPrintedOnce gives every command and subcommand an unknown
// flag: the error is said once, with exit 2.
func TestFlagErrorPrintedOnce(t *testing.T) {
	t.Setenv("SESSIONS_TABLE", "")
	for _, args := range helpTargets(t) {
		if len(args) == 1 && len(subcommandsIn(args[0], must(runDuet(t, args[0], "-h")))) > 0 {
			continue // "duet table --nope" is an unknown subcommand: a usage error
		}
		t.Run(strings.Join(args, "_"), func(t *testing.T) {
			_, stderr, code := runDuet(t, append(args, "--nope")...)
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if n := strings.Count(stderr, "-nope"); n != 1 {
				t.Errorf("the error is said %d times, want once: %q", n, stderr)
			}
		})
	}
}

func must(_, stderr string, _ int) string { return stderr }

// TestMakeDemoADDR checks that `make demo ADDR=…` reaches `duet serve`:
// make (dry run) passes ADDR to .ci/demo, and .ci/demo serves on it. The
// duet it runs is a stand-in that records its arguments and fails, so the
// demo stops at once.
func TestMakeDemoADDR(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	const addr = "127.0.0.1:18931"
	out, err := runIn(root, "make", "-n", "demo", "ADDR="+addr)
	if err != nil {
		t.Skipf("make: %v", err)
	}
	var line string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, ".ci/demo") {
			line = l
		}
	}
	if !strings.Contains(line, addr) {
		t.Fatalf("make demo ADDR=%s runs %q, without the address", addr, line)
	}
	dir := t.TempDir()
	fake := filepath.Join(dir, "duet")
	log := filepath.Join(dir, "args")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\necho \"$@\" >> "+log+"\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	out, _ = runIn(root, filepath.Join(root, ".ci/demo"), fake, "telegram", addr)
	got, err := os.ReadFile(log)
	if err != nil {
		t.Fatalf(".ci/demo never ran duet: %v (output %q)", err, out)
	}
	if !strings.Contains(string(got), "serve -addr "+addr) {
		t.Errorf(".ci/demo ran duet %q, want serve -addr %s", got, addr)
	}
}

// runIn runs a program in dir and returns its combined output.
func runIn(dir, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestTrackedStderrIsTerminal: the stderr run gives a command is seen as
// what it wraps (duet eval draws its progress bar on a terminal). A
// character device stands in for the terminal: isTerminal asks only that.
func TestTrackedStderrIsTerminal(t *testing.T) {
	dev, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	file, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	for _, tt := range []struct {
		name string
		f    *os.File
	}{{"character device", dev}, {"regular file", file}} {
		t.Run(tt.name, func(t *testing.T) {
			if got, want := isTerminal(&trackedStderr{Writer: tt.f}), isTerminal(tt.f); got != want {
				t.Errorf("wrapped: %v, bare: %v", got, want)
			}
		})
	}
	if !isTerminal(dev) || isTerminal(file) {
		t.Fatal("isTerminal does not tell a character device from a file")
	}
}
