package bounded

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
)

// zeros is an endless reader, like /dev/zero.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

func TestReadAll(t *testing.T) {
	const limit = 100
	for _, tc := range []struct {
		name    string
		r       io.Reader
		want    int
		tooLong bool
	}{
		{"empty", strings.NewReader(""), 0, false},
		{"under", strings.NewReader(strings.Repeat("a", 99)), 99, false},
		{"at the limit", strings.NewReader(strings.Repeat("a", 100)), 100, false},
		{"one byte over", strings.NewReader(strings.Repeat("a", 101)), 0, true},
		{"at the limit, a byte at a time", iotest.OneByteReader(strings.NewReader(strings.Repeat("a", 100))), 100, false},
		{"over, a byte at a time", iotest.OneByteReader(strings.NewReader(strings.Repeat("a", 101))), 0, true},
		{"at the limit, EOF with the data", iotest.DataErrReader(strings.NewReader(strings.Repeat("a", 100))), 100, false},
		{"endless", zeros{}, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := ReadAll(tc.r, "in.json", limit)
			var tl *TooLargeError
			switch {
			case tc.tooLong && !errors.As(err, &tl):
				t.Fatalf("got %d bytes, err %v; want a *TooLargeError", len(b), err)
			case tc.tooLong:
				if tl.Name != "in.json" || tl.Limit != limit {
					t.Errorf("got %+v, want name in.json and limit %d", tl, limit)
				}
				if msg := err.Error(); !strings.Contains(msg, "in.json") || !strings.Contains(msg, "100 bytes") {
					t.Errorf("got %q, want the name and the limit", msg)
				}
			case err != nil:
				t.Fatalf("got err %v, want %d bytes", err, tc.want)
			case len(b) != tc.want:
				t.Errorf("got %d bytes, want %d", len(b), tc.want)
			}
		})
	}
}

func TestReadErrorPassesThrough(t *testing.T) {
	boom := errors.New("boom")
	if _, err := ReadAll(iotest.ErrReader(boom), "x", 10); !errors.Is(err, boom) {
		t.Errorf("got %v, want the reader's error", err)
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, n int) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, bytes.Repeat([]byte("x"), n), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	at, over := write("at", 1024), write("over", 1025)
	b, err := ReadFile(at, 1024)
	if err != nil || len(b) != 1024 {
		t.Errorf("file at the limit: got %d bytes, err %v; want 1024 bytes", len(b), err)
	}
	_, err = ReadFile(over, 1024)
	if want := over + ": larger than 1 KiB"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("file over the limit: got %v, want %q…", err, want)
	}
	if _, err := ReadFile(filepath.Join(dir, "missing"), 1024); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: got %v, want ErrNotExist", err)
	}
}

func TestReadFileDevZero(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero here")
	}
	_, err := ReadFile("/dev/zero", 8<<20)
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.Name != "/dev/zero" {
		t.Fatalf("got %v, want a *TooLargeError naming /dev/zero", err)
	}
	if !strings.Contains(err.Error(), "8 MiB") {
		t.Errorf("got %q, want the limit (8 MiB)", err)
	}
}

func TestParse(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.txt")
	if err := os.WriteFile(p, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	parse := func(r io.Reader) (string, error) {
		b, err := io.ReadAll(r)
		if err != nil {
			return "", errors.New("wrapped by the parser: " + err.Error())
		}
		if string(b) != "hello" {
			return "", errors.New("not hello")
		}
		return string(b), nil
	}
	if got, err := Parse(p, 5, parse); err != nil || got != "hello" {
		t.Errorf("got %q, %v; want hello", got, err)
	}
	_, err := Parse(p, 4, parse)
	if want := p + ": larger than 4 bytes"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("got %v, want %q…", err, want)
	}
	if err := os.WriteFile(p, []byte("other"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Parse(p, 5, parse); err == nil || err.Error() != p+": not hello" {
		t.Errorf("got %v, want %q", err, p+": not hello")
	}
}

func TestParseDevZero(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero here")
	}
	// The parser wraps the read error; Parse still returns it as it is.
	_, err := Parse("/dev/zero", 1<<20, func(r io.Reader) (int, error) {
		n, err := io.Copy(io.Discard, r)
		if err != nil {
			return 0, fmt.Errorf("parser: %w", err)
		}
		return int(n), nil
	})
	if want := "/dev/zero: larger than 1 MiB"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("got %v, want %q…", err, want)
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{100: "100 bytes", 1024: "1 KiB", 64 << 20: "64 MiB", 1025: "1025 bytes"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}
