package transcript

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/duetbot/duet/shared/annex"
	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/convai2"
)

// TestConvAI2ReadBack: the export is a ConvAI2 release file that package
// convai2 (what `duet rate` reads) parses, with the partner's messages as
// participant1's, the bot's as participant2's, the context as the bot's
// profile, and Duet's ratings and final under their duet_ keys.
func TestConvAI2ReadBack(t *testing.T) {
	end := convai.Record{Kind: convai.EndRecord, UpdateID: 5, Sum: 15, Final: final()}
	chats := FromRecords(7, &convai.Head{Session: 1, Status: convai.Ended, Sent: 4}, chatRecords(1, end))
	chats = append(chats, FromRecords(8, &convai.Head{Session: 1, Status: convai.Open, Sent: 2}, chatRecords(1, convai.Record{}))...)
	var b bytes.Buffer
	if err := WriteConvAI2(&b, chats); err != nil {
		t.Fatal(err)
	}
	dialogues, err := convai2.Parse(b.Bytes())
	if err != nil {
		t.Fatalf("convai2.Parse of the export: %v\n%s", err, b.String())
	}
	if len(dialogues) != 2 {
		t.Fatalf("got %d dialogues, want 2", len(dialogues))
	}
	d := dialogues[0]
	wantSenders := []string{"participant2", "participant1", "participant2", "participant1", "participant2"}
	wantTexts := []string{"Hello! Do you ride?", "yes, every day", "Me too!", "what is your horse called?", "Star. And yours?"}
	if len(d.Messages) != len(wantTexts) {
		t.Fatalf("dialogue 0 has %d messages, want %d", len(d.Messages), len(wantTexts))
	}
	for i, m := range d.Messages {
		if m.Sender != wantSenders[i] || m.Text != wantTexts[i] || m.ID != int64(i) || m.Evaluation != -1 {
			t.Errorf("message %d = %+v, want %s %q, id %d, no human label", i, m, wantSenders[i], wantTexts[i], i)
		}
	}
	if strings.Join(d.BotProfile, "|") != "i like horses.|i tend the fields." || len(d.UserProfile) != 0 {
		t.Errorf("profiles %q / %q, want the context's lines as the bot's", d.BotProfile, d.UserProfile)
	}

	var raw []map[string]any
	if err := json.Unmarshal(b.Bytes(), &raw); err != nil {
		t.Fatal(err)
	}
	fin, _ := raw[0]["duet_final"].(map[string]any)
	if fin["quality"] != 7.0 || fin["breadth"] != 3.0 || fin["engagement"] != 6.0 || fin["score"] != 4.0 || fin["profile_idx"] != 1.0 {
		t.Errorf("duet_final = %v, want the final's scores", raw[0]["duet_final"])
	}
	if raw[0]["duet_chat"] != "7:1" || raw[0]["duet_state"] != "ended" || raw[0]["duet_mean_rating"] != 7.0 {
		t.Errorf("duet_chat %v, duet_state %v, duet_mean_rating %v", raw[0]["duet_chat"], raw[0]["duet_state"], raw[0]["duet_mean_rating"])
	}
	msgs, _ := raw[0]["dialog"].([]any)
	if m, _ := msgs[1].(map[string]any); m["duet_rating"] != 6.0 {
		t.Errorf("partner message 1's duet_rating = %v, want 6", m["duet_rating"])
	}
	if raw[1]["duet_final"] != nil {
		t.Errorf("an open chat's duet_final = %v, want null", raw[1]["duet_final"])
	}
	msgs, _ = raw[1]["dialog"].([]any)
	if m, _ := msgs[4].(map[string]any); m["duet_delivered"] != false {
		t.Errorf("an undelivered reply's duet_delivered = %v, want false", m["duet_delivered"])
	}
}

// TestAnnexTranscript: the annex export is a transcript that annex's
// parser (what `duet eval` reads) accepts, with one scored turn per
// exchange: the request, then the bot's reply.
func TestAnnexTranscript(t *testing.T) {
	at := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	exchanges := []annex.Exchange{
		{Conversation: "c1", Request: annex.Message{From: "U1", ID: "1", Text: "deploy on Friday?"}, Reply: annex.Message{From: annex.BotFrom, ID: "b1", Text: "No."}, At: at},
		{Conversation: "c1", Request: annex.Message{From: "U2", ID: "2", Text: "and Monday?"}, Reply: annex.Message{From: annex.BotFrom, ID: "b2", Text: "Yes."}, At: at},
	}
	tr, err := Annex(exchanges)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	back, err := annex.ParseTranscript(b)
	if err != nil {
		t.Fatalf("annex.ParseTranscript of the export: %v", err)
	}
	turns := back.Turns()
	if len(turns) != 2 || turns[0].Prompt.Text != "deploy on Friday?" || turns[0].Answer.Text != "No." || turns[1].Answer.Text != "Yes." {
		t.Errorf("turns = %+v, want each request answered by its reply", turns)
	}
	if _, err := Annex(nil); err == nil {
		t.Error("Annex(nil): no error, want one saying there is nothing to export")
	}
}

func TestWriteHTML(t *testing.T) {
	recs := chatRecords(1, convai.Record{})
	recs[2].Partner = `<script>alert("x")</script>`
	chats := FromRecords(7, &convai.Head{Session: 1, Status: convai.Open, Sent: 2}, recs)
	var b bytes.Buffer
	if err := WriteHTML(&b, chats, "duet-local", time.Date(2026, 11, 22, 11, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{
		`<input id="q"`, `<option value="ended by sweeper">`, `href="#c7-1"`, `id="c7-1"`,
		"undelivered", "not delivered", "8/10", "&lt;script&gt;alert", "1 chats from duet-local",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(page, `<script>alert`) {
		t.Error("a partner's message reached the page unescaped")
	}
}
