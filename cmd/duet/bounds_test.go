package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/duetbot/duet/shared/annex"
	"github.com/duetbot/duet/shared/bounded"
	"github.com/duetbot/duet/shared/clariq"
	"github.com/duetbot/duet/shared/convai2"
)

// sparseFile returns a file of n zero bytes that takes no disk space.
func sparseFile(t testing.TB, dir, name string, n int64) string {
	t.Helper()
	p := filepath.Join(dir, name)
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(n); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestInputsOverTheirLimit gives every command that reads a file a file
// one byte over its limit, and /dev/zero (endless): each must fail with an
// error naming the file and the limit, having read no more than that.
func TestInputsOverTheirLimit(t *testing.T) {
	dir := t.TempDir()
	bank := filepath.Join(dir, "bank.tsv")
	if err := os.WriteFile(bank, []byte("question_id\tquestion\nQ00001\t\nQ00002\tdo you mean the city?\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	requests := filepath.Join(dir, "requests.tsv")
	if err := os.WriteFile(requests, []byte("topic_id\tinitial_request\n1\ttell me about paris\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "run")
	t.Setenv("SESSIONS_TABLE", "")
	t.Setenv("CLARIQ_BANK", "")
	for _, tc := range []struct {
		name  string
		limit int64
		args  func(f string) []string
	}{
		{"eval -transcript", annex.MaxTranscriptBytes, func(f string) []string { return []string{"eval", "-transcript", f, "-echo"} }},
		{"persona show --file", annex.MaxTranscriptBytes, func(f string) []string { return []string{"persona", "show", "--file", f} }},
		{"persona import --file", annex.MaxTranscriptBytes, func(f string) []string { return []string{"persona", "import", "--file", f} }},
		{"clariq run -requests", clariq.MaxFileBytes, func(f string) []string {
			return []string{"clariq", "run", "-requests", f, "-bank", bank, "-out", out}
		}},
		{"clariq run -bank", clariq.MaxFileBytes, func(f string) []string {
			return []string{"clariq", "run", "-requests", requests, "-bank", f, "-out", out}
		}},
		{"clariq import -bank", clariq.MaxFileBytes, func(f string) []string { return []string{"clariq", "import", "-bank", f} }},
		{"rate -dialogs", convai2.MaxFileBytes, func(f string) []string { return []string{"rate", "-dialogs", f} }},
	} {
		files := map[string]string{"one byte over": sparseFile(t, dir, strings.ReplaceAll(tc.name, " ", "_"), tc.limit+1)}
		if _, err := os.Stat("/dev/zero"); err == nil {
			files["/dev/zero"] = "/dev/zero"
		}
		for kind, f := range files {
			t.Run(tc.name+"/"+kind, func(t *testing.T) {
				_, stderr, code := runDuet(t, tc.args(f)...)
				want := fmt.Sprintf("%s: larger than %s", f, bounded.Size(tc.limit))
				if code != 1 || !strings.Contains(stderr, want) {
					t.Errorf("got exit %d, stderr %q; want 1 and %q", code, stderr, want)
				}
			})
		}
	}
}
