package convai

import (
	"hash/fnv"
	"testing"
)

func TestSameReply(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"Hi  there", "hi there", true},
		{" Hi there\n", "HI\tTHERE", true},
		{"hi there", "hi there!", false},
		{"hi there", "hi", false},
		{"", "", true},
		{"Ünïcode Äpfel", "ünïcode   äpfel", true},
	} {
		if got := sameReply(tc.a, tc.b); got != tc.same {
			t.Errorf("sameReply(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.same)
		}
		if tc.same && replyHash(tc.a) != replyHash(tc.b) {
			t.Errorf("replyHash(%q) != replyHash(%q), but they are the same reply", tc.a, tc.b)
		}
		if h := replyHash(tc.a); h >= 1<<HashBits {
			t.Errorf("replyHash(%q) = %d, wider than %d bits", tc.a, h, HashBits)
		}
	}
}

// TestSaidSeesThroughCollisions: a hash in the head's Said that a stored
// record of another text explains is not taken for a repeat.
func TestSaidSeesThroughCollisions(t *testing.T) {
	a := "re 5: chat 1 message 2"
	var b string
	for i := 0; ; i++ { // another text with a's hash
		b = "other " + string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + string(rune('a'+i/676%26))
		if replyHash(b) == replyHash(a) {
			break
		}
	}
	s := &session{number: 1, head: Head{Session: 1, Said: []uint16{replyHash(b)}}, records: []Record{{Session: 1, Seq: 1, Bot: b}}}
	if s.said(a) {
		t.Errorf("%q taken for a repeat of %q, whose hash it shares", a, b)
	}
	if !s.said(b) {
		t.Errorf("%q, stored, not taken for a repeat", b)
	}
	s.records = nil // b has left the Window: only its hash is left
	if !s.said(b) {
		t.Errorf("%q, delivered before the Window, not taken for a repeat", b)
	}
}

// FuzzReplyHash: a reply's hash is the FNV-1a hash of its normal form
// (normalReply), folded to HashBits, whatever the text (a model's reply
// may be any bytes): so every two texts that are the same reply share it.
func FuzzReplyHash(f *testing.F) {
	for _, s := range []string{"Hi  there", " HI\tTHERE\n", "Ünïcode Äpfel", "", "\xff\xfe a", "ǅ  İ ẞ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		h := fnv.New32a()
		h.Write([]byte(normalReply(text)))
		sum := h.Sum32()
		want := uint16(sum^sum>>12^sum>>24) & (1<<HashBits - 1)
		if got := replyHash(text); got != want {
			t.Errorf("replyHash(%q) = %d, want %d, the hash of %q", text, got, want, normalReply(text))
		}
		if !sameReply(text, normalReply(text)) {
			t.Errorf("%q is not the same reply as its normal form %q", text, normalReply(text))
		}
	})
}
