package brain

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// slackMarkup matches Slack's escapes for users and broadcasts: <@U02BEN>,
// <@U02BEN|ben>, <!here>, <!channel>, <!everyone>, <!subteam^S1|@devs>.
var slackMarkup = regexp.MustCompile(`<([@!])([^<>|\s]+)(?:\|([^<>]*))?>`)

// StripMentions defuses the mentions in a reply written in someone's name,
// so that posting it tags nobody (the platform tags users itself): Slack's
// <@ID> and <!here>-style markup becomes its plain label (the name when the
// markup carries one, else the ID or keyword), and every run of @ that
// starts a word and is followed by a letter or digit is dropped — "@ben",
// "(@ben)", "cc:@ben", "[@dev]", "@Ægir" and "@@ada" all lose their @.
// An @ inside a word is kept, so e-mail addresses survive.
func StripMentions(s string) string {
	s = slackMarkup.ReplaceAllStringFunc(s, func(m string) string {
		g := slackMarkup.FindStringSubmatch(m)
		if label := strings.TrimSpace(g[3]); label != "" {
			return label
		}
		if g[1] == "!" {
			// <!subteam^S1> and the like: keep the keyword before the ^.
			kw, _, _ := strings.Cut(g[2], "^")
			return kw
		}
		return g[2]
	})
	if !strings.Contains(s, "@") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	prev := rune(-1) // the rune before the current position; -1 at the start
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r != '@' {
			b.WriteString(s[i : i+n])
			prev = r
			i += n
			continue
		}
		j := i
		for j < len(s) && s[j] == '@' {
			j++
		}
		next, _ := utf8.DecodeRuneInString(s[j:])
		if j < len(s) && isWordStart(next) && !isWordRune(prev) {
			i = j // a mention: drop the @ run, keep the name
			continue
		}
		b.WriteString(s[i:j])
		prev = '@'
		i = j
	}
	return b.String()
}

func isWordStart(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

func isWordRune(r rune) bool { return r == '_' || isWordStart(r) }
