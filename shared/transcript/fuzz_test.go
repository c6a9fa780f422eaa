package transcript

import "testing"

// FuzzParseID: ParseID never panics; what it accepts names a chat, and a
// session of at least 1 when one is given, which FormatID writes back as
// ParseID reads it.
func FuzzParseID(f *testing.F) {
	for _, s := range []string{"42:1", "-1234567890123:7", "42", "42:0", ":", "", "1:2:3", " 9:1 ", "+5:01"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		chat, session, err := ParseID(s)
		if err != nil {
			return
		}
		if session < 0 {
			t.Fatalf("ParseID(%q) = session %d", s, session)
		}
		if session == 0 {
			return
		}
		c2, s2, err := ParseID(FormatID(chat, session))
		if err != nil || c2 != chat || s2 != session {
			t.Fatalf("ParseID(FormatID(%d, %d)) = %d, %d, %v", chat, session, c2, s2, err)
		}
	})
}
