package clariq

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Question is one entry of the question bank. The empty question (Q00001 in
// the official bank) means "ask nothing".
type Question struct {
	ID   string
	Text string
}

// Request is one information request to rank the bank for.
type Request struct {
	TopicID string
	Text    string
}

// Topic is one labelled topic of train.tsv or dev.tsv: its request, how
// much it needs clarifying, and the bank questions relevant to it, in file
// order without repeats.
type Topic struct {
	ID        string
	Request   string
	Need      int
	Questions []string
}

// MaxFileBytes bounds a ClariQ file (a question bank, requests, labels, a
// run file): 7 times train.tsv, the largest file of the official data,
// while reading one past it stays near 100 MB.
const MaxFileBytes = 16 << 20

// maxField bounds one TSV field, so a malformed file (an unclosed quote
// swallowing the rest) fails clearly instead of filling memory.
const maxField = 1 << 16

// tsvReader returns a reader for ClariQ's TSV files: tab-separated, with
// the quoting pandas writes ("…""…" inside a field).
func tsvReader(r io.Reader) *csv.Reader {
	cr := csv.NewReader(bufio.NewReader(r))
	cr.Comma = '\t'
	cr.LazyQuotes = true
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = false
	return cr
}

// header reads the header row and returns the index of each wanted column,
// matching names case-insensitively with spaces and underscores alike.
func header(cr *csv.Reader, what string, want ...string) ([]int, error) {
	row, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: empty file: want a header row with %s", what, strings.Join(want, ", "))
	}
	if err != nil {
		return nil, fmt.Errorf("%s: header: %w", what, err)
	}
	idx := make([]int, len(want))
	for i, w := range want {
		idx[i] = -1
		for j, h := range row {
			if normName(h) == normName(w) {
				idx[i] = j
				break
			}
		}
		if idx[i] < 0 {
			return nil, fmt.Errorf("%s: header %q has no column %q", what, strings.Join(row, "\t"), w)
		}
	}
	return idx, nil
}

func normName(s string) string {
	s = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(s, "\ufeff")))
	return strings.ReplaceAll(s, " ", "_")
}

// rows calls fn for each data row after the header, with its 1-based line.
func rows(cr *csv.Reader, what string, fn func(line int, rec []string) error) error {
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		line, _ := cr.FieldPos(0)
		if err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		for _, f := range rec {
			if len(f) > maxField {
				return fmt.Errorf("%s line %d: a field of %d bytes (an unclosed quote?)", what, line, len(f))
			}
		}
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue // a blank line
		}
		if err := fn(line, rec); err != nil {
			return fmt.Errorf("%s line %d: %w", what, line, err)
		}
	}
}

// checkID refuses an id that would break the run files, whose fields are
// separated by spaces, one line each: an empty one, or one holding a space,
// a tab, a line break or another control character (NUL…).
func checkID(what, id string) error {
	if id == "" {
		return fmt.Errorf("empty %s", what)
	}
	if i := strings.IndexFunc(id, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) || r == utf8.RuneError }); i >= 0 {
		return fmt.Errorf("%s %q: want an id without spaces, tabs, line breaks or control characters (found %q)", what, id, []rune(id[i:])[0])
	}
	return nil
}

func field(rec []string, i int, name string) (string, error) {
	if i >= len(rec) {
		return "", fmt.Errorf("%d columns, no %s", len(rec), name)
	}
	return strings.TrimSpace(rec[i]), nil
}

// ReadBank reads a question bank (question_bank.tsv: a header with
// question_id and question, then one row per question). Ids must be unique
// and non-empty; the text may be empty (the "ask nothing" question).
func ReadBank(r io.Reader) ([]Question, error) {
	cr := tsvReader(r)
	idx, err := header(cr, "question bank", "question_id", "question")
	if err != nil {
		return nil, err
	}
	var bank []Question
	seen := map[string]bool{}
	err = rows(cr, "question bank", func(_ int, rec []string) error {
		id, err := field(rec, idx[0], "question_id")
		if err != nil {
			return err
		}
		if id == "" {
			return errors.New("empty question_id")
		}
		if err := checkID("question_id", id); err != nil {
			return err
		}
		if seen[id] {
			return fmt.Errorf("question %s appears twice", id)
		}
		seen[id] = true
		text := ""
		if idx[1] < len(rec) {
			text = strings.TrimSpace(rec[idx[1]])
		}
		bank = append(bank, Question{ID: id, Text: text})
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(bank) == 0 {
		return nil, errors.New("question bank: no questions")
	}
	return bank, nil
}

// ReadRequests reads a requests file: a header row whose first two columns
// are the topic id and the request (topic_id and initial_request, or the
// test file's "initial request"), then one row per request; further columns
// are ignored, and a topic's repeated rows (train.tsv has one per relevant
// question) count once.
func ReadRequests(r io.Reader) ([]Request, error) {
	cr := tsvReader(r)
	row, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, errors.New("requests: empty file: want a header row topic_id, initial_request")
	}
	if err != nil {
		return nil, fmt.Errorf("requests: header: %w", err)
	}
	if len(row) < 2 || normName(row[0]) != "topic_id" || normName(row[1]) != "initial_request" {
		return nil, fmt.Errorf("requests: header %q: want the first two columns topic_id and initial_request", strings.Join(row, "\t"))
	}
	var out []Request
	seen := map[string]string{}
	err = rows(cr, "requests", func(_ int, rec []string) error {
		if len(rec) < 2 {
			return fmt.Errorf("%d column(s): want the topic id and the request", len(rec))
		}
		id, text := strings.TrimSpace(rec[0]), strings.TrimSpace(rec[1])
		if err := checkID("topic id", id); err != nil {
			return err
		}
		if prev, dup := seen[id]; dup {
			if prev != text {
				return fmt.Errorf("topic %s has two different requests", id)
			}
			return nil
		}
		seen[id] = text
		out = append(out, Request{TopicID: id, Text: text})
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, errors.New("requests: no rows after the header")
	}
	return out, nil
}

// ReadTopics reads a labelled file (train.tsv, dev.tsv): the columns
// topic_id, initial_request, clarification_need and question_id, one row
// per relevant question. A topic keeps its first request and need.
func ReadTopics(r io.Reader) ([]Topic, error) {
	cr := tsvReader(r)
	idx, err := header(cr, "labels", "topic_id", "initial_request", "clarification_need", "question_id")
	if err != nil {
		return nil, err
	}
	var out []Topic
	at := map[string]int{}
	err = rows(cr, "labels", func(_ int, rec []string) error {
		var f [4]string
		for i, name := range []string{"topic_id", "initial_request", "clarification_need", "question_id"} {
			v, err := field(rec, idx[i], name)
			if err != nil {
				return err
			}
			f[i] = v
		}
		if f[0] == "" {
			return errors.New("empty topic_id")
		}
		need, err := strconv.Atoi(f[2])
		if err != nil || need < 1 || need > 4 {
			return fmt.Errorf("clarification_need %q: want 1..4", f[2])
		}
		i, ok := at[f[0]]
		if !ok {
			i = len(out)
			at[f[0]] = i
			out = append(out, Topic{ID: f[0], Request: f[1], Need: need})
		}
		t := &out[i]
		if f[3] != "" && !contains(t.Questions, f[3]) {
			t.Questions = append(t.Questions, f[3])
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, errors.New("labels: no rows after the header")
	}
	return out, nil
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
