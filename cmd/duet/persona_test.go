package main

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/duetbot/duet/shared/app"
	"github.com/duetbot/duet/shared/config"
)

// writeTranscript writes a transcript of person U1 ("Ada") in which the
// person says says (none: they never speak).
func writeTranscript(t testing.TB, dir, name string, says ...string) string {
	t.Helper()
	msgs := []string{`{"from": "U2", "id": "0", "text": "hello there", "timestamp": "2024-03-04T09:00:00Z"}`}
	for i, s := range says {
		msgs = append(msgs, `{"from": "U2", "id": "q`+strconv.Itoa(i)+`", "text": "and then?", "timestamp": "2024-03-04T09:00:00Z"}`,
			`{"from": "U1", "id": "a`+strconv.Itoa(i)+`", "text": "`+s+`", "timestamp": "2024-03-04T09:00:00Z"}`)
	}
	body := `{"person": "U1", "users": [{"id": "U1", "username": "Ada"}, {"id": "U2", "username": "bob"}], "messages": [` + strings.Join(msgs, ",") + `]}`
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPersonaImportNothingToLearn: a transcript in which the person never
// speaks is refused before anything is stored, naming the file.
func TestPersonaImportNothingToLearn(t *testing.T) {
	silent := writeTranscript(t, t.TempDir(), "silent.json")
	t.Setenv("SESSIONS_TABLE", "")
	_, stderr, code := runDuet(t, "persona", "import", "--file", silent)
	if code != 1 || !strings.Contains(stderr, silent+": nothing to learn") {
		t.Errorf("got exit %d, stderr %q; want 1 and %q", code, stderr, silent+": nothing to learn")
	}
}

// TestPersonaErrorsNameTheFile: a bad --file is named as given, not as
// ANNEX_PERSONA_FILE (which was not set).
func TestPersonaErrorsNameTheFile(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"person": `), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, sub := range []string{"import", "show"} {
		_, stderr, code := runDuet(t, "persona", sub, "--file", bad)
		if code != 1 || !strings.Contains(stderr, bad) || strings.Contains(stderr, "ANNEX_PERSONA_FILE") {
			t.Errorf("persona %s: got exit %d, stderr %q; want 1, naming %s and not ANNEX_PERSONA_FILE", sub, code, stderr, bad)
		}
	}
}

// TestPersonaImportReplace: on a table, a second import of the same person
// is refused without -replace, an empty one always, and both leave the
// stored persona as it was; with -replace the new one takes its place.
func TestPersonaImportReplace(t *testing.T) {
	if os.Getenv("DYNAMODB_ENDPOINT") == "" {
		t.Skip("DYNAMODB_ENDPOINT is not set; run `eval \"$(.ci/moto)\"` first (make test does)")
	}
	table := "persona-import-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	t.Setenv("SESSIONS_TABLE", table)
	t.Setenv("ANNEX_PERSON_NAME", "")
	if _, stderr, code := runDuet(t, "table", "create", "-name", table); code != 0 {
		t.Fatalf("table create: exit %d: %s", code, stderr)
	}
	dir := t.TempDir()
	first := writeTranscript(t, dir, "first.json", "I like trains", "and boats")
	second := writeTranscript(t, dir, "second.json", "planes now")
	silent := writeTranscript(t, dir, "silent.json")
	cfg, err := config.FromEnv()
	if err != nil {
		t.Fatal(err)
	}
	store, err := app.DynamoStore(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	stored := func() []string {
		t.Helper()
		p, err := store.LoadPersona(context.Background(), "ada")
		if err != nil {
			t.Fatalf("load the stored persona: %v", err)
		}
		var answers []string
		for _, pr := range p.Pairs {
			answers = append(answers, pr.Answer)
		}
		return answers
	}
	if stdout, stderr, code := runDuet(t, "persona", "import", "--file", first); code != 0 || !strings.Contains(stdout, "imported 2 pairs of Ada") {
		t.Fatalf("first import: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"again without -replace", []string{"--file", second}, "give -replace"},
		{"nothing to learn", []string{"--file", silent, "-replace"}, "nothing to learn"},
	} {
		_, stderr, code := runDuet(t, append([]string{"persona", "import"}, tc.args...)...)
		if code != 1 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%s: got exit %d, stderr %q; want 1 and %q", tc.name, code, stderr, tc.want)
		}
		if got := stored(); strings.Join(got, "|") != "I like trains|and boats" {
			t.Errorf("%s: the stored persona now says %q, want the first import's 2 answers", tc.name, got)
		}
	}
	if stdout, stderr, code := runDuet(t, "persona", "import", "--file", second, "-replace"); code != 0 || !strings.Contains(stdout, "imported 1 pairs of Ada") {
		t.Fatalf("import -replace: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if got := stored(); strings.Join(got, "|") != "planes now" {
		t.Errorf("after -replace the stored persona says %q, want the second import's 1 answer", got)
	}
}
