package main

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// readmeCommand finds "duet <command> [<subcommand>]" as a shell runs it:
// duet at the start of a word or after a path ("bin/duet", "./cmd/duet").
var readmeCommand = regexp.MustCompile(`(?:^|[\s/'"(])duet ([a-z][a-z0-9-]*)(?: ([a-z][a-z0-9-]*))?`)

// readmeCode returns the code of a Markdown text: its fenced blocks and
// its inline code spans, where the commands a reader types are.
func readmeCode(md string) []string {
	var code []string
	inFence := false
	var block []string
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			if inFence {
				code = append(code, strings.Join(block, "\n"))
				block = nil
			}
			inFence = !inFence
			continue
		}
		if inFence {
			block = append(block, line)
			continue
		}
		for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(line, -1) {
			code = append(code, m[1])
		}
	}
	return code
}

// TestReadmeCommandsAnswerHelp reads the repository's README and runs
// every duet command it shows with -h: each must exist and exit 0, and so
// must each subcommand it shows that the command's usage names
// ("duet clariq run", "duet webhook set").
func TestReadmeCommandsAnswerHelp(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatalf("read the README: %v", err)
	}
	var targets [][]string
	seen := map[string]bool{}
	for _, code := range readmeCode(string(b)) {
		for _, m := range readmeCommand.FindAllStringSubmatch(code, -1) {
			args := []string{m[1]}
			if m[2] != "" {
				args = append(args, m[2])
			}
			if key := strings.Join(args, " "); !seen[key] {
				seen[key] = true
				targets = append(targets, args)
			}
		}
	}
	if len(targets) == 0 {
		t.Fatal("the README shows no duet command")
	}
	t.Setenv("SESSIONS_TABLE", "")
	for _, args := range targets {
		name := args[0]
		t.Run(strings.Join(args, "_"), func(t *testing.T) {
			if _, ok := commands[name]; !ok && name != "help" {
				t.Fatalf("the README shows duet %s, which is no command", strings.Join(args, " "))
			}
			_, stderr, code := runDuet(t, name, "-h")
			if code != 0 {
				t.Fatalf("duet %s -h: exit %d: %s", name, code, stderr)
			}
			if len(args) == 2 && slices.Contains(subcommandsIn(name, stderr), args[1]) {
				if _, sub, code := runDuet(t, name, args[1], "-h"); code != 0 {
					t.Fatalf("duet %s %s -h: exit %d: %s", name, args[1], code, sub)
				}
			}
		})
	}
}
