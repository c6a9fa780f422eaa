package clariq

import (
	"os"
	"path/filepath"
	"testing"
)

// dataDir is where the ClariQ data lives: $CLARIQ_DATA, or the shared data
// directory beside the clone.
func dataDir() string {
	if d := os.Getenv("CLARIQ_DATA"); d != "" {
		return d
	}
	return filepath.Join("..", "..", "..", "shared", "data", "clariq")
}

// openData opens a ClariQ data file, or skips the test with the reason.
func openData(t testing.TB, name string) *os.File {
	t.Helper()
	f, err := os.Open(filepath.Join(dataDir(), name))
	if err != nil {
		t.Skipf("ClariQ data absent (%v): put aliannejadi/ClariQ's data/ at ../shared/data/clariq beside the clone, or set CLARIQ_DATA", err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func testBank(t testing.TB) []Question {
	t.Helper()
	b, err := ReadBank(openData(t, "question_bank.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
