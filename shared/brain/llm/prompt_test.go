package llm

import (
	"strings"
	"testing"

	"github.com/duetbot/duet/shared/brain"
)

func TestReplyPromptClosing(t *testing.T) {
	req := brain.Request{Context: "A wasp on your wrist.", Turns: []brain.Turn{{Role: brain.Partner, Text: "Bye!"}}}
	if got := replyPrompt(req).System; strings.Contains(got, "last message") {
		t.Errorf("prompt of an ongoing chat asks to take leave:\n%s", got)
	}
	req.Closing = true
	if got := replyPrompt(req).System; !strings.Contains(got, "last message") || !strings.Contains(got, "Take leave") {
		t.Errorf("prompt of a closing reply does not ask to take leave:\n%s", got)
	}
}

func TestReplyPromptProfile(t *testing.T) {
	profile := "i like to ride horses.\ni help tend the fields.\ni have three horses.\nmy favorite season is spring."
	got := replyPrompt(brain.Request{Context: profile}).System
	if !strings.Contains(got, "You play the person described by the profile") || !strings.Contains(got, "i have three horses.") ||
		!strings.Contains(got, "never copy three or more words") {
		t.Errorf("prompt of a ConvAI2 chat does not give the profile to play:\n%s", got)
	}
	ctx := "You're sitting watching TV, and suddenly you discover a wasp crawling on your wrist. What you gonna do?"
	if got := replyPrompt(brain.Request{Context: ctx}).System; strings.Contains(got, "profile") || !strings.Contains(got, "wasp") {
		t.Errorf("prompt of a 2017 chat talks of a profile:\n%s", got)
	}
}

func TestIsProfile(t *testing.T) {
	tests := map[string]bool{
		"i like to ride horses.\ni help tend the fields.\ni have three horses.":                         true,
		"I'm a nurse.\nMy cat is old.\n\ni love tea.\nwinters here are long.":                           true,
		"The Trans-Siberian Railway is the longest railway line.\nIt connects Moscow with Vladivostok.": false,
		"i like cats.": false,
		"":             false,
		"i like cats.\n" + strings.Repeat("i ", 100): false,
	}
	for in, want := range tests {
		if got := isProfile(in); got != want {
			t.Errorf("isProfile(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestFinalPromptJudge(t *testing.T) {
	req := brain.Request{Context: "i like cats.\ni am a nurse.", Turns: []brain.Turn{{Role: brain.Partner, Text: "i have two dogs."}}}
	if got := finalPrompt(req).System; strings.Contains(got, "score") || strings.Contains(got, "profile_idx") {
		t.Errorf("final prompt without a request asks for the router's keys:\n%s", got)
	}
	req.Judge = &brain.Judge{Min: 1, Max: 5}
	p := finalPrompt(req)
	if !strings.Contains(p.System, `"score": S`) || !strings.Contains(p.System, "from 1 to 5") || strings.Contains(p.System, "profile_idx") {
		t.Errorf("final prompt for a range asks for the wrong keys:\n%s", p.System)
	}
	req.Judge.Profiles = [][]string{{"i am a pilot.", "i hate tea."}, {"i have two dogs."}}
	p = finalPrompt(req)
	user := p.Messages[0].Content
	if !strings.Contains(p.System, `"profile_idx": P`) || !strings.Contains(p.System, "0 to 1") ||
		!strings.Contains(user, "Profile 0: i am a pilot. i hate tea.") || !strings.Contains(user, "Profile 1: i have two dogs.") {
		t.Errorf("final prompt with candidates:\n%s\n%s", p.System, user)
	}
}
