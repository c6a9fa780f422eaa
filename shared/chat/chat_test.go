package chat

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/duetbot/duet/shared/annex"
)

// recordingBot answers "reply N" and keeps every request.
type recordingBot struct{ reqs []annex.Request }

func (b *recordingBot) Ask(_ context.Context, req annex.Request) (string, error) {
	b.reqs = append(b.reqs, req)
	return "reply " + req.Message.Text, nil
}

// TestAnnexConversationGrows checks the requests as the hive sends them:
// the message, everything said before in context, and the earlier
// exchanges (the bot's replies from "BOT") in conversation; /new forgets.
func TestAnnexConversationGrows(t *testing.T) {
	bot := &recordingBot{}
	var out strings.Builder
	s := NewAnnexSession(bot, AnnexOptions{Person: "ada", Out: &out, Now: func() time.Time { return time.Unix(0, 0) }})
	if err := s.Run(context.Background(), strings.NewReader("one\ntwo\n\nthree\n/new\nfour\n")); err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), "ada: reply one\nada: reply two\nada: reply three\nada: reply four\n"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
	if len(bot.reqs) != 4 {
		t.Fatalf("%d requests, want 4", len(bot.reqs))
	}
	third := bot.reqs[2]
	if err := third.Validate(); err != nil {
		t.Fatalf("request invalid: %v", err)
	}
	var ctxTexts []string
	for _, m := range third.Context {
		ctxTexts = append(ctxTexts, m.From+":"+m.Text)
	}
	want := []string{AnnexUserID + ":one", annex.BotFrom + ":reply one", AnnexUserID + ":two", annex.BotFrom + ":reply two"}
	if !slices.Equal(ctxTexts, want) {
		t.Errorf("context %q, want %q", ctxTexts, want)
	}
	if len(third.Conversation) != 1 || len(third.Conversation[0].Messages) != 4 || third.Message.Text != "three" {
		t.Errorf("conversation %+v, message %+v", third.Conversation, third.Message)
	}
	ids := map[string]bool{third.Message.ID: true}
	for _, m := range third.Context {
		if ids[m.ID] {
			t.Errorf("message id %q used twice", m.ID)
		}
		ids[m.ID] = true
	}
	if fourth := bot.reqs[3]; len(fourth.Context) != 0 || len(fourth.Conversation) != 0 {
		t.Errorf("after /new: context %v, conversation %v", fourth.Context, fourth.Conversation)
	}
}

func TestReadProfiles(t *testing.T) {
	for _, tt := range []struct {
		name, in string
		want     [][]string
		err      string
	}{
		{"one", "i like tea.\ni have a dog.\n", [][]string{{"i like tea.", "i have a dog."}}, ""},
		{"blank lines", "\n a. \n\n\nb.\nc.\n\n", [][]string{{"a."}, {"b.", "c."}}, ""},
		{"router headers", "/profile_0\na.\n/profile_1\nb.\n", [][]string{{"a."}, {"b."}}, ""},
		{"empty", "\n \n", nil, "no sentence"},
		{"too long", strings.Repeat("a.\n", maxProfileLines+1), nil, "more than"},
		{"too many", strings.Repeat("a.\n\n", maxProfiles+1), nil, "profiles, more than"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadProfiles(strings.NewReader(tt.in))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("got %q, %v; want an error with %q", got, err, tt.err)
				}
				return
			}
			if err != nil || !slices.EqualFunc(got, tt.want, slices.Equal) {
				t.Fatalf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// FuzzReadProfiles: whatever the file, a profile read is within the
// limits, and every sentence is one trimmed, non-empty line.
func FuzzReadProfiles(f *testing.F) {
	for _, s := range []string{"a.\nb.\n", "\n\n", "/profile_0\na\n\nb", "a\r\nb\r\n", strings.Repeat("x.\n", 70)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		ps, err := ReadProfiles(strings.NewReader(in))
		if err != nil {
			return
		}
		if len(ps) == 0 || len(ps) > maxProfiles {
			t.Fatalf("%d profiles", len(ps))
		}
		for _, p := range ps {
			if len(p) == 0 || len(p) > maxProfileLines {
				t.Fatalf("a profile of %d sentences", len(p))
			}
			for _, s := range p {
				if s == "" || s != strings.TrimSpace(s) || strings.ContainsAny(s, "\n\r") || strings.HasPrefix(s, "/profile_") {
					t.Fatalf("sentence %q", s)
				}
			}
		}
		flat, err := ReadProfile(strings.NewReader(in))
		if err == nil && len(flat) > maxProfileLines {
			t.Fatalf("ReadProfile: %d sentences", len(flat))
		}
	})
}
