package offline

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// distinguish appends clauses to s until it differs from every reply the bot
// has sent.
func distinguish(s string, said *history) string {
	for n := 0; ; n++ {
		extra := lastResort[n%len(lastResort)]
		if n >= len(lastResort) {
			extra += " (" + strconv.Itoa(n/len(lastResort)+1) + ")"
		}
		if c := polish(s + " " + extra); !said.says(c) {
			return c
		}
	}
}

// sanitize drops characters that would read as template slots.
func sanitize(r rune) rune {
	if r == '{' || r == '}' {
		return -1
	}
	return r
}

// polish makes a filled template read like a chat message: no slot
// leftovers, single spaces, no space before punctuation, capitals at the
// start of sentences, a final punctuation mark, at most maxReply characters.
//
// Replies are mostly ASCII and polished once per candidate: polishASCII does
// those in one pass (BenchmarkReplyDev: a third fewer allocations per
// message); polishAny is the general path, and FuzzPolish checks that the
// two agree.
func polish(s string) string {
	if isASCII(s) {
		if p, ok := polishASCII(s); ok {
			return p
		}
	}
	return polishAny(s)
}

// polishAny is polish for any text.
func polishAny(s string) string {
	s = strings.Map(sanitize, s)
	s = strings.Join(strings.Fields(s), " ")
	for _, p := range []string{" ,", " .", " ?", " !", " ;", " :"} {
		s = strings.ReplaceAll(s, p, p[1:])
	}
	b := []rune(s)
	capital := true
	for i, r := range b {
		switch {
		case capital && unicode.IsLetter(r):
			b[i] = unicode.ToUpper(r)
			capital = false
		case r == '.' || r == '?' || r == '!':
			capital = true
		case capital && !unicode.IsSpace(r):
			capital = false
		}
	}
	s = string(b)
	if utf8.RuneCountInString(s) > maxReply {
		s = string([]rune(s)[:maxReply])
		if i := strings.LastIndexByte(s, ' '); i > 0 {
			s = s[:i]
		}
		s = strings.TrimRight(s, " ,;:\u2014") + "\u2026"
	}
	if s == "" {
		return "Tell me more?"
	}
	if r, _ := utf8.DecodeLastRuneInString(s); !strings.ContainsRune(".?!\u2026", r) {
		s += "."
	}
	return s
}

// polishASCII is polish for ASCII text, in one pass and one allocation; it
// reports false for text polish would truncate or replace, which the
// general path handles.
func polishASCII(s string) (string, bool) {
	var buf [maxReply + 1]byte
	b, ok := appendPolishedASCII(buf[:0], s)
	return string(b), ok
}

// appendPolishedASCII appends polish(s), for ASCII text s, to dst; it
// reports false (dst then holds a partial result) for text polish would
// truncate or replace. Dropping a space before punctuation as it goes is
// the same as the general path's replacements: after Fields and Join the
// spaces are single, so removing one never makes another match.
func appendPolishedASCII[S string | []byte](dst []byte, s S) ([]byte, bool) {
	start := len(dst)
	pending, capital := false, true
	var last byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '{', '}': // sanitize
			continue
		case ' ', '\t', '\n', '\v', '\f', '\r': // unicode.IsSpace, ASCII
			pending = len(dst) > start
			continue
		}
		if pending {
			pending = false
			switch c {
			case ',', '.', '?', '!', ';', ':':
			default:
				dst = append(dst, ' ')
			}
		}
		switch {
		case capital && ('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'):
			if c >= 'a' {
				c -= 'a' - 'A'
			}
			capital = false
		case c == '.' || c == '?' || c == '!':
			capital = true
		default:
			capital = false
		}
		dst = append(dst, c)
		last = c
	}
	if n := len(dst) - start; n == 0 || n > maxReply {
		return dst, false
	}
	if last != '.' && last != '?' && last != '!' {
		dst = append(dst, '.')
	}
	return dst, true
}

// normalize reduces a message to lower-case words, for repeat checks.
func normalize(s string) string {
	var buf [normScratch]byte
	return string(appendNormalized(buf[:0], s))
}

// normScratch is the size of the stack buffers a message is rendered or
// normalised in (a longer one grows onto the heap).
const normScratch = 512

// appendNormalized appends normalize(s) to dst. ASCII text, the common
// case, is read byte by byte, without a lower-cased copy of s;
// FuzzNormalize checks that both paths agree.
func appendNormalized[S string | []byte](dst []byte, s S) []byte {
	if isASCII(s) {
		return appendNormalizedASCII(dst, s)
	}
	return appendNormalizedAny(dst, string(s))
}

// appendNormalizedASCII appends the normal form of s, ASCII text, to dst.
func appendNormalizedASCII[S string | []byte](dst []byte, s S) []byte {
	start := len(dst)
	space := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if ('a' <= c && c <= 'z') || ('0' <= c && c <= '9') {
			if space && len(dst) > start {
				dst = append(dst, ' ')
			}
			dst = append(dst, c)
			space = false
		} else {
			space = true
		}
	}
	return dst
}

// appendNormalizedAny is appendNormalized for any text.
func appendNormalizedAny(dst []byte, s string) []byte {
	start := len(dst)
	space := false
	for _, r := range strings.ToLower(s) {
		if isWordRune(r) {
			if space && len(dst) > start {
				dst = append(dst, ' ')
			}
			dst = utf8.AppendRune(dst, r)
			space = false
		} else {
			space = true
		}
	}
	return dst
}

func asciiLower(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}
