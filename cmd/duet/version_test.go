package main

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionLine(t *testing.T) {
	for _, tt := range []struct {
		info *debug.BuildInfo
		want string
	}{
		{nil, "duet (no build information)"},
		{&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.3.0"}}, "duet v0.3.0 go1.26.8"},
		{&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "86fdc92a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e"}, {Key: "vcs.modified", Value: "true"}}},
			"duet (devel) (commit 86fdc92a0b1c, modified) go1.26.8"},
	} {
		if got := versionLine(tt.info); got != tt.want {
			t.Errorf("versionLine = %q, want %q", got, tt.want)
		}
	}
	stdout, _, code := runDuet(t, "version")
	if code != 0 || !strings.HasPrefix(stdout, "duet ") || !strings.Contains(stdout, "go1.") {
		t.Errorf("duet version: exit %d, %q", code, stdout)
	}
}

// TestLogRequests: serve -v logs every request with its status, and never
// its body or secret header.
func TestLogRequests(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, nil))
	h := logRequests(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/telegram" {
			http.Error(w, "no", http.StatusUnauthorized)
			return
		}
		w.Write([]byte("ok"))
	}), log)
	req := httptest.NewRequest(http.MethodPost, "/telegram", strings.NewReader(`{"update_id":1,"message":{"text":"private words"}}`))
	req.Header.Set("X-Telegram-Bot-Api-Secret-Token", "s3cr3t-value")
	h.ServeHTTP(httptest.NewRecorder(), req)
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/healthz", nil))
	out := buf.String()
	for _, want := range []string{"method=POST path=/telegram status=401", "method=GET path=/healthz status=200"} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
	for _, secret := range []string{"s3cr3t-value", "private words"} {
		if strings.Contains(out, secret) {
			t.Errorf("log shows %q:\n%s", secret, out)
		}
	}
}
