package convai

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/duetbot/duet/shared/brain"
)

// commandSeeds are server messages of the three dialects and near misses.
var commandSeeds = []string{
	"/start You're watching TV. A wasp!",
	"/start\nline one\nline two\n/begin",
	"/start@duet_bot ctx\n /BEGIN@duet_bot \r\n",
	"/start\tctx",
	"/START",
	"/begin", "/begin now", "/end", "/END@bot reason",
	"/end 1 5\n/profile_0 i like cats.\n/profile_1 i have two dogs.",
	"/ending", "/startle", "/start@", "/@start", "//start", " /end ",
	"/end\u00a0bye", "/start\vctx", "\u200b/end", "the /end of it", "",
	"/ſtart", "/\u212aend",
}

// asciiLower lower-cases ASCII letters only.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// wantKind is the prefix rule Parse documents, written independently: the
// trimmed text opens with /start, /begin or /end (any case, with an
// optional @botname) followed by white space or the end.
func wantKind(text string) (Kind, string) {
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "/") {
		return Text, t
	}
	head, rest := t, ""
	if i := strings.IndexAny(t, " \t\r\n"); i >= 0 {
		head, rest = t[:i], strings.TrimSpace(t[i:])
	}
	name, _, _ := strings.Cut(head[1:], "@")
	switch asciiLower(name) {
	case "start":
		return Start, rest
	case "begin":
		return Begin, rest
	case "end":
		return End, rest
	}
	return Text, t
}

// FuzzParse checks Parse against the prefix rule: a command is a prefix
// followed by white space or the end (never only the whole text), Arg is
// the trimmed rest (for /start, without a closing /begin line, which sets
// Begin), and a text is the trimmed message itself.
func FuzzParse(f *testing.F) {
	for _, s := range commandSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		got := Parse(text)
		kind, arg := wantKind(text)
		if got.Kind != kind {
			t.Fatalf("Parse(%q).Kind = %s, want %s", text, got.Kind, kind)
		}
		if got.Begin && got.Kind != Start {
			t.Fatalf("Parse(%q): Begin set on %s", text, got.Kind)
		}
		if got.Kind != Start || !got.Begin {
			if got.Arg != arg {
				t.Fatalf("Parse(%q).Arg = %q, want %q", text, got.Arg, arg)
			}
			return
		}
		// A /start closed by a /begin line: Arg is what comes before it.
		i := strings.LastIndex(arg, "\n")
		last := arg[i+1:]
		if k, rest := wantKind(last); k != Begin || rest != "" {
			t.Fatalf("Parse(%q): Begin set, but the last line %q is not /begin", text, last)
		}
		before := ""
		if i >= 0 {
			before = strings.TrimSpace(arg[:i])
		}
		if got.Arg != before {
			t.Fatalf("Parse(%q).Arg = %q, want %q", text, got.Arg, before)
		}
	})
}

// FuzzParseRoundTrip checks that a context (or an /end reason, such as the
// ConvAI2 evaluation request "/end <lo> <hi>\n/profile_0 …") comes back from
// Parse of the command that carries it, whatever the separator, case and
// @botname, trimmed of white space.
func FuzzParseRoundTrip(f *testing.F) {
	f.Add("You're watching TV. A wasp!", uint8(0), uint8(0), false)
	f.Add("line one\nline two", uint8(1), uint8(1), true)
	f.Add("1 5\n/profile_0 i like cats.\n/profile_1 i have two dogs.", uint8(2), uint8(2), false)
	f.Add("  /begin  ", uint8(3), uint8(3), true)
	f.Fuzz(func(t *testing.T, ctx string, sepIdx, nameIdx uint8, withBegin bool) {
		sep := []string{" ", "\n", "\t", "\r\n"}[sepIdx%4]
		name := []string{"/start", "/START", "/start@duet_bot", "/Start@x"}[nameIdx%4]
		want := strings.TrimSpace(ctx)
		msg := name + sep + ctx
		if withBegin {
			msg += "\n/begin"
		}
		got := Parse(msg)
		if got.Kind != Start {
			t.Fatalf("Parse(%q).Kind = %s, want start", msg, got.Kind)
		}
		if withBegin {
			if !got.Begin {
				t.Fatalf("Parse(%q).Begin = false, want true", msg)
			}
			if got.Arg != want {
				t.Fatalf("Parse(%q).Arg = %q, want %q", msg, got.Arg, want)
			}
		} else if !got.Begin && got.Arg != want {
			t.Fatalf("Parse(%q).Arg = %q, want %q", msg, got.Arg, want)
		}
		endName := []string{"/end", "/END", "/end@duet_bot", "/End@x"}[nameIdx%4]
		end := Parse(endName + sep + ctx)
		if end.Kind != End || end.Arg != want || end.Begin {
			t.Fatalf("/end%s%q: got %+v, want end with Arg %q", sep, ctx, end, want)
		}
	})
}

// decodeReply decodes one protocol message into its text and evaluation.
func decodeReply(t *testing.T, msg string) (text string, eval json.RawMessage, has bool) {
	t.Helper()
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(msg), &raw); err != nil {
		t.Fatalf("%q is not a JSON object: %v", msg, err)
	}
	if err := json.Unmarshal(raw["text"], &text); err != nil {
		t.Fatalf("%q: text is not a string: %v", msg, err)
	}
	eval, has = raw["evaluation"]
	return text, eval, has
}

// intIn reports whether raw is a JSON integer literal within lo..hi.
func intIn(raw json.RawMessage, lo, hi int) bool {
	var n int
	return !bytes.ContainsAny(raw, ".eE\"") && json.Unmarshal(raw, &n) == nil && n >= lo && n <= hi
}

// FuzzEncodeReply checks that every reply message, for any text and
// rating, is at most MaxTextLen characters of JSON whose text is a prefix
// of the trimmed reply (cut only as much as needed) and whose evaluation is
// the clamped rating, absent for 0; and that the reply the engine makes of
// any model output (Defuse, then EncodeReply) is a valid, non-final
// protocol message.
func FuzzEncodeReply(f *testing.F) {
	for i, s := range commandSeeds {
		f.Add(s, i-3)
	}
	// Unicode spaces before a command (CI's fuzzing found the em space).
	for _, s := range []string{"\u2003/end", "\u00a0\"/start x", "bot:\u2002/end", "\u0085/begin", "\v/end"} {
		f.Add(s, 5)
	}
	f.Add(strings.Repeat("ж", MaxTextLen+1), 5)
	f.Add(strings.Repeat("\"\n", MaxTextLen), 11)
	f.Add(strings.Repeat("\x01", 2*MaxTextLen), -7)
	f.Add(strings.Repeat("\xff", MaxTextLen), 1)
	f.Add("\"/end\"", 10)
	f.Add("<think>x</think> Bot: //END please", 3)
	f.Fuzz(func(t *testing.T, text string, rating int) {
		msg := EncodeReply(text, rating)
		if n := utf8.RuneCountInString(msg); n > MaxTextLen {
			t.Fatalf("EncodeReply: %d characters, want at most %d", n, MaxTextLen)
		}
		got, eval, has := decodeReply(t, msg)
		var full string // the trimmed text as JSON carries it
		_ = json.Unmarshal(mustJSONBytes(strings.TrimSpace(text)), &full)
		if !strings.HasPrefix(full, got) {
			t.Fatalf("EncodeReply text %q is not a prefix of %q", got, full)
		}
		// Invalid UTF-8 is cut by more: each bad byte counts as one character
		// but takes six (\ufffd) until the first cut turns it into one.
		// Telegram texts and model output are always valid UTF-8.
		if got != full && utf8.ValidString(text) && utf8.RuneCountInString(msg) < MaxTextLen-6 {
			t.Fatalf("EncodeReply cut the text to %d characters of message, more than needed", utf8.RuneCountInString(msg))
		}
		switch {
		case rating == 0 && has:
			t.Fatalf("rating 0 gave evaluation %s", eval)
		case rating != 0 && (!has || !intIn(eval, brain.Clamp(rating), brain.Clamp(rating))):
			t.Fatalf("rating %d gave evaluation %s, want %d", rating, eval, brain.Clamp(rating))
		}

		// The engine's path: Defuse, refuse an empty reply, cut, encode.
		reply := Defuse(text)
		if IsCommand(reply) || Parse(reply).Kind != Text {
			t.Fatalf("Defuse(%q) = %q still reads as a command", text, reply)
		}
		if !IsCommand(text) && reply != text {
			t.Fatalf("Defuse changed %q, which is no command, to %q", text, reply)
		}
		if strings.TrimSpace(reply) == "" {
			return
		}
		for _, r := range []int{0, brain.Clamp(rating)} {
			final, err := Validate(EncodeReply(truncate(reply, MaxTextLen), r), r != 0)
			if err != nil || final {
				t.Fatalf("the reply to %q is not a valid message: final %v, %v", text, final, err)
			}
		}
	})
}

func mustJSONBytes(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}

// FuzzEncodeFinal checks that the final message, for any scores, is a
// valid /end with the three clamped integer scores, the score always
// present (derived from quality into 1..5 when the evaluator gave none) and
// a profile guess only when one was made; and that SettleFinal for any
// request puts the score in its range and the guess among its candidates.
func FuzzEncodeFinal(f *testing.F) {
	f.Add(7, 0, 11, 0, -1, 1, 5, uint8(2))
	f.Add(-1<<63, 1<<62, 5, 1<<62, 0, 1, 5, uint8(0))
	f.Add(5, 5, 5, 3, 7, 3, 7, uint8(32))
	f.Fuzz(func(t *testing.T, q, b, e, score, profile, lo, hi int, n uint8) {
		in := brain.Scores{Quality: q, Breadth: b, Engagement: e, Score: score}
		if profile >= 0 {
			in.Profile = &profile
		}
		msg := EncodeFinal(in)
		final, err := Validate(msg, true)
		if !final || (err != nil && score >= 0 && score <= maxJudgeScore && profile < maxJudgeProfiles) {
			t.Fatalf("EncodeFinal(%+v) = %s: final %v, %v", in, msg, final, err)
		}
		var got Final
		if err := json.Unmarshal([]byte(msg), &got); err != nil {
			t.Fatal(err)
		}
		want := brain.Scores{Quality: brain.Clamp(q), Breadth: brain.Clamp(b), Engagement: brain.Clamp(e), Score: score}
		if score == 0 {
			want.Score = scaleScore(q, 1, 5)
		}
		if got.Text != "/end" || got.Evaluation.Quality != want.Quality || got.Evaluation.Breadth != want.Breadth ||
			got.Evaluation.Engagement != want.Engagement || got.Evaluation.Score != want.Score {
			t.Fatalf("EncodeFinal(%+v) = %+v, want /end with %+v", in, got, want)
		}
		if (got.Evaluation.Profile != nil) != (profile >= 0) || profile >= 0 && *got.Evaluation.Profile != profile {
			t.Fatalf("EncodeFinal(%+v): profile_idx %v, want %d", in, got.Evaluation.Profile, profile)
		}

		// Any request the parser accepts: the settled final satisfies it.
		j := &brain.Judge{Min: lo, Max: hi}
		for i := range int(n) % (maxJudgeProfiles + 1) {
			j.Profiles = append(j.Profiles, []string{fmt.Sprint("sentence ", i)})
		}
		if j2, err := ParseJudge(FormatJudge(*j)[len("/end "):]); err != nil || j2 == nil {
			return // not a request the bot accepts: it answers DefaultJudge instead
		}
		settled := SettleFinal(in, j)
		msg = EncodeFinal(settled)
		if final, err := Validate(msg, true); !final || err != nil {
			t.Fatalf("EncodeFinal(SettleFinal(%+v, %d..%d)) = %s: %v", in, lo, hi, msg, err)
		}
		if err := CheckJudged(msg, *j); err != nil {
			t.Fatalf("SettleFinal(%+v, %d..%d, %d profiles) = %s: %v", in, lo, hi, len(j.Profiles), msg, err)
		}
	})
}

// FuzzParseJudge checks the reader of the router's evaluation request:
// never a panic; an accepted request has 1 <= lo <= hi <= maxJudgeScore
// and non-empty, trimmed, single-line profile sentences; a rejected one
// falls back to DefaultJudge with an error; formatting an accepted request
// and reading it back (with CRLF line ends and blank lines added) gives it
// again; and the final settled for it is in its range.
func FuzzParseJudge(f *testing.F) {
	f.Add("1 5\n/profile_0\ni like cats.\ni am a nurse.\n/profile_1\ni have two dogs.", 7, true)
	f.Add("1 5\r\n\r\n/profile_0 i like cats.\r\n", 0, false)
	f.Add("0 10", 3, false)
	f.Add("Invalid JSON", 3, false)
	f.Add("1 5\n/profile_1\nx", 3, false)
	f.Add("5", 3, true)
	f.Fuzz(func(t *testing.T, rest string, score int, crlf bool) {
		j, err := ParseJudge(rest)
		if err != nil {
			if !reflect.DeepEqual(j, &DefaultJudge) {
				t.Fatalf("ParseJudge(%q) failed (%v) with %+v, want DefaultJudge", rest, err, j)
			}
			return
		}
		if j == nil {
			return
		}
		if j.Min < 1 || j.Min > j.Max || j.Max > maxJudgeScore || len(j.Profiles) > maxJudgeProfiles {
			t.Fatalf("ParseJudge(%q) accepted %d..%d with %d profiles", rest, j.Min, j.Max, len(j.Profiles))
		}
		for i, p := range j.Profiles {
			if len(p) == 0 || len(p) > maxProfileLines {
				t.Fatalf("ParseJudge(%q): profile %d has %d sentences", rest, i, len(p))
			}
			for _, line := range p {
				if line == "" || line != strings.TrimSpace(line) || strings.ContainsAny(line, "\r\n") {
					t.Fatalf("ParseJudge(%q): profile %d sentence %q", rest, i, line)
				}
			}
		}
		msg := FormatJudge(*j)
		if crlf {
			msg = strings.ReplaceAll(msg, "\n", "\r\n\r\n")
		}
		cmd := Parse(msg)
		if cmd.Kind != End || cmd.JudgeErr != nil || !reflect.DeepEqual(cmd.Judge, j) {
			t.Fatalf("Parse(FormatJudge(%+v)) = %+v (judge %+v)", j, cmd, cmd.Judge)
		}
		s := SettleFinal(brain.Scores{Quality: score, Score: score, Profile: &score}, j)
		if s.Score < j.Min || s.Score > j.Max {
			t.Fatalf("SettleFinal score %d outside %d..%d", s.Score, j.Min, j.Max)
		}
		if (s.Profile != nil) != (len(j.Profiles) > 0) || s.Profile != nil && (*s.Profile < 0 || *s.Profile >= len(j.Profiles)) {
			t.Fatalf("SettleFinal profile %v with %d candidates", s.Profile, len(j.Profiles))
		}
	})
}

// FuzzValidate checks the validator the simulator (and the tests) judge
// bot messages with: it accepts only 1..MaxTextLen characters of a JSON
// object whose text is a non-empty string with an integer evaluation
// 1..10 (optional when not required), or a final /end whose evaluation
// holds the three integer scores 1..10.
func FuzzValidate(f *testing.F) {
	for _, s := range []string{
		EncodeReply("Hello", 7), EncodeReply("Hi", 0), EncodeFinal(brain.Scores{Quality: 7, Breadth: 1, Engagement: 10}),
		EncodeFinal(brain.Scores{Quality: 7, Breadth: 1, Engagement: 10, Score: 3, Profile: new(int)}),
		`{"text":"a","evaluation":5,"msg_evaluation":5}`, `{"text":"a","evaluation":5,"msg_evaluation":"5"}`,
		`{"text":"a","msg_evaluation":5}`, `{"text":"/end","evaluation":{"quality":1,"breadth":2,"engagement":3,"score":0,"profile_idx":-1}}`,
		`{"text":"a","evaluation":5.5}`, `{"text":"a","evaluation":5.0}`, `{"text":"a","evaluation":1e1}`,
		`{"text":"a","evaluation":"5"}`, `{"text":"a","evaluation":null}`, `{"text":" ","evaluation":5}`,
		`{"text":" /end ","evaluation":{"quality":1,"breadth":2,"engagement":3,"x":"y"}}`,
		`{"text":"/end","evaluation":5}`, `{"Text":"a","evaluation":5}`, `{"text":"a","evaluation":5,"evaluation":11}`,
		`hello`, `[]`, `null`, ``,
	} {
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, msg string, requireEval bool) {
		final, err := Validate(msg, requireEval)
		if err != nil {
			return
		}
		if n := utf8.RuneCountInString(msg); n < 1 || n > MaxTextLen {
			t.Fatalf("accepted %d characters", n)
		}
		text, eval, has := decodeReply(t, msg)
		if final {
			if strings.TrimSpace(text) != "/end" {
				t.Fatalf("final with text %q", text)
			}
			var s map[string]json.RawMessage
			if err := json.Unmarshal(eval, &s); err != nil {
				t.Fatalf("final evaluation %s is not an object", eval)
			}
			for _, k := range []string{"quality", "breadth", "engagement"} {
				if !intIn(s[k], 1, 10) {
					t.Fatalf("final %s = %s accepted", k, s[k])
				}
			}
			if v, ok := s["score"]; ok && !intIn(v, 1, maxJudgeScore) {
				t.Fatalf("final score = %s accepted", v)
			}
			if v, ok := s["profile_idx"]; ok && !intIn(v, 0, maxJudgeProfiles-1) {
				t.Fatalf("final profile_idx = %s accepted", v)
			}
			return
		}
		if strings.TrimSpace(text) == "" || strings.TrimSpace(text) == "/end" {
			t.Fatalf("reply with text %q accepted", text)
		}
		var raw map[string]json.RawMessage
		_ = json.Unmarshal([]byte(msg), &raw)
		if m, ok := raw["msg_evaluation"]; ok && (!has || !intIn(m, 1, 10) || !intIn(eval, 1, 10) || string(bytes.TrimSpace(m)) != string(bytes.TrimSpace(eval))) {
			t.Fatalf("msg_evaluation %s accepted beside evaluation %s", m, eval)
		}
		if requireEval && !has {
			t.Fatal("reply without a required evaluation accepted")
		}
		if has && !intIn(eval, 1, 10) {
			t.Fatalf("evaluation %s accepted", eval)
		}
	})
}

// FuzzIsGoodbye checks properties of IsGoodbye on any partner text: ASCII
// case, white space around the text and closing punctuation change
// nothing, and a text whose last sentence is "bye" always says goodbye.
func FuzzIsGoodbye(f *testing.F) {
	for _, s := range []string{"Bye!", "ok, see you later :)", "I will do it later", "Gotta go. Bye bye", "bye?\nwhy", "  ", "", "Talk to you LATER!!", "good-bye", "it's late, good night", "Byé", "\u212aeep in touch, bye", strings.Repeat("x", 300) + " bye"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		got := IsGoodbye(text)
		for _, variant := range []string{strings.ToUpper(asciiLower(text)), asciiLower(text), " " + text + "\n", text + "!?"} {
			if !utf8.ValidString(text) || strings.ContainsFunc(text, func(r rune) bool { return r >= utf8.RuneSelf }) {
				break // lower-casing a non-ASCII rune may give ASCII (the Kelvin sign)
			}
			if IsGoodbye(variant) != got {
				t.Fatalf("IsGoodbye(%q) = %v, but IsGoodbye(%q) = %v", text, got, variant, !got)
			}
		}
		if !IsGoodbye(text + ". Bye") {
			t.Fatalf("IsGoodbye(%q) = false", text+". Bye")
		}
	})
}
