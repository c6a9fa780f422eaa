package clariq

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// RunDepth is how many questions a Stage 1 run gives each topic.
const RunDepth = 30

// WriteQuestionRun writes a topic's ranking in the official run format,
// `<topic_id> 0 <question_id> <rank> <score> <run_id>`. Scores strictly
// decrease, since the official tool keeps one line per score.
func WriteQuestionRun(w io.Writer, topicID string, ranked []Scored, runID string) error {
	for i, s := range ranked {
		score := float64(len(ranked)-i) + sigmoid(s.Score)*0.5
		if _, err := fmt.Fprintf(w, "%s 0 %s %d %.6f %s\n", topicID, s.ID, i+1, score, runID); err != nil {
			return err
		}
	}
	return nil
}

func sigmoid(z float64) float64 {
	if z < -30 {
		return 0
	}
	return 1 / (1 + math.Exp(-z))
}

// ReadQuestionRun reads a question run file. Each non-blank line must have
// six space-separated fields with a whole rank and a numeric score.
func ReadQuestionRun(r io.Reader) ([]RunLine, error) {
	var out []RunLine
	err := lines(r, "question run", func(n int, fs []string) error {
		if len(fs) != 6 {
			return fmt.Errorf("%d fields: want `<topic_id> 0 <question_id> <rank> <score> <run_id>`", len(fs))
		}
		rank, err := strconv.Atoi(fs[3])
		if err != nil {
			return fmt.Errorf("rank %q: want a whole number", fs[3])
		}
		score, err := strconv.ParseFloat(fs[4], 64)
		if err != nil || score != score {
			return fmt.Errorf("score %q: want a number", fs[4])
		}
		out = append(out, RunLine{TopicID: fs[0], QuestionID: fs[2], Rank: rank, Score: score, RunID: fs[5]})
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, errors.New("question run: no lines")
	}
	return out, nil
}

// ReadNeedRun reads a clarification-need run file, `<topic_id> <1..4>`
// per line. A topic given twice is an error.
func ReadNeedRun(r io.Reader) (map[string]int, error) {
	out := map[string]int{}
	err := lines(r, "need run", func(_ int, fs []string) error {
		if len(fs) != 2 {
			return fmt.Errorf("%d fields: want `<topic_id> <need 1..4>`", len(fs))
		}
		n, err := strconv.Atoi(fs[1])
		if err != nil || n < 1 || n > 4 {
			return fmt.Errorf("need %q: want 1..4", fs[1])
		}
		t := canonTopic(fs[0])
		if _, dup := out[t]; dup {
			return fmt.Errorf("topic %s appears twice", fs[0])
		}
		out[t] = n
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, errors.New("need run: no lines")
	}
	return out, nil
}

// lines calls fn with the fields of each non-blank line.
func lines(r io.Reader, what string, fn func(n int, fields []string) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		fs := strings.Fields(sc.Text())
		if len(fs) == 0 {
			continue
		}
		if err := fn(n, fs); err != nil {
			return fmt.Errorf("%s line %d: %w", what, n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s line %d: %w", what, n+1, err)
	}
	return nil
}
