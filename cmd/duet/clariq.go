package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/duetbot/duet/shared/bounded"
	"github.com/duetbot/duet/shared/clariq"
)

func init() {
	register("clariq", "ClariQ: Stage 1 run files (run), official metrics (eval), fit the model (fit), the bank for Lambda (import)", runClariq)
}

const clariqUsage = `usage: duet clariq run -requests FILE.tsv -bank question_bank.tsv -out PREFIX [-run-id NAME]
       duet clariq eval -run PREFIX -labels dev.tsv
       duet clariq fit -bank question_bank.tsv -train train.tsv -dev dev.tsv -out shared/clariq/model.json
       duet clariq import -bank question_bank.tsv      (into SESSIONS_TABLE, for BRAIN=clariq on Lambda)`

func runClariq(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	usage := fmt.Errorf("%w: %s", errUsage, clariqUsage)
	if len(args) == 0 {
		return usage
	}
	switch args[0] {
	case "run":
		return clariqRun(ctx, args[1:], stdout, stderr)
	case "eval":
		return clariqEval(args[1:], stdout, stderr)
	case "fit":
		return clariqFit(args[1:], stdout, stderr)
	case "import":
		return clariqImport(ctx, args[1:], stdout, stderr)
	}
	return usage
}

// readFile opens path and parses it with read, reading at most limit
// bytes and naming the file in errors (see bounded.Parse).
func readFile[T any](path string, limit int64, read func(io.Reader) (T, error)) (T, error) {
	return bounded.Parse(path, limit, read)
}

func clariqRun(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("clariq run", stderr)
	reqPath := fs.String("requests", "", "TSV of requests: a header, then topic id and request in the first two columns")
	bankPath := fs.String("bank", os.Getenv("CLARIQ_BANK"), "question_bank.tsv (default $CLARIQ_BANK)")
	out := fs.String("out", "", "output prefix: writes PREFIX.questions and PREFIX.need")
	runID := fs.String("run-id", "duet", "the run id written in the last column")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if missing := missingFlags(map[string]string{"-requests": *reqPath, "-bank": *bankPath, "-out": *out}); missing != "" || fs.NArg() > 0 {
		if missing == "" {
			missing = fmt.Sprintf("unexpected arguments %q", fs.Args())
		}
		return fmt.Errorf("%w: %s\nusage: duet clariq run -requests FILE.tsv -bank question_bank.tsv -out PREFIX [-run-id NAME]", errUsage, missing)
	}
	if len(*runID) == 0 || containsSpace(*runID) {
		return fmt.Errorf("-run-id %q: want a name without spaces", *runID)
	}
	reqs, err := readFile(*reqPath, clariq.MaxFileBytes, clariq.ReadRequests)
	if err != nil {
		return err
	}
	bank, err := readFile(*bankPath, clariq.MaxFileBytes, clariq.ReadBank)
	if err != nil {
		return err
	}
	r := clariq.NewRanker(bank, nil)
	qf, err := createBuffered(*out + ".questions")
	if err != nil {
		return err
	}
	defer qf.close()
	nf, err := createBuffered(*out + ".need")
	if err != nil {
		return err
	}
	defer nf.close()
	start, last := time.Now(), time.Now()
	for i, req := range reqs {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := clariq.WriteQuestionRun(qf.w, req.TopicID, r.Rank(req.Text, clariq.RunDepth, nil), *runID); err != nil {
			return fmt.Errorf("write %s: %w", qf.name, err)
		}
		if _, err := fmt.Fprintf(nf.w, "%s %d\n", req.TopicID, r.Need(req.Text)); err != nil {
			return fmt.Errorf("write %s: %w", nf.name, err)
		}
		if time.Since(last) > time.Second {
			last = time.Now()
			fmt.Fprintf(stderr, "duet clariq run: %d/%d requests\n", i+1, len(reqs))
		}
	}
	if err := qf.close(); err != nil {
		return err
	}
	if err := nf.close(); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "duet clariq run: %d requests in %s: wrote %s and %s\n", len(reqs), time.Since(start).Round(time.Millisecond), qf.name, nf.name)
	return nil
}

func containsSpace(s string) bool {
	for _, r := range s {
		if r == ' ' || r == '\t' || r == '\n' {
			return true
		}
	}
	return false
}

// bufferedFile is a file being written through a buffer.
type bufferedFile struct {
	name   string
	f      *os.File
	w      *bufio.Writer
	closed bool
}

func createBuffered(name string) (*bufferedFile, error) {
	if dir := filepath.Dir(name); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
	}
	f, err := os.Create(name)
	if err != nil {
		return nil, err
	}
	return &bufferedFile{name: name, f: f, w: bufio.NewWriter(f)}, nil
}

func (b *bufferedFile) close() error {
	if b.closed {
		return nil
	}
	b.closed = true
	err := b.w.Flush()
	if cerr := b.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", b.name, err)
	}
	return nil
}

func clariqEval(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("clariq eval", stderr)
	run := fs.String("run", "", "the run's prefix: reads PREFIX.questions and PREFIX.need (either may be absent)")
	labels := fs.String("labels", "", "labelled topics: train.tsv or dev.tsv")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *run == "" || *labels == "" || fs.NArg() > 0 {
		return fmt.Errorf("%w: usage: duet clariq eval -run PREFIX -labels dev.tsv", errUsage)
	}
	topics, err := readFile(*labels, clariq.MaxFileBytes, clariq.ReadTopics)
	if err != nil {
		return err
	}
	found := false
	if lines, err := readFile(*run+".questions", clariq.MaxFileBytes, clariq.ReadQuestionRun); err == nil {
		found = true
		ids := make([]string, len(lines))
		for i, l := range lines {
			ids[i] = l.TopicID
		}
		if err := shareTopics(topics, *labels, *run+".questions", ids); err != nil {
			return err
		}
		r := clariq.QuestionRecall(topics, lines)
		fmt.Fprintf(stdout, "question relevance (%d topics)\n  Recall@5   %.4f\n  Recall@10  %.4f\n  Recall@20  %.4f\n  Recall@30  %.4f\n", r.Topics, r.At5, r.At10, r.At20, r.At30)
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if pred, err := readFile(*run+".need", clariq.MaxFileBytes, clariq.ReadNeedRun); err == nil {
		found = true
		if err := shareTopics(topics, *labels, *run+".need", slices.Sorted(maps.Keys(pred))); err != nil {
			return err
		}
		s := clariq.NeedMetrics(topics, pred)
		fmt.Fprintf(stdout, "clarification need (%d topics, weighted)\n  Precision  %.4f\n  Recall     %.4f\n  F1         %.4f\n", s.Topics, s.Precision, s.Recall, s.F1)
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if !found {
		return fmt.Errorf("neither %s.questions nor %s.need exists", *run, *run)
	}
	return nil
}

func clariqFit(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("clariq fit", stderr)
	bankPath := fs.String("bank", "", "question_bank.tsv")
	train := fs.String("train", "", "train.tsv: the topics to learn from")
	dev := fs.String("dev", "", "dev.tsv: the topics to tune on")
	out := fs.String("out", "", "where to write the model (shared/clariq/model.json)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *bankPath == "" || *train == "" || *dev == "" || *out == "" || fs.NArg() > 0 {
		return fmt.Errorf("%w: usage: duet clariq fit -bank question_bank.tsv -train train.tsv -dev dev.tsv -out model.json", errUsage)
	}
	bank, err := readFile(*bankPath, clariq.MaxFileBytes, clariq.ReadBank)
	if err != nil {
		return err
	}
	tr, err := readFile(*train, clariq.MaxFileBytes, clariq.ReadTopics)
	if err != nil {
		return err
	}
	dv, err := readFile(*dev, clariq.MaxFileBytes, clariq.ReadTopics)
	if err != nil {
		return err
	}
	m, rep, err := clariq.Fit(bank, tr, dv, clariq.FitOptions{Progress: stderr})
	if err != nil {
		return err
	}
	m.Note = fmt.Sprintf("duet clariq fit -train train.tsv -dev dev.tsv (ClariQ data/ at 46885a5): dev Recall@10 %.4f, Recall@30 %.4f, need F1 %.4f; train 5-fold CV Recall@10 %.4f, Recall@30 %.4f, need F1 %.4f",
		rep.Dev.At10, rep.Dev.At30, rep.Need.F1, rep.TrainCV.At10, rep.TrainCV.At30, rep.NeedCV)
	b, err := m.MarshalIndent()
	if err != nil {
		return err
	}
	if err := os.WriteFile(*out, b, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s: %s\n", *out, m.Note)
	return nil
}
