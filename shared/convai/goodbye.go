package convai

import (
	"strings"
	"unicode"
)

// goodbyes are phrases by which a partner clearly ends a conversation.
var goodbyes = []string{
	"goodbye", "good bye", "bye", "bye bye", "byebye", "see you", "see ya", "farewell",
	"gotta go", "got to go", "have to go", "i must go", "need to go", "talk to you later",
	"talk later", "ttyl", "good night", "cya", "later",
}

// paddedGoodbyes are the goodbyes with a space either side, as they are
// found among the words.
var paddedGoodbyes = func() []string {
	out := make([]string, len(goodbyes))
	for i, g := range goodbyes {
		out[i] = " " + g + " "
	}
	return out
}()

// IsGoodbye reports whether the partner's text clearly says goodbye: a
// farewell phrase that closes the last sentence, or makes up most of it
// when it is short ("later" only alone or in two words, so that "I will do
// it later" is no goodbye).
func IsGoodbye(text string) bool {
	// Closing punctuation and spacing in any order ("bye\n!?") end the
	// sentence they follow.
	t := strings.TrimRightFunc(strings.ToLower(strings.TrimSpace(text)), func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune("!.?,:;)(", r)
	})
	if t == "" {
		return false
	}
	// Look only at the last sentence: "bye" inside a question is not a farewell.
	if i := strings.LastIndexAny(t, ".!?\n"); i >= 0 {
		t = strings.TrimSpace(t[i+1:])
	}
	words := strings.FieldsFunc(t, func(r rune) bool { return r != '\'' && (r < 'a' || r > 'z') })
	joined := " " + strings.Join(words, " ") + " "
	for i, g := range goodbyes {
		padded := paddedGoodbyes[i]
		if strings.HasSuffix(joined, padded) || (len(words) <= 4 && strings.Contains(joined, padded)) {
			if g == "later" && len(words) > 2 {
				continue
			}
			return true
		}
	}
	return false
}
