package offline

import (
	"strings"
)

// fill is what a template's slots are replaced with.
type fill struct{ a, b, c string }

// slot is the fill of slot {name}.
func (f fill) slot(name byte) (string, bool) {
	switch name {
	case 'a':
		return f.a, true
	case 'b':
		return f.b, true
	case 'c':
		return f.c, true
	}
	return "", false
}

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
	for pass := range 2 {
		freshStart := pass == 0
		if freshStart && (said == nil || len(p.second) == 0) {
			continue
		}
		for r := range p.fills {
			// Whether the bot began a reply with first part k filled with
			// r: asked once per k, not again for every second part.
			opened := map[int]bool{}
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
					if check && freshStart {
						o, known := opened[k1]
						if !known {
							o = said.opens(p.render(r, k1, -1))
							opened[k1] = o
						}
						if o {
							continue
						}
					}
					if s := p.render(r, k1, k2); !check || !said.says(s) {
						return s, true
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

// render fills templates i (first) and j (second; none when j < 0) with
// rotation r, and polishes the result.
func (p plan) render(r, i, j int) string {
	f := p.fills[r%len(p.fills)]
	fills := len(f.a) + len(f.b) + len(f.c)
	var b strings.Builder
	b.Grow(len(p.first[i].text) + fills)
	writeFilled(&b, p.first[i].text, f)
	if len(p.second) > 0 && j >= 0 {
		b.Grow(1 + len(p.second[j].text) + fills)
		b.WriteByte(' ')
		writeFilled(&b, p.second[j].text, f)
	}
	return polish(b.String())
}

// writeFilled writes template t to b with its slots {a}, {b} and {c}
// replaced by f's, in one pass: a fill is copied, never searched for
// slots, so that a text the partner wrote cannot fill one (FuzzFill).
func writeFilled(b *strings.Builder, t string, f fill) {
	for {
		before, after, ok := strings.Cut(t, "{")
		b.WriteString(before)
		if !ok {
			return
		}
		t = after
		if len(t) >= 2 && t[1] == '}' {
			if s, ok := f.slot(t[0]); ok {
				b.WriteString(s)
				t = t[2:]
				continue
			}
		}
		b.WriteByte('{')
	}
}
