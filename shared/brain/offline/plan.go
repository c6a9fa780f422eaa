package offline

import (
	"strings"
)

// fill is what a template's slots are replaced with.
type fill struct{ a, b, c string }

func (f fill) mask() slotMask {
	var m slotMask
	if f.a != "" {
		m |= slotA
	}
	if f.b != "" {
		m |= slotB
	}
	if f.c != "" {
		m |= slotC
	}
	return m
}

// plan is one way to reply: a first part, an optional second part, and the
// topic rotations to fill them with.
type plan struct {
	first, second []tmpl
	fills         []fill // one per rotation; at least one
}

// choose returns the first rendering, starting from seed-chosen templates,
// that the bot has not sent before (any rendering when said is nil). It
// varies the first part fastest, then the second, then the topics; and it
// first looks for a first part the bot has not opened a reply with, so that
// a new follow-up question alone does not make a reply new.
func (p plan) choose(seed uint64, said *history) (string, bool) {
	if len(p.first) == 0 {
		return "", false
	}
	n1, n2 := len(p.first), max(len(p.second), 1)
	o1, o2 := int(seed%uint64(n1)), int((seed>>20)%uint64(n2))
	avail := p.fills[0].mask()
	needTopic := avail&(slotA|slotB) != 0 && p.hasSlotted(avail)
	check := !said.empty() // with nothing said, every candidate is new
	// Candidates are rendered and normalised on the stack: only the one
	// chosen becomes a string.
	var out, norm [normScratch]byte // the rendering, and its normal form
	for pass := range 2 {
		freshStart := pass == 0
		if freshStart && (said == nil || len(p.second) == 0) {
			continue
		}
		for r := range p.fills {
			for j := range n2 {
				for i := range n1 {
					k1, k2 := (o1+i)%n1, (o2+j)%n2
					t1 := p.first[k1]
					if t1.mask&^avail != 0 || (needTopic && t1.mask&(slotA|slotB) == 0) {
						continue
					}
					if len(p.second) > 0 && p.second[k2].mask&^avail != 0 {
						continue
					}
					if check && freshStart && said.opensNormal(appendNormalized(norm[:0], p.appendRender(out[:0], r, k1, -1))) {
						continue
					}
					b := p.appendRender(out[:0], r, k1, k2)
					if !check || !said.saysNormal(appendNormalized(norm[:0], b)) {
						return string(b), true
					}
				}
			}
		}
	}
	return "", false
}

// hasSlotted reports whether some first part of p can use the available
// topics: only then are the topic-free ones skipped, so that the reply stays
// on topic.
func (p plan) hasSlotted(avail slotMask) bool {
	for _, t := range p.first {
		if t.mask != 0 && t.mask&^avail == 0 && t.mask&(slotA|slotB) != 0 {
			return true
		}
	}
	return false
}

// appendRender fills templates i (first) and j (second; none when j < 0)
// with rotation r, in one pass on the stack, and appends the result,
// polished, to dst.
func (p plan) appendRender(dst []byte, r, i, j int) []byte {
	f := p.fills[r%len(p.fills)]
	var buf [normScratch]byte
	raw := appendFilled(buf[:0], p.first[i].text, f)
	if len(p.second) > 0 && j >= 0 {
		raw = append(raw, ' ')
		raw = appendFilled(raw, p.second[j].text, f)
	}
	if isASCII(raw) {
		if b, ok := appendPolishedASCII(dst, raw); ok {
			return b
		}
	}
	return append(dst, polishAny(string(raw))...)
}

// appendFilled appends template t to dst with its slots {a}, {b} and {c}
// replaced by f's. A fill is not searched for slots again: topics hold no
// braces and a template's braces are its slots', so this is filling one
// slot after another (FuzzFill), without letting a text the partner wrote
// fill a slot.
func appendFilled(dst []byte, t string, f fill) []byte {
	for {
		k := strings.IndexByte(t, '{')
		if k < 0 {
			return append(dst, t...)
		}
		dst, t = append(dst, t[:k]...), t[k:]
		if len(t) >= 3 && t[2] == '}' {
			switch t[1] {
			case 'a':
				dst, t = append(dst, f.a...), t[3:]
				continue
			case 'b':
				dst, t = append(dst, f.b...), t[3:]
				continue
			case 'c':
				dst, t = append(dst, f.c...), t[3:]
				continue
			}
		}
		dst, t = append(dst, '{'), t[1:]
	}
}
