package brain

import "testing"

func TestStripMentions(t *testing.T) {
	tests := []struct{ in, want string }{
		{"ask @bob or (@carol)", "ask bob or (carol)"},
		{"@ada first", "ada first"},
		{`they said "@ben" would know`, `they said "ben" would know`},
		{"cc:@chloe", "cc:chloe"},
		{"[@dev] please", "[dev] please"},
		{"ping <@U02BEN> now", "ping U02BEN now"},
		{"ping <@U02BEN|ben> now", "ping ben now"},
		{"<!here> standup", "here standup"},
		{"<!channel>: deploy at 5", "channel: deploy at 5"},
		{"<!subteam^S1|@devs> look", "devs look"},
		{"thanks @Ægir", "thanks Ægir"},
		{"@@ada and @@@bob", "ada and bob"},
		{"mail a@b.com or ada@@example.org", "mail a@b.com or ada@@example.org"},
		{"snake_case@host stays", "snake_case@host stays"},
		{"meet @ 5pm, @ alone, trailing @", "meet @ 5pm, @ alone, trailing @"},
		{"@_private stays", "@_private stays"},
		{"x < y and a <b> tag", "x < y and a <b> tag"},
		{"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := StripMentions(tt.in); got != tt.want {
				t.Errorf("StripMentions(%q): got %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
