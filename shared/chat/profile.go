package chat

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

// Limits of the profile files.
const (
	maxProfileLines = 64
	maxProfiles     = 32
	// MaxProfileBytes bounds a profile or options file.
	MaxProfileBytes = 1 << 20
)

// ReadProfile reads a profile: one sentence a line, blank lines ignored.
func ReadProfile(r io.Reader) ([]string, error) {
	ps, err := ReadProfiles(r)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, p := range ps {
		out = append(out, p...)
	}
	if len(out) > maxProfileLines {
		return nil, fmt.Errorf("%d sentences, more than %d", len(out), maxProfileLines)
	}
	return out, nil
}

// ReadProfiles reads candidate profiles: one sentence a line, a blank line
// (or a "/profile_N" line, as in the router's request) between profiles.
func ReadProfiles(r io.Reader) ([][]string, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxProfileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxProfileBytes {
		return nil, fmt.Errorf("larger than %d bytes", MaxProfileBytes)
	}
	// A lone carriage return ends a line too: none may reach a sentence.
	text := strings.ReplaceAll(strings.ReplaceAll(string(b), "\r\n", "\n"), "\r", "\n")
	var out [][]string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			out = append(out, cur)
			cur = nil
		}
	}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "/profile_"):
			flush()
		case len(cur) == maxProfileLines:
			return nil, fmt.Errorf("a profile of more than %d sentences", maxProfileLines)
		default:
			cur = append(cur, line)
		}
	}
	flush()
	if len(out) == 0 {
		return nil, errors.New("no sentence: want one sentence a line")
	}
	if len(out) > maxProfiles {
		return nil, fmt.Errorf("%d profiles, more than %d", len(out), maxProfiles)
	}
	return out, nil
}
