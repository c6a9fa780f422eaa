package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/convai2"
	"github.com/duetbot/duet/shared/convaisim"
	"github.com/duetbot/duet/shared/transcript"
)

// chatRun runs duet chat with stdin and returns its output and error.
func chatRun(t testing.TB, stdin string, terminal bool, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var o, e bytes.Buffer
	err = runChatWith(context.Background(), args, strings.NewReader(stdin), terminal, &o, &e)
	return o.String(), e.String(), err
}

// chatTemp writes content to a file in a test's temporary directory.
func chatTemp(t testing.TB, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

var chatProfile = []string{"i like to ride horses.", "i help tend the fields.", "i have three horses."}

// TestChatScripted pipes a scripted conversation into duet chat -json in
// each dialect, in-process: every line is the protocol's JSON, one rated
// reply a partner line, the final last (answering the router's request in
// convai2018); the -save file holds the chat, and duet rate reads it back
// with the same ratings and final as the chat's.
func TestChatScripted(t *testing.T) {
	t.Setenv("BRAIN", "")
	profile := chatTemp(t, "profile.txt", strings.Join(chatProfile, "\n")+"\n")
	options := chatTemp(t, "options.txt", "i am a nurse.\ni have two cats.\n\ni love sushi.\ni run every morning.\n")
	lines := []string{"hi! i work as a nurse and have two cats.", "what do you do all day?", "do you ride every morning?"}
	for _, d := range []convaisim.Dialect{convaisim.DialectTelegram, convaisim.Dialect2017, convaisim.Dialect2018} {
		t.Run(string(d), func(t *testing.T) {
			save := filepath.Join(t.TempDir(), "chat.json")
			args := []string{"-json", "-dialect", string(d), "-profile", profile, "-save", save}
			if d == convaisim.Dialect2018 {
				args = append(args, "-options", options)
			}
			stdout, stderr, err := chatRun(t, strings.Join(lines, "\n")+"\n", false, args...)
			if err != nil {
				t.Fatalf("duet chat: %v\n%s", err, stderr)
			}
			out := strings.Split(strings.TrimSpace(stdout), "\n")
			if len(out) != len(lines)+1 {
				t.Fatalf("%d bot messages, want %d replies and the final:\n%s", len(out), len(lines), stdout)
			}
			var ratings []int
			for i, msg := range out {
				final, err := convai.Validate(msg, true)
				if err != nil {
					t.Fatalf("message %d %s: %v", i, msg, err)
				}
				if final != (i == len(out)-1) {
					t.Fatalf("message %d %s: final %v", i, msg, final)
				}
				if !final {
					var r convai.Reply
					if err := json.Unmarshal([]byte(msg), &r); err != nil || r.Evaluation == nil {
						t.Fatalf("reply %s: no rating (%v)", msg, err)
					}
					ratings = append(ratings, *r.Evaluation)
				}
			}
			var f convai.Final
			if err := json.Unmarshal([]byte(out[len(out)-1]), &f); err != nil {
				t.Fatal(err)
			}
			if d == convaisim.Dialect2018 {
				if err := convai.CheckJudged(out[len(out)-1], brain.Judge{Min: 1, Max: 5, Profiles: make([][]string, 2)}); err != nil || f.Evaluation.Profile == nil {
					t.Errorf("final %s does not answer the evaluation request: %v", out[len(out)-1], err)
				}
			}
			if !strings.Contains(stderr, "/start | "+strings.Join(chatProfile, " | ")) {
				t.Errorf("the chat did not open with the profile in one message: %s", stderr)
			}

			// The transcript, read back as duet rate reads it.
			b, err := os.ReadFile(save)
			if err != nil {
				t.Fatal(err)
			}
			ds, err := convai2.Parse(b)
			if err != nil {
				t.Fatalf("the -save file is not a ConvAI2 file: %v", err)
			}
			if len(ds) != 1 || len(ds[0].Messages) != 2*len(lines) || !slices.Equal(ds[0].BotProfile, chatProfile) {
				t.Fatalf("-save holds %+v", ds)
			}
			for i, m := range ds[0].Messages {
				if want := []string{convai2.Participant1, convai2.Participant2}[i%2]; m.Sender != want || (i%2 == 0 && m.Text != lines[i/2]) {
					t.Errorf("message %d: %s %q", i, m.Sender, m.Text)
				}
			}
			rateOut, rateErr, code := runDuet(t, "rate", "-dialogs", save, "-seat", convai2.Participant2, "-json")
			if code != 0 {
				t.Fatalf("duet rate: exit %d: %s", code, rateErr)
			}
			var rated struct {
				Ratings []struct{ ID, Evaluation int } `json:"ratings"`
				Final   brain.Scores                   `json:"final"`
			}
			if err := json.Unmarshal([]byte(rateOut), &rated); err != nil {
				t.Fatalf("duet rate -json: %v: %s", err, rateOut)
			}
			var again []int
			for i, r := range rated.Ratings {
				if r.ID != 2*i {
					t.Errorf("duet rate rated message %d, want the partner's %d", r.ID, 2*i)
				}
				again = append(again, r.Evaluation)
			}
			if !slices.Equal(again, ratings) {
				t.Errorf("duet rate gives the partner's lines %v, the chat %v", again, ratings)
			}
			if q := rated.Final; q.Quality != f.Evaluation.Quality || q.Breadth != f.Evaluation.Breadth || q.Engagement != f.Evaluation.Engagement {
				t.Errorf("duet rate's final %+v, the chat's %+v", q, f.Evaluation)
			}
		})
	}
}

// TestChatCommands types a context, /begin, /end and /new on a terminal:
// prompts, the bot's rating of each line, the final's scores, and a second
// chat after /new.
func TestChatCommands(t *testing.T) {
	t.Setenv("BRAIN", "")
	in := "You are on a train to Vladivostok.\n/begin\nhave you ever been to siberia?\n/end\n/new\nLibraries lend books for free.\nI read a lot of history books.\n"
	save := filepath.Join(t.TempDir(), "chats.json")
	stdout, stderr, err := chatRun(t, in, true, "-save", save)
	if err != nil {
		t.Fatalf("duet chat: %v\n%s", err, stderr)
	}
	for _, want := range []string{"context> ", "you> ", "bot: ", "[your line: ", "/10]", "bot ended the chat: quality "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if n := strings.Count(stdout, "bot ended the chat"); n != 2 {
		t.Errorf("%d finals, want 2 (one a chat):\n%s", n, stdout)
	}
	if n := strings.Count(stdout, "[your line: "); n != 2 {
		t.Errorf("%d rated lines, want 2 (the reply to /begin rates nothing):\n%s", n, stdout)
	}
	b, err := os.ReadFile(save)
	if err != nil {
		t.Fatal(err)
	}
	var recs []transcript.Dialogue
	if err := json.Unmarshal(b, &recs); err != nil || len(recs) != 2 {
		t.Fatalf("-save: %d chats (%v), want 2", len(recs), err)
	}
	if recs[0].DuetContext != "You are on a train to Vladivostok." || recs[0].DuetFinal == nil || recs[0].Dialog[0].Sender != convai2.Participant2 || recs[0].DuetState != transcript.Ended {
		t.Errorf("first chat: %+v", recs[0])
	}
	if recs[1].Dialog[0].DuetRating == 0 {
		t.Errorf("second chat: the partner's line carries no rating: %+v", recs[1].Dialog)
	}
}

// TestChatAnnex pipes lines into duet chat -annex -json on the sample
// persona: one response body a line, each a non-empty message.
func TestChatAnnex(t *testing.T) {
	t.Setenv("BRAIN", "")
	t.Setenv("ANNEX_PERSON_NAME", "")
	t.Setenv("ANNEX_PERSONA_FILE", "../../shared/annex/testdata/ada.json")
	lines := []string{"hi, what are you working on these days?", "should we deploy on friday?", "thanks!"}
	stdout, stderr, err := chatRun(t, strings.Join(lines, "\n")+"\n", false, "-annex", "-json")
	if err != nil {
		t.Fatalf("duet chat -annex: %v\n%s", err, stderr)
	}
	out := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(out) != len(lines) {
		t.Fatalf("%d answers to %d lines:\n%s", len(out), len(lines), stdout)
	}
	for _, l := range out {
		var r struct {
			Message *string `json:"message"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil || r.Message == nil || strings.TrimSpace(*r.Message) == "" {
			t.Errorf("answer %s: not a response body with a message (%v)", l, err)
		}
	}
	if !strings.Contains(stderr, "as ada") {
		t.Errorf("stderr does not say whom the bot plays: %s", stderr)
	}
}

// TestChatBotURL plays a chat through a running bot's webhook: duet chat
// serves the Bot API on -api-addr, and the bot replies through it.
func TestChatBotURL(t *testing.T) {
	t.Setenv("BRAIN", "")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	apiAddr := ln.Addr().String()
	ln.Close()
	bot := &simBot{log: slog.New(slog.DiscardHandler)}
	url, stop, err := bot.serveWebhook()
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	if err := bot.start(context.Background(), "http://"+apiAddr, "chat-test"); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, err := chatRun(t, "It is raining today.\nDo you like rain?\n", false, "-json", "-bot", url, "-api-addr", apiAddr, "-token", "chat-test")
	if err != nil {
		t.Fatalf("duet chat -bot: %v\n%s", err, stderr)
	}
	if !strings.Contains(stderr, "TELEGRAM_API_URL=http://"+apiAddr+" TELEGRAM_BOT_TOKEN=chat-test") {
		t.Errorf("stderr does not say where the bot must reply: %s", stderr)
	}
	out := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(out) != 2 {
		t.Fatalf("want a reply and the final, got:\n%s", stdout)
	}
	if final, err := convai.Validate(out[1], true); err != nil || !final {
		t.Errorf("last message %s: final %v, %v", out[1], final, err)
	}
}

// TestChatErrors: clear errors for wrong flags and files.
func TestChatErrors(t *testing.T) {
	empty := chatTemp(t, "empty.txt", "\n\n")
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"dialect", []string{"-dialect", "irc"}, `unknown dialect "irc"`},
		{"context and profile", []string{"-context", "x", "-profile", empty}, "give one"},
		{"empty profile", []string{"-profile", empty}, "-profile: " + empty + ": no sentence"},
		{"missing profile", []string{"-profile", empty + ".nope"}, "no such file"},
		{"options outside 2018", []string{"-options", empty}, "convai2018"},
		{"annex with save", []string{"-annex", "-save", "x.json"}, "not -annex"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := chatRun(t, "", false, tt.args...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error with %q", err, tt.want)
			}
		})
	}
}

// TestChatContextNew: with -context the server opens each chat before the
// partner speaks, and /new opens the next at once.
func TestChatContextNew(t *testing.T) {
	t.Setenv("BRAIN", "")
	save := filepath.Join(t.TempDir(), "chats.json")
	stdout, stderr, err := chatRun(t, "/new\ndo you like libraries?\n", false, "-json", "-context", "Libraries lend books for free.", "-save", save)
	if err != nil {
		t.Fatalf("duet chat: %v\n%s", err, stderr)
	}
	if n := strings.Count(stderr, "opened: /start Libraries lend books for free."); n != 2 {
		t.Errorf("%d chats opened with the context, want 2:\n%s", n, stderr)
	}
	if n := strings.Count(stdout, `"/end"`); n != 2 {
		t.Errorf("%d finals, want 2:\n%s", n, stdout)
	}
	b, err := os.ReadFile(save)
	if err != nil {
		t.Fatal(err)
	}
	var recs []transcript.Dialogue
	if err := json.Unmarshal(b, &recs); err != nil || len(recs) != 2 {
		t.Fatalf("-save: %d chats (%v), want 2", len(recs), err)
	}
	if len(recs[0].Dialog) != 0 || len(recs[1].Dialog) != 2 || recs[1].Dialog[0].Text != "do you like libraries?" {
		t.Errorf("chats: %+v", recs)
	}
}

// TestChatFirstLineStart: a first line typed as the server sends it
// ("/start", "/start <context>") opens the chat with it, not with a context
// of "/start": a bare /start leaves the request to the partner's first
// message, as a ClariQ chat that opens with a greeting does.
func TestChatFirstLineStart(t *testing.T) {
	t.Setenv("BRAIN", "")
	for _, tc := range []struct{ first, opened string }{
		{"/start", "opened: /start\n"},
		{"/start a wasp on your wrist", "opened: /start a wasp on your wrist\n"},
		{"/starts here", "opened: /start /starts here\n"},
	} {
		_, stderr, err := chatRun(t, tc.first+"\nhi, can you help me?\n", false, "-json")
		if err != nil {
			t.Fatalf("duet chat: %v\n%s", err, stderr)
		}
		if !strings.Contains(stderr, tc.opened) {
			t.Errorf("first line %q: want %q in\n%s", tc.first, tc.opened, stderr)
		}
	}
}

// TestChatBotWrongAPIURL: a bot pointed at the Bot API without the 2017
// server's token in the path is told so, not only timed out.
func TestChatBotWrongAPIURL(t *testing.T) {
	t.Setenv("BRAIN", "")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	apiAddr := ln.Addr().String()
	ln.Close()
	bot := &simBot{log: slog.New(slog.DiscardHandler)}
	url, stop, err := bot.serveWebhook()
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	// The telegram shape, /bot<token>/: the 2017 server wants /<token>/.
	if err := bot.start(context.Background(), "http://"+apiAddr, "chat-test"); err != nil {
		t.Fatal(err)
	}
	_, stderr, err := chatRun(t, "It is raining today.\nDo you like rain?\n", false,
		"-json", "-dialect", "convai2017", "-bot", url, "-api-addr", apiAddr, "-token", "chat-test", "-timeout", "1s")
	if err == nil || !strings.Contains(err.Error(), "broke the protocol") {
		t.Errorf("got %v, want the protocol broken", err)
	}
	if !strings.Contains(stderr, "PROTOCOL: a request to a URL that is not /<token>/<method>") {
		t.Errorf("stderr does not say the URL is wrong:\n%s", stderr)
	}
	if !strings.Contains(stderr, "TELEGRAM_API_URL=http://"+apiAddr+"/{token}") {
		t.Errorf("stderr does not give the 2017 API URL:\n%s", stderr)
	}
}

// TestChatInterrupt: an interrupt (ctx cancelled, as Ctrl-C does) with
// the input still open ends the chat as the server would, final included,
// and quits without an error.
func TestChatInterrupt(t *testing.T) {
	t.Setenv("BRAIN", "")
	in, w := io.Pipe()
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		_, _ = io.WriteString(w, "A wasp lands on your wrist.\nI would stay still.\n")
		time.Sleep(time.Second) // then Ctrl-C, whether or not the reply came
		cancel()
	}()
	var out, errOut bytes.Buffer
	if err := runChatWith(ctx, []string{"-json"}, in, false, &out, &errOut); err != nil {
		t.Fatalf("duet chat: %v\n%s", err, errOut.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if final, err := convai.Validate(lines[len(lines)-1], true); err != nil || !final {
		t.Errorf("the last message %q is not the final (%v):\n%s", lines[len(lines)-1], err, errOut.String())
	}
}
