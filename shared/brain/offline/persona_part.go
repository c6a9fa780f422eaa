package offline

import (
	"slices"
	"strings"
)

// A profile sentence too long to say whole without repeating three of its
// words ("i work night shifts as a baker at a little shop called rosie's
// in portland, maine") is still who the bot is: rather than never say it,
// the bot says its first part, cut before a phrase, the longest that reads
// whole ("I actually work night, like, shifts as baker, you know, at a
// small shop called, like, rosie's"). The fact keeps the whole sentence
// for matching questions; only what it says is shorter, and it is marked
// (fact.part) so that the sayable share does not count it.

// cuts start a phrase a sentence may be cut before.
var cuts = newSet(`in with and while at on because since when so but from by as every after before
during about like than to for if until though although where who which whenever`)

// partEnds are words a part must not end with, as they need what was
// cut: "i drive a snowmobile out", "i spend weeks".
var partEnds = newSet(`out off away back down over around weeks days hours months years nights minutes`)

// minPart is the fewest words a part keeps: "i knit scarves".
const minPart = 3

// partSays returns the ways to say the longest first part of ws that reads
// whole with at most two fillers (three read as a stammer), else the
// longest that reads whole at all; nil when no part does. It is called
// only for a sentence with no whole rendering, once per profile.
func (p *profile) partSays(ws []string) []string {
	if p.cutting {
		return nil // a part's own parts are the shorter cuts tried here
	}
	p.cutting = true
	defer func() { p.cutting = false }()
	spans := nameSpans(ws, heldPhrases(ws, keptPhrases(ws)))
	var longest []string
	for k := len(ws) - 1; k >= minPart; k-- {
		part, rest := ws[:k], ws[k:]
		if insideName(spans, k-1) {
			continue // never within a name: "new kids on the block"
		}
		// A cut drops a phrase, not a word its part needs ("close to"),
		// and never a negation, which may turn the part around: "i
		// would love to travel but i can not".
		if len(rest) < 2 || !cuts.has(rest[0]) || danglers.has(part[k-1]) || partEnds.has(part[k-1]) || slicesHasAny(rest, negations) {
			continue
		}
		if be := part[k-2]; strings.HasSuffix(part[k-1], "ing") && (beVerbs.has(be) || be == "be" || be == "been") {
			continue // "i am learning", without what
		}
		f, ok := p.newFact(slices.Clone(part))
		switch {
		case ok && fillerCount(f.says[0]) <= 2:
			return f.says
		case ok && longest == nil:
			longest = f.says
		}
	}
	return longest
}
