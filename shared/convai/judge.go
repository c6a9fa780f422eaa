package convai

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/duetbot/duet/shared/brain"
)

// DefaultJudge is the evaluation the router's shipped configuration asks
// for, used when an /end carries no request or a malformed one: a score in
// 1..5 and no candidate profiles.
var DefaultJudge = brain.Judge{Min: 1, Max: 5}

// Bounds of an evaluation request this bot accepts: the router's range is
// 1 5; anything far outside small positive integers is not a request.
const (
	maxJudgeScore    = 100 // highest hi
	maxJudgeProfiles = 32  // candidate profiles
	maxProfileLines  = 32  // sentences of one profile
)

// ParseJudge reads the part of an /end message after the command: the
// 2018 router's evaluation request "<lo> <hi>\n/profile_0\n<sentences…>
// \n/profile_1\n…". It returns nil and no error when rest is no request
// (empty, or a 2017 reason such as "Invalid JSON"). A malformed request
// returns DefaultJudge and an error saying why. Blank lines, surrounding
// white space and CRLF line ends are tolerated; the profile blocks must be
// numbered from 0 in order and each hold at least one sentence.
func ParseJudge(rest string) (*brain.Judge, error) {
	rest = strings.ReplaceAll(rest, "\r\n", "\n")
	rest = strings.ReplaceAll(rest, "\r", "\n")
	lines := strings.Split(strings.TrimSpace(rest), "\n")
	first := strings.Fields(lines[0])
	if len(first) == 0 {
		return nil, nil
	}
	_, numErr := strconv.Atoi(first[0])
	if numErr != nil && !strings.HasPrefix(first[0], "/profile") && !strings.Contains(rest, "\n/profile") {
		return nil, nil // a reason, not a request
	}
	fail := func(format string, a ...any) (*brain.Judge, error) {
		d := DefaultJudge
		return &d, fmt.Errorf("evaluation request: "+format, a...)
	}
	if len(first) != 2 {
		return fail("first line %q: want two integers lo hi", truncate(lines[0], 40))
	}
	lo, err1 := strconv.Atoi(first[0])
	hi, err2 := strconv.Atoi(first[1])
	switch {
	case err1 != nil || err2 != nil:
		return fail("first line %q: want two integers lo hi", truncate(lines[0], 40))
	case lo < 1 || hi > maxJudgeScore || lo > hi:
		return fail("score range %d..%d: want 1 <= lo <= hi <= %d", lo, hi, maxJudgeScore)
	}
	j := &brain.Judge{Min: lo, Max: hi}
	for _, line := range lines[1:] {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if name, ok := strings.CutPrefix(line, "/profile_"); ok {
			name, inline, _ := strings.Cut(strings.ReplaceAll(name, "\t", " "), " ") // tolerate "/profile_0 i like cats."
			n, err := strconv.Atoi(name)
			if err != nil || n != len(j.Profiles) {
				return fail("%q: want /profile_%d", truncate(line, 40), len(j.Profiles))
			}
			if n > 0 && len(j.Profiles[n-1]) == 0 {
				return fail("/profile_%d has no sentences", n-1)
			}
			if n >= maxJudgeProfiles {
				return fail("more than %d profiles", maxJudgeProfiles)
			}
			j.Profiles = append(j.Profiles, nil)
			if line = strings.TrimSpace(inline); line == "" {
				continue
			}
			if strings.HasPrefix(line, "/profile_") {
				return fail("%q: two profile headers on one line", truncate(line, 40))
			}
		}
		if len(j.Profiles) == 0 {
			return fail("text %q before /profile_0", truncate(line, 40))
		}
		p := &j.Profiles[len(j.Profiles)-1]
		if len(*p) >= maxProfileLines {
			return fail("/profile_%d has more than %d sentences", len(j.Profiles)-1, maxProfileLines)
		}
		*p = append(*p, line)
	}
	if n := len(j.Profiles); n > 0 && len(j.Profiles[n-1]) == 0 {
		return fail("/profile_%d has no sentences", n-1)
	}
	return j, nil
}

// FormatJudge returns the /end message by which the 2018 router asks for
// the final evaluation j; ParseJudge reads it back.
func FormatJudge(j brain.Judge) string {
	var b strings.Builder
	fmt.Fprintf(&b, "/end %d %d", j.Min, j.Max)
	for i, p := range j.Profiles {
		fmt.Fprintf(&b, "\n/profile_%d", i)
		for _, line := range p {
			b.WriteString("\n")
			b.WriteString(line)
		}
	}
	return b.String()
}
