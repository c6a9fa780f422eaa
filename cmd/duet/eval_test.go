package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/duetbot/duet/shared/apigw"
	"github.com/duetbot/duet/shared/app"
	"github.com/duetbot/duet/shared/config"
	"github.com/duetbot/duet/shared/httpapi"
	"github.com/duetbot/duet/shared/store/memstore"
)

const (
	evalKey     = "eval-test-key-0123456789"
	trainFile   = "../../shared/annex/testdata/ada.json"
	heldoutFile = "../../shared/annex/testdata/ada-heldout.json"
)

// annexServer serves the annex bot as `duet serve` does, learning from ada.json.
func annexServer(t *testing.T) *httptest.Server {
	t.Helper()
	cfg, err := config.Load(func(k string) (string, bool) {
		v, ok := map[string]string{"ANNEX_CALLER_KEY": evalKey, "ANNEX_PERSONA_FILE": trainFile}[k]
		return v, ok
	})
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.DiscardHandler)
	engine, err := app.AnnexEngine(context.Background(), cfg, memstore.NewAnnex(), app.OfflineBrains(), log)
	if err != nil {
		t.Fatal(err)
	}
	h, err := httpapi.NewAnnex(cfg.AnnexCallerKey, engine, log)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(apigw.HTTP(h.Handle, log))
	t.Cleanup(srv.Close)
	return srv
}

func TestEvalTable(t *testing.T) {
	srv := annexServer(t)
	var stdout, stderr bytes.Buffer
	err := runEval(context.Background(), []string{"--endpoint", srv.URL, "--key", evalKey, "--transcript", heldoutFile, "--echo"}, &stdout, &stderr)
	if err != nil {
		t.Fatalf("duet eval: %v\n%s", err, stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{"MEAN", "MEDIAN", "MIN", srv.URL, "echo", "embeddings: offline"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The verdict comes first: the persona against the echo baseline.
	if i := strings.Index(out, "\n\nbot is better than echo by "); i < 0 || i > strings.Index(out, "BOT ") {
		t.Errorf("the output does not open with the verdict against echo:\n%s", out)
	}
	if strings.Contains(stderr.String(), "\r") {
		t.Errorf("progress frames written to a stderr that is not a terminal: %q", stderr.String())
	}
	if strings.Contains(out+stderr.String(), evalKey) {
		t.Error("the caller key was printed")
	}
}

func TestEvalJSONAndHTML(t *testing.T) {
	srv := annexServer(t)
	html := filepath.Join(t.TempDir(), "report.html")
	var stdout bytes.Buffer
	err := runEval(context.Background(), []string{"--endpoint", srv.URL, "--key", evalKey, "--transcript", heldoutFile, "--json", "--html", html}, &stdout, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if !json.Valid(stdout.Bytes()) {
		t.Fatalf("--json output is not JSON:\n%s", stdout.String())
	}
	b, err := os.ReadFile(html)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte("<svg")) || bytes.Contains(b, []byte("<script src")) {
		t.Errorf("HTML report is not a self-contained page with a chart")
	}
}

// TestEvalNothingScored: a wrong key makes every turn fail; each failure is
// reported and the command fails, since nothing could be scored.
func TestEvalNothingScored(t *testing.T) {
	srv := annexServer(t)
	var stdout bytes.Buffer
	err := runEval(context.Background(), []string{"--endpoint", srv.URL, "--key", "wrong-key-0123456789", "--transcript", heldoutFile}, &stdout, io.Discard)
	if err == nil {
		t.Fatalf("duet eval with a wrong key succeeded:\n%s", stdout.String())
	}
	if !strings.Contains(stdout.String()+err.Error(), "401") {
		t.Errorf("the failures do not say why (401): %v\n%s", err, stdout.String())
	}
}

// TestEvalBaseline: echo is the baseline when scored, else the first of
// several endpoints, else there is none.
func TestEvalBaseline(t *testing.T) {
	for _, tc := range []struct {
		endpoints []string
		echo      bool
		want      string
	}{
		{[]string{"http://a"}, true, "echo"},
		{[]string{"http://a", "http://b"}, true, "echo"},
		{[]string{"http://a", "http://b"}, false, "#1"},
		{[]string{"http://a"}, false, ""},
	} {
		cands := evalCandidates(tc.endpoints, nil, tc.echo, nil)
		if got := baseline(cands, tc.echo); got != tc.want {
			t.Errorf("endpoints %q, echo %v: baseline %q, want %q", tc.endpoints, tc.echo, got, tc.want)
		}
	}
}

// TestProgressOnlyOnTerminal: the progress bar draws its \r frames on a
// terminal only; a log or a pipe gets none.
func TestProgressOnlyOnTerminal(t *testing.T) {
	for _, tty := range []bool{false, true} {
		var b bytes.Buffer
		p := &progress{w: &b, tty: tty}
		for i := 1; i <= 10; i++ {
			p.update(i, 10)
		}
		p.done()
		if got := strings.Contains(b.String(), "\r[") && strings.Contains(b.String(), "10/10"); got != tty {
			t.Errorf("tty %v: wrote %q", tty, b.String())
		}
	}
	// Elsewhere, a long run prints a line every few seconds.
	var b bytes.Buffer
	p := &progress{w: &b, last: time.Now().Add(-lineEvery)}
	p.update(3, 10)
	p.update(4, 10)
	if got, want := b.String(), "duet eval: 3/10 requests\n"; got != want {
		t.Errorf("not a terminal, %s since the last line: wrote %q, want %q", lineEvery, got, want)
	}
	if isTerminal(&bytes.Buffer{}) {
		t.Error("a buffer is taken for a terminal")
	}
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if isTerminal(f) {
		t.Error("a file is taken for a terminal")
	}
}

func TestEvalUsage(t *testing.T) {
	for _, args := range [][]string{
		{"--endpoint", "http://x"},                                       // no transcript
		{"--transcript", heldoutFile},                                    // no endpoint
		{"--endpoint", "http://x", "--transcript", "/no/such/file.json"}, // unreadable
		{"--echo", "--transcript", heldoutFile, "--compat", "other"},
	} {
		if err := runEval(context.Background(), args, io.Discard, io.Discard); err == nil {
			t.Errorf("duet eval %q = nil error", args)
		}
	}
}
