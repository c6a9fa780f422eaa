// Package bounded reads input files with a size limit enforced while
// reading: past the limit reading stops at once with a *TooLargeError that
// names the file and the limit, so that an endless or huge input (a
// device, a pipe, a mistaken path) costs at most the limit in memory and
// the time to read that much. Every file the duet CLI and the functions
// read from a path goes through it; docs/operations.md lists the limits.
package bounded

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// TooLargeError is returned for an input longer than its limit.
type TooLargeError struct {
	Name  string // the file (or input) read
	Limit int64  // in bytes
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s: larger than %s, the limit for this input (see Input limits in docs/operations.md)", e.Name, Size(e.Limit))
}

// Size formats n bytes for people: "64 MiB", "512 KiB", "100 bytes".
func Size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Reader returns a reader of r that yields at most limit bytes: when r
// holds more, its next Read fails with a *TooLargeError naming name.
func Reader(r io.Reader, name string, limit int64) io.Reader {
	return &reader{r: r, name: name, left: limit, limit: limit}
}

type reader struct {
	r           io.Reader
	name        string
	left, limit int64
	err         error
}

func (b *reader) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	if len(p) == 0 {
		return 0, nil
	}
	if b.left == 0 {
		// At the limit: the input is within it only if nothing follows.
		var one [1]byte
		n, err := io.ReadFull(b.r, one[:])
		if n > 0 {
			b.err = &TooLargeError{Name: b.name, Limit: b.limit}
			return 0, b.err
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			err = io.EOF
		}
		return 0, err
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.r.Read(p)
	b.left -= int64(n)
	return n, err
}

// ReadAll reads r whole, failing with a *TooLargeError naming name past
// limit bytes.
func ReadAll(r io.Reader, name string, limit int64) ([]byte, error) {
	return readAll(Reader(r, name, limit), 0)
}

// chunk is the piece readAll reads at a time.
const chunk = 1 << 20

// readAll reads r whole into a slice of cap size+1 when size (the
// expected length) is known, else in pieces joined at the end: an input
// that fails past its limit then holds no more than the limit, where a
// slice grown by doubling would hold up to three times as much.
func readAll(r io.Reader, size int64) ([]byte, error) {
	if size > 0 {
		b := make([]byte, 0, size+1)
		for {
			n, err := r.Read(b[len(b):cap(b)])
			b = b[:len(b)+n]
			if errors.Is(err, io.EOF) {
				return b, nil
			}
			if err != nil {
				return nil, err
			}
			if len(b) == cap(b) {
				// Longer than expected (the file grew): go on in pieces.
				rest, err := readAll(r, 0)
				if err != nil {
					return nil, err
				}
				return append(b, rest...), nil
			}
		}
	}
	var pieces [][]byte
	total := 0
	for {
		p := make([]byte, chunk)
		n, err := io.ReadFull(r, p)
		if n > 0 {
			pieces = append(pieces, p[:n])
			total += n
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	b := make([]byte, 0, total)
	for _, p := range pieces {
		b = append(b, p...)
	}
	return b, nil
}

// ReadFile reads the file at path whole, failing with a *TooLargeError past
// limit bytes: at once for a regular file that large, after limit bytes
// for anything else (a pipe, a device such as /dev/zero).
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := Open(path, limit)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := int64(0)
	if fi, err := f.f.Stat(); err == nil && fi.Mode().IsRegular() {
		size = min(fi.Size(), limit)
	}
	return readAll(f, size)
}

// File is an open file whose reads stop at a limit (see Reader).
type File struct {
	f *os.File
	io.Reader
}

// Open opens the file at path for reading at most limit bytes. A regular
// file already larger than limit fails here, with a *TooLargeError.
func Open(path string, limit int64) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > limit {
		f.Close()
		return nil, &TooLargeError{Name: path, Limit: limit}
	}
	return &File{f: f, Reader: Reader(f, path, limit)}, nil
}

// Close closes the file.
func (f *File) Close() error { return f.f.Close() }

// Parse opens the file at path and parses it with parse through a reader
// of at most limit bytes. Its errors name path: a *TooLargeError as it is,
// any other error wrapped as "path: err".
func Parse[T any](path string, limit int64, parse func(io.Reader) (T, error)) (T, error) {
	var zero T
	f, err := Open(path, limit)
	if err != nil {
		return zero, err
	}
	defer f.Close()
	v, err := parse(f)
	var tooLarge *TooLargeError
	switch {
	case errors.As(err, &tooLarge):
		return zero, tooLarge
	case err != nil:
		return zero, fmt.Errorf("%s: %w", path, err)
	}
	return v, nil
}
