package offline

import (
	"strings"
	"unicode/utf8"
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
//
// Candidates are compared by their normalised form, which key computes
// straight from the template and fill without rendering; only the chosen
// candidate is rendered.
func (p plan) choose(seed uint64, said *history) (string, bool) {
	if len(p.first) == 0 {
		return "", false
	}
	n1, n2 := len(p.first), max(len(p.second), 1)
	o1, o2 := int(seed%uint64(n1)), int((seed>>20)%uint64(n2))
	avail := p.fills[0].mask()
	needTopic := avail&(slotA|slotB) != 0 && p.hasSlotted(avail)
	// With nothing said, every candidate is new: the first one that fits
	// is chosen without computing any key.
	check := !said.empty()
	var buf [maxReply]byte
	// Whether the bot opened with first part i depends on r and i, not on
	// the second part: remember it across the j loop (0 unknown, 1 no,
	// 2 yes) for plans of up to len(openedMemo) first parts.
	var openedMemo [32]uint8
	for pass := range 2 {
		freshStart := pass == 0
		if freshStart && (said == nil || len(p.second) == 0) {
			continue
		}
		for r := range p.fills {
			openedMemo = [len(openedMemo)]uint8{}
			for j := range n2 {
				for i := range n1 {
					t1 := p.first[(o1+i)%n1]
					if t1.mask&^avail != 0 || (needTopic && t1.mask&(slotA|slotB) == 0) {
						continue
					}
					if len(p.second) > 0 && p.second[(o2+j)%n2].mask&^avail != 0 {
						continue
					}
					if check && freshStart {
						k, m := (o1+i)%n1, uint8(0)
						if k < len(openedMemo) {
							m = openedMemo[k]
						}
						if m == 0 {
							m = 1
							if said.opened(p.key(buf[:0], r, k, -1)) {
								m = 2
							}
							if k < len(openedMemo) {
								openedMemo[k] = m
							}
						}
						if m == 2 {
							continue
						}
					}
					if !check || !said.hasBytes(p.key(buf[:0], r, (o1+i)%n1, (o2+j)%n2)) {
						return p.render(r, (o1+i)%n1, (o2+j)%n2), true
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
// rotation r.
func (p plan) render(r, i, j int) string {
	f := p.fills[r%len(p.fills)]
	s := p.first[i].text
	if len(p.second) > 0 && j >= 0 {
		s += " " + p.second[j].text
	}
	s = strings.ReplaceAll(s, "{a}", f.a)
	s = strings.ReplaceAll(s, "{b}", f.b)
	s = strings.ReplaceAll(s, "{c}", f.c)
	return polish(s)
}

// key appends normalize(p.render(r, i, j)) to dst. For ASCII text that
// polish would not shorten it reads the templates and the fill in one pass
// and allocates nothing: polish then changes only capitals, spaces and
// punctuation, which normalize drops anyway. Otherwise it renders.
func (p plan) key(dst []byte, r, i, j int) []byte {
	f := p.fills[r%len(p.fills)]
	k := keyState{start: len(dst), ok: true}
	dst = k.template(dst, p.first[i].text, f)
	if len(p.second) > 0 && j >= 0 {
		dst = k.byte(dst, ' ')
		dst = k.template(dst, p.second[j].text, f)
	}
	// An empty key may come from a reply polish would replace ("Tell me
	// more?"); the slow path knows.
	if k.ok && len(dst) > k.start {
		return dst
	}
	return append(dst[:k.start], normalize(p.render(r, i, j))...)
}

// keyState is the state of key's one-pass normaliser. The output slice is
// passed and returned rather than kept here so that a caller's stack buffer
// does not escape. ok turns false when the fast path does not apply: a
// non-ASCII byte, more than maxReply bytes (polish would truncate), or a
// brace that is not part of a slot, or one in a fill, where ReplaceAll and
// sanitize could interact.
type keyState struct {
	start int // where the key begins in the output
	raw   int // bytes written, braces excepted
	space bool
	ok    bool
}

// template appends t, its slots filled by f.
func (k *keyState) template(out []byte, t string, f fill) []byte {
	for i := 0; i < len(t); i++ {
		c := t[i]
		if c != '{' && c != '}' {
			out = k.byte(out, c)
			continue
		}
		var v string
		if c == '{' && i+2 < len(t) && t[i+2] == '}' {
			switch t[i+1] {
			case 'a':
				v = f.a
			case 'b':
				v = f.b
			case 'c':
				v = f.c
			default:
				k.ok = false
			}
		} else {
			k.ok = false
		}
		if !k.ok || strings.ContainsAny(v, "{}") {
			k.ok = false
			return out
		}
		for m := 0; m < len(v); m++ {
			out = k.byte(out, v[m])
		}
		i += 2
	}
	return out
}

// byte appends c as normalize would see it.
func (k *keyState) byte(out []byte, c byte) []byte {
	if c >= utf8.RuneSelf {
		k.ok = false
		return out
	}
	if k.raw++; k.raw > maxReply {
		k.ok = false
		return out
	}
	if 'A' <= c && c <= 'Z' {
		c += 'a' - 'A'
	}
	if ('a' <= c && c <= 'z') || ('0' <= c && c <= '9') {
		if k.space && len(out) > k.start {
			out = append(out, ' ')
		}
		out = append(out, c)
		k.space = false
	} else {
		k.space = true
	}
	return out
}
