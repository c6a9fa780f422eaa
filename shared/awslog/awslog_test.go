package awslog

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"testing"

	"github.com/aws/smithy-go/logging"
)

func TestLinesGoThroughSlog(t *testing.T) {
	var buf bytes.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewJSONHandler(&buf, nil)))
	t.Cleanup(func() { slog.SetDefault(prev) })

	Logger().Logf(logging.Warn, "failed to discard %d bytes", 42)
	Logger().Logf(logging.Debug, "retrying")

	var lines []map[string]any
	for _, raw := range bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n")) {
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatalf("line %q is not the default logger's JSON: %v", raw, err)
		}
		lines = append(lines, m)
	}
	if len(lines) != 2 {
		t.Fatalf("got %d lines, want 2: %s", len(lines), buf.String())
	}
	for i, want := range []struct{ level, msg string }{{"WARN", "failed to discard 42 bytes"}, {"INFO", "retrying"}} {
		if got := lines[i]; got["level"] != want.level || got["msg"] != want.msg || got["source"] != "aws-sdk" {
			t.Errorf("line %d = %v, want level %s, msg %q, source aws-sdk", i, got, want.level, want.msg)
		}
	}
}
