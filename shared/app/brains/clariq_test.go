package brains

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/config"
)

func TestClariqBrains(t *testing.T) {
	dir := t.TempDir()
	bank := filepath.Join(dir, "question_bank.tsv")
	if err := os.WriteFile(bank, []byte("question_id\tquestion\nQ00001\t\nQ00002\tare you looking for the kiwi fruit\nQ00003\tdo you mean the kiwi bird\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	tests := []struct {
		name    string
		cfg     config.Config
		wantErr string
	}{
		{name: "bank file", cfg: config.Config{Brain: "clariq", ClariqBank: bank}},
		{name: "no bank", cfg: config.Config{Brain: "clariq"}, wantErr: "set CLARIQ_BANK"},
		{name: "missing file", cfg: config.Config{Brain: "clariq", ClariqBank: filepath.Join(dir, "nope.tsv")}, wantErr: "read the question bank"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := New(context.Background(), tt.cfg, log)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := b.Replier.(brain.Ender); !ok {
				t.Fatalf("the replier %T is no brain.Ender", b.Replier)
			}
			text, end, err := b.Replier.(brain.Ender).ReplyEnd(context.Background(), brain.Request{Context: "Tell me about kiwi"})
			if err != nil || end || !strings.Contains(strings.ToLower(text), "kiwi") {
				t.Fatalf("got %q, end %v, %v; want a question about kiwi", text, end, err)
			}
		})
	}
}
