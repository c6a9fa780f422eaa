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
	for _, want := range []string{"MEAN", "MEDIAN", "MIN", srv.URL, "echo"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
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
