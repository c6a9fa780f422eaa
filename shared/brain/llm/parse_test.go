package llm

import (
	"errors"
	"strings"
	"testing"

	"github.com/duetbot/duet/shared/brain"
)

func TestParseScores(t *testing.T) {
	tests := []struct {
		name string
		text string
		keys []string
		want map[string]int
	}{
		{"plain", `{"evaluation": 7}`, []string{"evaluation"}, map[string]int{"evaluation": 7}},
		{"fenced", "```json\n{\"evaluation\": 10}\n```", []string{"evaluation"}, map[string]int{"evaluation": 10}},
		{"extra key", `{"evaluation": 3, "reason": "rude"}`, []string{"evaluation"}, map[string]int{"evaluation": 3}},
		{"whole float", `{"evaluation": 4.0}`, []string{"evaluation"}, map[string]int{"evaluation": 4}},
		{"thinking first", `<think>hmm</think>{"evaluation": 5}`, []string{"evaluation"}, map[string]int{"evaluation": 5}},
		{"final", `{"quality":8,"breadth":6,"engagement":9}`, []string{"quality", "breadth", "engagement"}, map[string]int{"quality": 8, "breadth": 6, "engagement": 9}},
		{"too high", `{"evaluation": 11}`, []string{"evaluation"}, nil},
		{"zero", `{"evaluation": 0}`, []string{"evaluation"}, nil},
		{"string", `{"evaluation": "7"}`, []string{"evaluation"}, nil},
		{"word", `seven`, []string{"evaluation"}, nil},
		{"bare number", `7`, []string{"evaluation"}, nil},
		{"fraction", `{"evaluation": 7.5}`, []string{"evaluation"}, nil},
		{"missing key", `{"quality":8,"breadth":6}`, []string{"quality", "breadth", "engagement"}, nil},
		{"text around", `Sure! {"evaluation": 7}`, []string{"evaluation"}, nil},
		{"text after", `{"evaluation": 7} hope that helps`, []string{"evaluation"}, nil},
		{"null", `null`, []string{"evaluation"}, nil},
		{"array", `[7]`, []string{"evaluation"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseScores(tt.text, tt.keys...)
			if tt.want == nil {
				if !errors.Is(err, ErrInvalid) {
					t.Fatalf("parseScores(%q): got %v, %v, want ErrInvalid", tt.text, got, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("parseScores(%q): %v", tt.text, err)
			}
			for k, v := range tt.want {
				if got[k] != v {
					t.Errorf("%s: got %d, want %d", k, got[k], v)
				}
			}
		})
	}
}

func TestCleanReply(t *testing.T) {
	tests := []struct {
		name    string
		text    string
		persona bool
		labels  []string
		want    string
	}{
		{"plain", "  Sounds good to me.  ", false, nil, "Sounds good to me."},
		{"quoted", `"Which part do you mean?"`, false, nil, "Which part do you mean?"},
		{"curly quoted", "“Which part?”", false, nil, "Which part?"},
		{"inner quotes kept", `"Yes" is what I said, "no" is what you heard`, false, nil, `"Yes" is what I said, "no" is what you heard`},
		{"bot label", "Bot: I think so.", false, nil, "I think so."},
		{"name label", "ada: sure thing", true, []string{"Ada"}, "sure thing"},
		{"continues dialogue", "Nice one.\nPartner: thanks!\nBot: welcome", false, nil, "Nice one."},
		{"thinking", "<think>they want a pun</think>Puns are great.", false, nil, "Puns are great."},
		{"mentions defused", "ask @bob or (@carol)", true, nil, "ask bob or (carol)"},
		{"quoted mention", `they said "@ben" knows`, true, nil, `they said "ben" knows`},
		{"cc mention", "cc:@chloe", true, nil, "cc:chloe"},
		{"bracketed mention", "[@dev] ping", true, nil, "[dev] ping"},
		{"slack mention", "ask <@U02BEN> and <!here>", true, nil, "ask U02BEN and here"},
		{"non-ASCII mention", "thanks @Ægir", true, nil, "thanks Ægir"},
		{"doubled @", "@@ada look", true, nil, "ada look"},
		{"e-mail kept in persona", "mail me at a@b.com", true, nil, "mail me at a@b.com"},
		{"continues as another speaker", "Sure, Friday works.\nBen: great, thanks!\nAda: np", true, []string{"Ada"}, "Sure, Friday works."},
		{"labelled, then another speaker", "Ada: sure thing\nben: thanks\nAda: np", true, []string{"Ada", "Ada"}, "sure thing"},
		{"continues as the persona", "Sure.\nAda Lovelace: and another thing", true, []string{"Ada Lovelace", "Ada"}, "Sure."},
		{"continues as user", "Sure.\nChloe: me too\nUser: ok", true, nil, "Sure."},
		{"a note is text", "Sure, Friday works.\nNote: bring coffee.", true, []string{"Ada"}, "Sure, Friday works.\nNote: bring coffee."},
		{"a time is text", "Meet at\n10:30 then", true, []string{"Ada"}, "Meet at\n10:30 then"},
		{"mentions kept in ConvAI", "mail me at a@b.c", false, nil, "mail me at a@b.c"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := cleanReply(tt.text, tt.persona, tt.labels...)
			if err != nil || got != tt.want {
				t.Errorf("cleanReply(%q): got %q, %v, want %q", tt.text, got, err, tt.want)
			}
		})
	}
	for _, bad := range []string{"", "   ", `""`, "<think>unfinished", `{"reply": "hi"}`,
		"/end", "Bot: /end", `"/end"`, "<think>time to stop</think>/end", "/END now", "**/start** again", "//begin", "Bot\v:/END"} {
		if got, err := cleanReply(bad, false); !errors.Is(err, ErrInvalid) {
			t.Errorf("cleanReply(%q): got %q, %v, want ErrInvalid", bad, got, err)
		}
	}
	long := strings.Repeat("é", MaxReplyRunes+10)
	if got, _ := cleanReply(long, false); len([]rune(got)) != MaxReplyRunes {
		t.Errorf("long reply: got %d runes, want %d", len([]rune(got)), MaxReplyRunes)
	}
}

func TestCleanPersonaReply(t *testing.T) {
	req := brain.Request{
		Persona: &brain.Persona{Name: "Ada Lovelace"},
		Turns:   []brain.Turn{{Role: brain.Partner, Text: "Should we deploy on Friday?"}},
	}
	for _, echo := range []string{"Should we deploy on Friday?", "Ada: should we deploy on friday", `"Should we deploy on Friday? Hmm."`} {
		if got, err := cleanPersonaReply(echo, req); !errors.Is(err, ErrInvalid) {
			t.Errorf("cleanPersonaReply(%q): got %q, %v, want ErrInvalid (an echo)", echo, got, err)
		}
	}
	got, err := cleanPersonaReply("Ada: No. Friday deploys mean weekend pages, cc @ben.\nBen: fair", req)
	if want := "No. Friday deploys mean weekend pages, cc ben."; err != nil || got != want {
		t.Errorf("cleanPersonaReply: got %q, %v, want %q", got, err, want)
	}
}

func TestNormalize(t *testing.T) {
	got := Normalize([]Message{
		{RoleAssistant, "hello"},
		{RoleUser, "hi"},
		{RoleUser, "there"},
		{RoleUser, ""},
		{RoleAssistant, "ok"},
	}, "start", "next")
	want := []Message{{RoleUser, "start"}, {RoleAssistant, "hello"}, {RoleUser, "hi\nthere"}, {RoleAssistant, "ok"}, {RoleUser, "next"}}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("message %d: got %v, want %v", i, got[i], want[i])
		}
	}
	if got := Normalize(nil, "start", "next"); len(got) != 1 || got[0].Content != "start" {
		t.Errorf("empty: got %v, want the start message", got)
	}
}
