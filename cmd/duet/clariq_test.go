package main

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/duetbot/duet/shared/app"
	"github.com/duetbot/duet/shared/app/brains"
	"github.com/duetbot/duet/shared/config"
	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/convai/convaitest"
	"github.com/duetbot/duet/shared/store/dynamo/dynamotest"
)

// clariqData returns the ClariQ data directory, or skips.
func clariqData(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("CLARIQ_DATA")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "data", "clariq")
	}
	if _, err := os.Stat(filepath.Join(dir, "dev.tsv")); err != nil {
		t.Skipf("ClariQ data absent (%v): put aliannejadi/ClariQ's data/ at ../shared/data/clariq beside the clone, or set CLARIQ_DATA", err)
	}
	return dir
}

func runDuet(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(context.Background(), args, &o, &e)
	return o.String(), e.String(), code
}

// TestClariqRunEval runs the dev requests and evaluates them: the round
// trip gives the figures docs/clariq.md reports.
func TestClariqRunEval(t *testing.T) {
	data := clariqData(t)
	prefix := filepath.Join(t.TempDir(), "dev")
	if _, stderr, code := runDuet(t, "clariq", "run", "-requests", filepath.Join(data, "dev.tsv"), "-bank", filepath.Join(data, "question_bank.tsv"), "-out", prefix); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	q, err := os.ReadFile(prefix + ".questions")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(q), "\n"); n != 50*30 {
		t.Errorf("got %d question lines, want 30 for each of the 50 topics", n)
	}
	need, err := os.ReadFile(prefix + ".need")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^(\S+ [1-4]\n){50}$`).Match(need) {
		t.Errorf("need file: got %q", need)
	}
	stdout, stderr, code := runDuet(t, "clariq", "eval", "-run", prefix, "-labels", filepath.Join(data, "dev.tsv"))
	if code != 0 {
		t.Fatalf("eval: exit %d: %s", code, stderr)
	}
	t.Log(stdout)
	for _, tt := range []struct {
		metric string
		min    float64
	}{{"Recall@30", 0.765}, {"Recall@10", 0.625}, {"F1", 0.53}} {
		t.Run(tt.metric, func(t *testing.T) {
			m := regexp.MustCompile(regexp.QuoteMeta(tt.metric) + `\s+([0-9.]+)`).FindStringSubmatch(stdout)
			if m == nil {
				t.Fatalf("no %s in %q", tt.metric, stdout)
			}
			if v, _ := strconv.ParseFloat(m[1], 64); v < tt.min {
				t.Errorf("%s = %v, want at least %v", tt.metric, v, tt.min)
			}
		})
	}
}

func TestClariqErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	bank := write("bank.tsv", "question_id\tquestion\nQ00001\t\nQ00002\tdo you mean the kiwi bird\n")
	badBank := write("badbank.tsv", "id\ttext\nQ1\tx\n")
	reqs := write("reqs.tsv", "topic_id\tinitial request\n1\tTell me about kiwi\n")
	badReqs := write("badreqs.tsv", "topic_id\tinitial_request\n1\n")
	labels := write("labels.tsv", "topic_id\tinitial_request\tclarification_need\tquestion_id\n1\tkiwi\t3\tQ00002\n")
	otherLabels := write("other.tsv", "topic_id\tinitial_request\tclarification_need\tquestion_id\n7\tkiwi\t3\tQ00002\n")
	badRun := filepath.Join(dir, "bad")
	write("bad.questions", "1 0 Q00002 1 high duet\n")
	tests := []struct {
		name     string
		args     []string
		code     int
		contains string
	}{
		{"no subcommand", []string{"clariq"}, 2, "usage: duet clariq run"},
		{"run without flags", []string{"clariq", "run"}, 2, "usage: duet clariq run"},
		{"malformed bank", []string{"clariq", "run", "-requests", reqs, "-bank", badBank, "-out", filepath.Join(dir, "x")}, 1, `badbank.tsv: question bank: header "id\ttext" has no column "question_id"`},
		{"malformed requests", []string{"clariq", "run", "-requests", badReqs, "-bank", bank, "-out", filepath.Join(dir, "x")}, 1, "badreqs.tsv: requests line 2: 1 column(s)"},
		{"missing requests", []string{"clariq", "run", "-requests", filepath.Join(dir, "nope.tsv"), "-bank", bank, "-out", filepath.Join(dir, "x")}, 1, "no such file"},
		{"malformed run", []string{"clariq", "eval", "-run", badRun, "-labels", labels}, 1, `bad.questions: question run line 1: score "high"`},
		{"no run files", []string{"clariq", "eval", "-run", filepath.Join(dir, "none"), "-labels", labels}, 1, "neither"},
		{"ok run", []string{"clariq", "run", "-requests", reqs, "-bank", bank, "-out", filepath.Join(dir, "ok")}, 0, "1 requests"},
		{"ok eval", []string{"clariq", "eval", "-run", filepath.Join(dir, "ok"), "-labels", labels}, 0, ""},
		{"run without -out", []string{"clariq", "run", "-requests", reqs, "-bank", bank}, 2, "missing -out\nusage:"},
		{"eval sharing no topic", []string{"clariq", "eval", "-run", filepath.Join(dir, "ok"), "-labels", otherLabels}, 1, "ok.questions and " + otherLabels + " share no topic"},
		{"import without table", []string{"clariq", "import", "-bank", bank}, 1, "SESSIONS_TABLE is not set"},
	}
	t.Setenv("SESSIONS_TABLE", "")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, code := runDuet(t, tt.args...)
			if code != tt.code || !strings.Contains(stderr, tt.contains) {
				t.Fatalf("got exit %d, stderr %q; want exit %d with %q", code, stderr, tt.code, tt.contains)
			}
		})
	}
}

// TestClariqImportThenChat is the deployed ClariQ bot's path end to end:
// `duet table create`, `duet clariq import` into the table, then a chat on
// the DynamoDB store with BRAIN=clariq and no CLARIQ_BANK, whose bank
// comes from the table.
func TestClariqImportThenChat(t *testing.T) {
	endpoint := dynamotest.Endpoint(t)
	table := "clariq-import-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	t.Setenv("SESSIONS_TABLE", table)
	t.Setenv("CLARIQ_BANK", "")
	t.Setenv("BRAIN", "")
	if _, stderr, code := runDuet(t, "table", "create", "-name", table); code != 0 {
		t.Fatalf("table create: exit %d: %s", code, stderr)
	}
	bank := filepath.Join(t.TempDir(), "question_bank.tsv")
	tsv := "question_id\tquestion\nQ00001\t\nQ00002\tare you looking for the kiwi fruit\nQ00003\tdo you mean the kiwi bird of new zealand\nQ00004\twould you like to know about the history of rome\n"
	if err := os.WriteFile(bank, []byte(tsv), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runDuet(t, "clariq", "import", "-bank", bank)
	if code != 0 || !strings.Contains(stdout, "imported 4 questions") {
		t.Fatalf("clariq import: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}

	ctx := context.Background()
	cfg := config.Config{Brain: "clariq", SessionsTable: table, DynamoDBEndpoint: endpoint, ChatMaxTurns: 10}
	log := slog.New(slog.DiscardHandler)
	backends, err := brains.New(ctx, cfg, log)
	if err != nil {
		t.Fatalf("BRAIN=clariq from the table: %v", err)
	}
	store, err := app.DynamoStore(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	sent := &convaitest.Outbox{}
	engine := app.ConvAIEngine(cfg, store, sent, backends, log)
	for i, text := range []string{"/start", "Tell me about kiwi"} {
		if err := engine.Handle(ctx, convai.Update{UpdateID: int64(i + 1), ChatID: 42, Text: text}); err != nil {
			t.Fatalf("%q: %v", text, err)
		}
	}
	texts := sent.Texts()
	if len(texts) != 1 {
		t.Fatalf("sent %d messages, want the one reply: %q", len(texts), texts)
	}
	var reply convai.Reply
	if err := json.Unmarshal([]byte(texts[0]), &reply); err != nil {
		t.Fatalf("reply %q: %v", texts[0], err)
	}
	if !strings.Contains(reply.Text, "kiwi") || reply.Evaluation == nil {
		t.Errorf("reply %+v: want a rated clarifying question about kiwi from the imported bank", reply)
	}
	chat, err := store.Load(ctx, 42)
	if err != nil || len(chat.Records) == 0 {
		t.Fatalf("the chat was not stored in %s: %v", table, err)
	}
}
