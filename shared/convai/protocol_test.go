package convai

import (
	"strings"
	"testing"

	"github.com/duetbot/duet/shared/brain"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want Command
	}{
		{"/start You're watching TV. A wasp!", Command{Kind: Start, Arg: "You're watching TV. A wasp!"}},
		{"/start\nline one\nline two", Command{Kind: Start, Arg: "line one\nline two"}},
		{"/start ctx\n/begin", Command{Kind: Start, Arg: "ctx", Begin: true}},
		{"/start@duet_bot ctx", Command{Kind: Start, Arg: "ctx"}},
		{"/start", Command{Kind: Start}},
		{"/begin", Command{Kind: Begin}},
		{"/end", Command{Kind: End}},
		{"/end Invalid JSON", Command{Kind: End, Arg: "Invalid JSON"}},
		{"/end 1 5\nmore\nlines", Command{Kind: End, Arg: "1 5\nmore\nlines"}},
		{"/END", Command{Kind: End}},
		{"/ending is near", Command{Kind: Text, Arg: "/ending is near"}},
		{"/startle", Command{Kind: Text, Arg: "/startle"}},
		{"  hello there ", Command{Kind: Text, Arg: "hello there"}},
		{"the /end of it", Command{Kind: Text, Arg: "the /end of it"}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := Parse(tt.in); got != tt.want {
				t.Errorf("Parse(%q) = %+v, want %+v", tt.in, got, tt.want)
			}
		})
	}
}

func TestEncodeValidate(t *testing.T) {
	long := strings.Repeat("é", MaxTextLen+10)
	tests := []struct {
		name        string
		msg         string
		requireEval bool
		wantFinal   bool
		wantErr     string
	}{
		{"reply", EncodeReply("Hello", 7), true, false, ""},
		{"context reply without evaluation", EncodeReply("Hi", 0), false, false, ""},
		{"missing evaluation", EncodeReply("Hi", 0), true, false, "missing"},
		{"clamped high", EncodeReply("Hi", 42), true, false, ""},
		{"final", EncodeFinal(brain.Scores{Quality: 7, Breadth: 0, Engagement: 11}), true, true, ""},
		{"not json", "hello", true, false, "not a JSON object"},
		{"float evaluation", `{"text":"a","evaluation":5.5}`, true, false, "integer"},
		{"evaluation out of range", `{"text":"a","evaluation":0}`, true, false, "1..10"},
		{"string evaluation", `{"text":"a","evaluation":"5"}`, true, false, "integer"},
		{"empty text", `{"text":" ","evaluation":5}`, true, false, "empty"},
		{"end without scores", `{"text":"/end","evaluation":5}`, true, true, "object"},
		{"end missing breadth", `{"text":"/end","evaluation":{"quality":1,"engagement":2}}`, true, true, "breadth"},
		{"too long", `{"text":"` + long + `","evaluation":5}`, true, false, "characters"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			final, err := Validate(tt.msg, tt.requireEval)
			if final != tt.wantFinal {
				t.Errorf("final = %v, want %v", final, tt.wantFinal)
			}
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("Validate(%s) = %v, want nil", tt.msg, err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("Validate(%s) = %v, want error containing %q", tt.msg, err, tt.wantErr)
			}
		})
	}
}

func TestEncodeReplyTruncates(t *testing.T) {
	for _, text := range []string{strings.Repeat("ж", MaxTextLen*2), strings.Repeat("\"\n", MaxTextLen)} {
		msg := EncodeReply(text, 5)
		if _, err := Validate(msg, true); err != nil {
			t.Fatalf("Validate(EncodeReply(%d chars)) = %v, want nil", len([]rune(text)), err)
		}
	}
	if got := EncodeReply("<b>&</b>", 3); got != `{"text":"<b>&</b>","evaluation":3}` {
		t.Errorf("EncodeReply escapes HTML: got %s", got)
	}
}

func TestIsGoodbye(t *testing.T) {
	tests := map[string]bool{
		"Bye!":                        true,
		"OK. See you!":                true,
		"ok, goodbye":                 true,
		"I have to go now, bye":       true,
		"Gotta go.":                   true,
		"see you later":               true,
		"Good night!":                 true,
		"I will do it later":          false,
		"Why did you say bye to him?": false,
		"A stinging bug that flies.":  false,
		"":                            false,
		"bye the way, what is it?":    false,
	}
	for in, want := range tests {
		t.Run(in, func(t *testing.T) {
			if got := IsGoodbye(in); got != want {
				t.Errorf("IsGoodbye(%q) = %v, want %v", in, got, want)
			}
		})
	}
}
