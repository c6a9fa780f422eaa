package convai

import (
	"regexp"
	"strings"
)

// decoration is what may stand before a reply's words without changing
// how a server reads it: white space, quotes, markup, a model's hidden
// reasoning or a speaker label.
var decoration = regexp.MustCompile("^(?:[\\s\\v\\p{Z}\u0085]|[\"'\u201c\u201d\u2018\u2019\u00ab\u00bb`*_>~]|(?s:<think>.*?</think>)|(?i:bot|assistant|ai|reply|answer)[\\s\\v\\p{Z}\u0085]*:)+")

// trailing is decoration that may close a reply: quotes and markup.
var trailing = regexp.MustCompile("(?:[\\s\\v\\p{Z}\u0085]|[\"'\u201c\u201d\u2018\u2019\u00ab\u00bb`*_~])+$")

// undecorate returns text without its decoration and with at most one
// leading slash.
func undecorate(text string) string {
	t := trailing.ReplaceAllString(decoration.ReplaceAllString(text, ""), "")
	if bare := strings.TrimLeft(t, "/"); len(bare) < len(t) {
		return "/" + bare
	}
	return t
}

// IsCommand reports whether a reply would be read as a protocol command:
// once stripped of quotes, markup, hidden reasoning, a speaker label and
// extra slashes, it starts with /start, /begin or /end.
func IsCommand(text string) bool {
	return Parse(undecorate(text)).Kind != Text
}

// Defuse returns text unchanged unless it reads as a command; then it
// returns it without the decoration and the slashes, so that only the
// bot's own final ever ends a chat.
func Defuse(text string) string {
	if !IsCommand(text) {
		return text
	}
	return strings.TrimLeft(undecorate(text), "/")
}
