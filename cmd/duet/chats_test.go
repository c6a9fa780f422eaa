package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/duetbot/duet/shared/annex"
	"github.com/duetbot/duet/shared/convai2"
	"github.com/duetbot/duet/shared/store/dynamo"
	"github.com/duetbot/duet/shared/store/dynamo/dynamotest"
)

// botAPI is a Telegram Bot API on httptest that answers every sendMessage
// as the real one does and keeps what each chat was sent.
type botAPI struct {
	down int64 // a chat whose every sendMessage fails with 502
	mu   sync.Mutex
	sent map[int64][]string
}

func (b *botAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		ChatID int64  `json:"chat_id"`
		Text   string `json:"text"`
	}
	if !strings.HasSuffix(r.URL.Path, "/sendMessage") || json.NewDecoder(r.Body).Decode(&req) != nil {
		http.Error(w, `{"ok":false,"error_code":400,"description":"Bad Request"}`, http.StatusBadRequest)
		return
	}
	if req.ChatID == b.down {
		http.Error(w, `{"ok":false,"error_code":502,"description":"Bad Gateway"}`, http.StatusBadGateway)
		return
	}
	b.mu.Lock()
	b.sent[req.ChatID] = append(b.sent[req.ChatID], req.Text)
	b.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"ok":true,"result":{"message_id":1,"chat":{"id":%d,"type":"private"},"date":%d,"text":"ok"}}`, req.ChatID, time.Now().Unix())
}

// replies returns what chat id was sent, decoded: each reply's text and
// evaluation, then the final.
func (b *botAPI) replies(t *testing.T, id int64) (texts []string, ratings []int, final map[string]int) {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, s := range b.sent[id] {
		var m struct {
			Text       string          `json:"text"`
			Evaluation json.RawMessage `json:"evaluation"`
		}
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			t.Fatalf("chat %d was sent %q, not the protocol's JSON: %v", id, s, err)
		}
		if m.Text == "/end" {
			if err := json.Unmarshal(m.Evaluation, &final); err != nil {
				t.Fatalf("final %q: %v", s, err)
			}
			continue
		}
		texts = append(texts, m.Text)
		n, _ := strconv.Atoi(string(m.Evaluation))
		ratings = append(ratings, n)
	}
	return texts, ratings, final
}

// TestChatsEndToEnd: `duet serve` on a DynamoDB table, chats played
// through its webhook and a request to its annex bot, then `duet chats
// list`, `show` and `export` (JSON, HTML, annex) checked against what was
// sent and received, and the exports read back by `duet rate` and by the
// parser of `duet eval`.
func TestChatsEndToEnd(t *testing.T) {
	endpoint := dynamotest.Endpoint(t)
	table := "chats-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	if _, stderr, code := runDuet(t, "table", "create", "-name", table); code != 0 {
		t.Fatalf("table create: exit %d: %s", code, stderr)
	}
	t.Cleanup(func() {
		ctx := context.Background()
		if c, err := dynamo.NewClient(ctx, endpoint); err == nil {
			_, _ = c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: &table})
		}
	})
	api := &botAPI{down: 103, sent: map[int64][]string{}}
	fake := httptest.NewServer(api)
	defer fake.Close()
	for k, v := range map[string]string{
		"SESSIONS_TABLE": table, "TELEGRAM_API_URL": fake.URL, "TELEGRAM_BOT_TOKEN": "123:test",
		"TELEGRAM_WEBHOOK_SECRET": "", "BRAIN": "", "ANNEX_CALLER_KEY": "caller-key-for-the-test",
		"ANNEX_PERSONA_FILE": filepath.Join("..", "..", "shared", "annex", "testdata", "ada.json"), "ANNEX_PERSON_NAME": "",
		"DELIVERY_TIMEOUT": "2s",
	} {
		t.Setenv(k, v)
	}
	addr := startServe(t)

	post := func(path string, header map[string]string, body string) string {
		t.Helper()
		return postStatus(t, addr+path, header, body, http.StatusOK)
	}
	update := 0
	sayStatus := func(chat int64, text string, status int) {
		update++
		b, _ := json.Marshal(map[string]any{"update_id": update, "message": map[string]any{
			"message_id": update, "date": time.Now().Unix(), "text": text,
			"chat": map[string]any{"id": chat, "type": "private"}, "from": map[string]any{"id": chat, "is_bot": false, "first_name": "P"},
		}})
		postStatus(t, addr+"/telegram", nil, string(b), status)
	}
	say := func(chat int64, text string) { sayStatus(chat, text, http.StatusOK) }
	profile := "i like to ride horses.\ni help tend the fields."
	partner101 := []string{"hi! do you have pets?", "i have two dogs, they are great"}
	say(101, "/start "+profile)
	for _, m := range partner101 {
		say(101, m)
	}
	say(101, "/end")
	say(102, "/start The Trans-Siberian Railway is the longest railway line in the world.")
	say(102, "/begin")
	say(102, "wow really? how long is it?")
	// Chat 103's Bot API is down: its reply is stored, not delivered, and
	// the webhook asks for a retry.
	say(103, "/start a chat whose replies cannot be sent")
	sayStatus(103, "hello? anyone there?", http.StatusServiceUnavailable)
	annexReply := post("/annex", map[string]string{"X-CALLER-KEY": "caller-key-for-the-test"},
		`{"message": {"from": "U02BEN", "id": "m1", "text": "Ada, should we deploy on Friday?", "timestamp": "2026-11-22T10:00:00Z"}, "users": [{"id": "U02BEN", "username": "ben"}]}`)

	texts101, ratings101, final101 := api.replies(t, 101)
	texts102, _, _ := api.replies(t, 102)
	if len(texts101) != 2 || len(ratings101) != 2 || final101 == nil || len(texts102) != 2 {
		t.Fatalf("the bot sent chat 101 %v (ratings %v, final %v) and chat 102 %v; want 2 replies and a final, and 2 replies", texts101, ratings101, final101, texts102)
	}

	t.Run("list", func(t *testing.T) {
		stdout, stderr, code := runDuet(t, "chats", "list")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		mean := fmt.Sprintf("%.1f", float64(ratings101[0]+ratings101[1])/2)
		wantFinal := fmt.Sprintf("quality %d, breadth %d, engagement %d", final101["quality"], final101["breadth"], final101["engagement"])
		for _, want := range [][]string{{"101:1", " 2 ", "ended", mean, wantFinal}, {"102:1", " 1 ", "open", " -"}, {"103:1", " 1 ", "undelivered", " -"}} {
			line := lineWith(stdout, want[0])
			for _, w := range want {
				if !strings.Contains(line, w) {
					t.Errorf("list line %q lacks %q:\n%s", line, w, stdout)
				}
			}
		}
		if !strings.Contains(stderr, "items of "+table) {
			t.Errorf("list does not say how many items it read: %q", stderr)
		}
		if open, _, _ := runDuet(t, "chats", "list", "-open"); strings.Contains(open, "101:1") || !strings.Contains(open, "102:1") {
			t.Errorf("list -open:\n%s\nwant chat 102 only", open)
		}
		if recent, _, _ := runDuet(t, "chats", "list", "-since", "1h"); !strings.Contains(recent, "101:1") {
			t.Errorf("list -since 1h:\n%s\nwant the chats just played", recent)
		}
	})
	t.Run("show", func(t *testing.T) {
		stdout, stderr, code := runDuet(t, "chats", "show", "101:1")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		for i, m := range partner101 {
			if want := fmt.Sprintf("partner: %s   [rated %d/10]", m, ratings101[i]); !strings.Contains(stdout, want) {
				t.Errorf("show lacks %q:\n%s", want, stdout)
			}
			if want := "bot:     " + texts101[i]; !strings.Contains(stdout, want) {
				t.Errorf("show lacks %q:\n%s", want, stdout)
			}
		}
		if !strings.Contains(stdout, "i help tend the fields.") || !strings.Contains(stdout, fmt.Sprintf("final: quality %d", final101["quality"])) {
			t.Errorf("show lacks the context or the final:\n%s", stdout)
		}
		if stdout, _, _ := runDuet(t, "chats", "show", "103"); !strings.Contains(stdout, "[NOT DELIVERED]") || !strings.Contains(stdout, "hello? anyone there?") {
			t.Errorf("show 103 does not mark the reply that was never sent:\n%s", stdout)
		}
		if _, stderr, code := runDuet(t, "chats", "show", "999"); code == 0 || !strings.Contains(stderr, "no chat 999") {
			t.Errorf("show 999: exit %d, stderr %q; want an error naming the unknown chat", code, stderr)
		}
	})
	t.Run("export and rate", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "chats.json")
		if _, stderr, code := runDuet(t, "chats", "export", "-out", out); code != 0 {
			t.Fatalf("export: exit %d: %s", code, stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		dialogues, err := convai2.Parse(b)
		if err != nil || len(dialogues) != 3 {
			t.Fatalf("convai2.Parse: %d dialogues, %v", len(dialogues), err)
		}
		var bot, partner []string
		for _, m := range dialogues[0].Messages {
			if m.Sender == convai2.Participant2 {
				bot = append(bot, m.Text)
			} else {
				partner = append(partner, m.Text)
			}
		}
		if strings.Join(bot, "|") != strings.Join(texts101, "|") || strings.Join(partner, "|") != strings.Join(partner101, "|") {
			t.Errorf("exported chat 101: bot %q, partner %q; want %q and %q", bot, partner, texts101, partner101)
		}
		var raw []struct {
			Dialog []struct {
				DuetRating int `json:"duet_rating"`
			} `json:"dialog"`
			DuetFinal map[string]int `json:"duet_final"`
		}
		if err := json.Unmarshal(b, &raw); err != nil {
			t.Fatal(err)
		}
		if raw[0].Dialog[0].DuetRating != ratings101[0] || raw[0].Dialog[2].DuetRating != ratings101[1] {
			t.Errorf("exported ratings %d, %d; the bot sent %v", raw[0].Dialog[0].DuetRating, raw[0].Dialog[2].DuetRating, ratings101)
		}
		for k, v := range final101 {
			if raw[0].DuetFinal[k] != v {
				t.Errorf("exported duet_final %v, the bot sent %v", raw[0].DuetFinal, final101)
				break
			}
		}
		for _, seat := range []string{"participant1", "participant2"} {
			stdout, stderr, code := runDuet(t, "rate", "-dialogs", out, "-seat", seat)
			if code != 0 || !strings.Contains(stdout, "3 dialogues") {
				t.Errorf("rate -seat %s of the export: exit %d, stdout %q, stderr %q", seat, code, stdout, stderr)
			}
		}
	})
	t.Run("html", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "chats.html")
		if _, stderr, code := runDuet(t, "chats", "export", "-format", "html", "-out", out); code != 0 {
			t.Fatalf("export: exit %d: %s", code, stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"101:1", "102:1", `id="q"`, fmt.Sprintf("%d/10", ratings101[0])} {
			if !strings.Contains(string(b), want) {
				t.Errorf("page lacks %q", want)
			}
		}
	})
	t.Run("annex", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "annex.json")
		if _, stderr, code := runDuet(t, "chats", "export", "-bot", "annex", "-out", out); code != 0 {
			t.Fatalf("export: exit %d: %s", code, stderr)
		}
		tr, err := annex.ReadTranscript(out)
		if err != nil {
			t.Fatalf("the parser of duet eval refuses the export: %v", err)
		}
		var reply struct{ Message string }
		if err := json.Unmarshal([]byte(annexReply), &reply); err != nil {
			t.Fatal(err)
		}
		turns := tr.Turns()
		if len(turns) != 1 || turns[0].Prompt.Text != "Ada, should we deploy on Friday?" || turns[0].Answer.Text != reply.Message {
			t.Errorf("turns %+v; want the request answered by %q", turns, reply.Message)
		}
	})
	t.Run("missing table", func(t *testing.T) {
		_, stderr, code := runDuet(t, "chats", "list", "-table", table+"-missing")
		if code == 0 || !strings.Contains(stderr, "does not exist") {
			t.Errorf("exit %d, stderr %q; want an error saying the table does not exist", code, stderr)
		}
	})
}

// postStatus POSTs body to url and fails the test unless the answer has
// the status want; it returns the answer's body.
func postStatus(t *testing.T, url string, header map[string]string, body string, want int) string {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != want {
		t.Fatalf("POST %s %s: %d %s, want %d", url, body, resp.StatusCode, b, want)
	}
	return string(b)
}

// startServe runs `duet serve` on a free port until the test ends and
// returns its URL.
func startServe(t *testing.T) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stdoutR, stdoutW := io.Pipe()
	stderr := &lockedBuffer{}
	done := make(chan error, 1)
	go func() {
		done <- runServe(ctx, []string{"-addr", "127.0.0.1:0"}, stdoutW, stderr)
		stdoutW.Close()
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("duet serve: %v", err)
		}
	})
	line, err := bufio.NewReader(stdoutR).ReadString('\n')
	if err != nil {
		t.Fatalf("duet serve did not start: %v; stderr:\n%s", err, stderr.String())
	}
	go func() { _, _ = io.Copy(io.Discard, stdoutR) }()
	return strings.Fields(line[strings.Index(line, "http://"):])[0]
}

// lineWith returns the first line of s that contains sub.
func lineWith(s, sub string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}
