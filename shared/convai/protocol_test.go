package convai

import (
	"fmt"
	"reflect"
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
		{"/end 1 5\nmore\nlines", Command{Kind: End, Arg: "1 5\nmore\nlines", Judge: &DefaultJudge}},
		{"/end 1 5\n/profile_0\ni like cats.", Command{Kind: End, Arg: "1 5\n/profile_0\ni like cats.",
			Judge: &brain.Judge{Min: 1, Max: 5, Profiles: [][]string{{"i like cats."}}}}},
		{"/END", Command{Kind: End}},
		{"/ending is near", Command{Kind: Text, Arg: "/ending is near"}},
		{"/startle", Command{Kind: Text, Arg: "/startle"}},
		{"  hello there ", Command{Kind: Text, Arg: "hello there"}},
		{"the /end of it", Command{Kind: Text, Arg: "the /end of it"}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got := Parse(tt.in)
			if got.Kind != tt.want.Kind || got.Arg != tt.want.Arg || got.Begin != tt.want.Begin || !reflect.DeepEqual(got.Judge, tt.want.Judge) {
				t.Errorf("Parse(%q) = %+v (judge %+v), want %+v (judge %+v)", tt.in, got, got.Judge, tt.want, tt.want.Judge)
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
		{"router final", EncodeFinal(brain.Scores{Quality: 7, Breadth: 1, Engagement: 10, Score: 4, Profile: new(int)}), true, true, ""},
		{"msg_evaluation differs", `{"text":"a","evaluation":5,"msg_evaluation":6}`, true, false, "differs"},
		{"msg_evaluation equal", `{"text":"a","evaluation":5,"msg_evaluation":5}`, true, false, ""},
		{"float score", `{"text":"/end","evaluation":{"quality":1,"breadth":2,"engagement":3,"score":2.5}}`, true, true, "score"},
		{"negative profile", `{"text":"/end","evaluation":{"quality":1,"breadth":2,"engagement":3,"score":2,"profile_idx":-1}}`, true, true, "profile_idx"},
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
	if got := EncodeReply("<b>&</b>", 3); got != `{"text":"<b>&</b>","evaluation":3,"msg_evaluation":3}` {
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

func TestParseJudge(t *testing.T) {
	cats := [][]string{{"i like cats.", "i am a nurse."}, {"i have two dogs."}}
	tests := []struct {
		name    string
		rest    string
		want    *brain.Judge
		wantErr string
	}{
		{"bare end", "", nil, ""},
		{"2017 reason", "Invalid JSON", nil, ""},
		{"range only", "1 5", &brain.Judge{Min: 1, Max: 5}, ""},
		{"router", "1 5\n/profile_0\ni like cats.\ni am a nurse.\n/profile_1\ni have two dogs.", &brain.Judge{Min: 1, Max: 5, Profiles: cats}, ""},
		{"crlf and blank lines", " 1  5 \r\n\r\n/profile_0\r\n i like cats. \r\ni am a nurse.\r\n\r\n/profile_1\r\ni have two dogs.\r\n", &brain.Judge{Min: 1, Max: 5, Profiles: cats}, ""},
		{"sentence on the profile line", "1 5\n/profile_0 i like cats.\ni am a nurse.\n/profile_1\ti have two dogs.", &brain.Judge{Min: 1, Max: 5, Profiles: cats}, ""},
		{"wide range", "0 10", &DefaultJudge, "range"},
		{"reversed range", "5 1", &DefaultJudge, "range"},
		{"huge range", "1 1000000", &DefaultJudge, "range"},
		{"one number", "5\n/profile_0\nx", &DefaultJudge, "two integers"},
		{"no range", "/profile_0\ni like cats.", &DefaultJudge, "two integers"},
		{"three numbers", "1 5 7", &DefaultJudge, "two integers"},
		{"overflow", "1 99999999999999999999999", &DefaultJudge, "two integers"},
		{"text before profiles", "1 5\ni like cats.", &DefaultJudge, "before /profile_0"},
		{"out of order", "1 5\n/profile_1\ni like cats.", &DefaultJudge, "want /profile_0"},
		{"empty profile", "1 5\n/profile_0\n/profile_1\ni like cats.", &DefaultJudge, "no sentences"},
		{"empty last profile", "1 5\n/profile_0\ni like cats.\n/profile_1", &DefaultJudge, "no sentences"},
		{"too many profiles", "1 5" + manyProfiles(maxJudgeProfiles+1), &DefaultJudge, "more than"},
		{"too many sentences", "1 5\n/profile_0" + strings.Repeat("\nx", maxProfileLines+1), &DefaultJudge, "more than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseJudge(tt.rest)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseJudge(%q) = %+v, want %+v", tt.rest, got, tt.want)
			}
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("ParseJudge(%q) error = %v, want nil", tt.rest, err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("ParseJudge(%q) error = %v, want one containing %q", tt.rest, err, tt.wantErr)
			}
		})
	}
	if cmd := Parse("/end 5 1"); cmd.Kind != End || cmd.JudgeErr == nil || !reflect.DeepEqual(cmd.Judge, &DefaultJudge) {
		t.Errorf("Parse of a malformed request = %+v, want an /end asking 1..5 with its error", cmd)
	}
	if got, _ := ParseJudge("1 5"); got == &DefaultJudge || got.Profiles != nil {
		t.Errorf("ParseJudge returned the shared DefaultJudge or candidates: %+v", got)
	}
}

// manyProfiles returns n well-formed profile blocks.
func manyProfiles(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "\n/profile_%d\nsentence %d.", i, i)
	}
	return b.String()
}

func TestSettleFinal(t *testing.T) {
	idx := func(i int) *int { return &i }
	two := &brain.Judge{Min: 1, Max: 5, Profiles: [][]string{{"a"}, {"b"}}}
	tests := []struct {
		name string
		in   brain.Scores
		j    *brain.Judge
		want brain.Scores
	}{
		{"no judge, derived from quality", brain.Scores{Quality: 10, Breadth: 5, Engagement: 5}, nil, brain.Scores{Quality: 10, Breadth: 5, Engagement: 5, Score: 5}},
		{"no judge, low quality", brain.Scores{Quality: 1, Breadth: 5, Engagement: 5}, nil, brain.Scores{Quality: 1, Breadth: 5, Engagement: 5, Score: 1}},
		{"no judge, middle", brain.Scores{Quality: 6, Breadth: 5, Engagement: 5}, nil, brain.Scores{Quality: 6, Breadth: 5, Engagement: 5, Score: 3}},
		{"no judge, profile dropped", brain.Scores{Quality: 6, Breadth: 5, Engagement: 5, Score: 2, Profile: idx(1)}, nil, brain.Scores{Quality: 6, Breadth: 5, Engagement: 5, Score: 2}},
		{"score clamped high", brain.Scores{Quality: 5, Breadth: 5, Engagement: 5, Score: 9}, two, brain.Scores{Quality: 5, Breadth: 5, Engagement: 5, Score: 5, Profile: idx(0)}},
		{"score clamped low", brain.Scores{Quality: 5, Breadth: 5, Engagement: 5, Score: -3}, two, brain.Scores{Quality: 5, Breadth: 5, Engagement: 5, Score: 1, Profile: idx(0)}},
		{"profile kept", brain.Scores{Quality: 5, Breadth: 5, Engagement: 5, Score: 4, Profile: idx(1)}, two, brain.Scores{Quality: 5, Breadth: 5, Engagement: 5, Score: 4, Profile: idx(1)}},
		{"profile clamped", brain.Scores{Quality: 5, Breadth: 5, Engagement: 5, Score: 4, Profile: idx(7)}, two, brain.Scores{Quality: 5, Breadth: 5, Engagement: 5, Score: 4, Profile: idx(1)}},
		{"other range derived", brain.Scores{Quality: 10, Breadth: 0, Engagement: 11}, &brain.Judge{Min: 3, Max: 7}, brain.Scores{Quality: 10, Breadth: 1, Engagement: 10, Score: 7}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := SettleFinal(tt.in, tt.j)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("SettleFinal(%+v) = %+v, want %+v", tt.in, got, tt.want)
			}
			msg := EncodeFinal(got)
			if final, err := Validate(msg, true); !final || err != nil {
				t.Errorf("Validate(%s) = %v, %v", msg, final, err)
			}
			j := DefaultJudge
			if tt.j != nil {
				j = *tt.j
			}
			if err := CheckJudged(msg, j); err != nil {
				t.Errorf("CheckJudged(%s) = %v", msg, err)
			}
		})
	}
}

func TestCheckJudged(t *testing.T) {
	two := brain.Judge{Min: 1, Max: 5, Profiles: [][]string{{"a"}, {"b"}}}
	tests := []struct {
		name, msg string
		j         brain.Judge
		wantErr   string
	}{
		{"ok", `{"text":"/end","evaluation":{"score":3,"profile_idx":1}}`, two, ""},
		{"score missing", `{"text":"/end","evaluation":{"profile_idx":1}}`, two, "score"},
		{"score out of range", `{"text":"/end","evaluation":{"score":6,"profile_idx":1}}`, two, "1..5"},
		{"profile missing", `{"text":"/end","evaluation":{"score":3}}`, two, "profile_idx"},
		{"profile out of range", `{"text":"/end","evaluation":{"score":3,"profile_idx":2}}`, two, "0..1"},
		{"profile without candidates", `{"text":"/end","evaluation":{"score":3,"profile_idx":0}}`, DefaultJudge, "without candidate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckJudged(tt.msg, tt.j)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("CheckJudged(%s) = %v, want nil", tt.msg, err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("CheckJudged(%s) = %v, want error containing %q", tt.msg, err, tt.wantErr)
			}
		})
	}
}
