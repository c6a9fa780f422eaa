package embed

import "testing"

func TestEchoes(t *testing.T) {
	tests := []struct {
		reply, message string
		want           bool
	}{
		{"Should we deploy on Friday?", "should we deploy on friday", true},
		{"echo: should we deploy on Friday?", "Should we deploy on Friday?", true},
		{"Should we deploy on Friday? Good question.", "Should we deploy on Friday?", true},
		{"We should deploy on Friday?", "Should we deploy on Friday?", true}, // same words, reordered
		{"Should we deploy on Monday?", "Should we deploy on Friday?", true}, // 4 of 5 words
		{"Short answer: no. Friday deploys mean weekend pages.", "Should we deploy on Friday?", false},
		{"ok, ship it on Monday then", "ok", false},
		{"ok", "ok", true},
		{"hello there", "hello there", true},
		{"hello there friend", "hello there", true},
		{"hello there, how was the trip to Lisbon?", "hello there", false},
		{"", "", true},
		{"anything", "", false},
	}
	for _, tt := range tests {
		if got := Echoes(tt.reply, tt.message); got != tt.want {
			t.Errorf("Echoes(%q, %q): got %v, want %v", tt.reply, tt.message, got, tt.want)
		}
	}
}
