package replay

import (
	"fmt"
	"math"
)

// Comparison is a candidate's standing against the baseline, on the turns
// both of them were scored on (a turn one of them failed compares nothing).
type Comparison struct {
	Baseline string `json:"baseline"`
	// Turns is how many turns both were scored on.
	Turns int `json:"turns"`
	// Mean and BaselineMean are the mean similarities on those turns, and
	// Delta is Mean - BaselineMean.
	Mean         float64 `json:"mean"`
	BaselineMean float64 `json:"baseline_mean"`
	Delta        float64 `json:"delta"`
	// Ahead, Behind and Level count the turns on which the candidate
	// scored more than the baseline, less, or the same (to 3 decimals).
	Ahead  int `json:"ahead"`
	Behind int `json:"behind"`
	Level  int `json:"level"`
}

// levelWithin is the difference below which two similarities read as the
// same: the reports print 3 decimals.
const levelWithin = 0.0005

// compare fills each candidate's VsBaseline and the result's Verdict.
func compare(res *Result) {
	base := -1
	for i, name := range res.Candidates {
		if name == res.Baseline {
			base = i
		}
	}
	res.Verdict = []string{}
	if base < 0 || len(res.Candidates) == 1 {
		for ci := range res.Summaries {
			res.Verdict = append(res.Verdict, alone(res, ci))
		}
		return
	}
	bs := res.Summaries[base]
	for ci := range res.Summaries {
		if ci == base {
			continue
		}
		s := &res.Summaries[ci]
		if s.Scored == 0 || bs.Scored == 0 {
			res.Verdict = append(res.Verdict, unscored(res, ci, base))
			continue
		}
		c := Comparison{Baseline: bs.Candidate}
		var sum, bsum float64
		for _, t := range res.Turns {
			r, b := t.Replies[ci], t.Replies[base]
			if !r.Scored() || !b.Scored() {
				continue
			}
			c.Turns++
			sum += r.Similarity
			bsum += b.Similarity
			switch d := r.Similarity - b.Similarity; {
			case d >= levelWithin:
				c.Ahead++
			case d <= -levelWithin:
				c.Behind++
			default:
				c.Level++
			}
		}
		if c.Turns == 0 {
			res.Verdict = append(res.Verdict, fmt.Sprintf("%s and %s were never scored on the same turn: no comparison.", s.Candidate, bs.Candidate))
			continue
		}
		c.Mean, c.BaselineMean = sum/float64(c.Turns), bsum/float64(c.Turns)
		c.Delta = c.Mean - c.BaselineMean
		s.VsBaseline = &c
		res.Verdict = append(res.Verdict, verdict(*s, c, len(res.Turns)))
	}
}

// verdict says whether s is better than the baseline and by how much.
func verdict(s Summary, c Comparison, turns int) string {
	var v string
	switch {
	case math.Abs(c.Delta) < levelWithin:
		v = fmt.Sprintf("%s is level with %s: mean similarity %.3f against %.3f", s.Candidate, c.Baseline, c.Mean, c.BaselineMean)
	default:
		word := "better"
		if c.Delta < 0 {
			word = "worse"
		}
		v = fmt.Sprintf("%s is %s than %s by %.3f mean similarity (%.3f against %.3f%s)",
			s.Candidate, word, c.Baseline, math.Abs(c.Delta), c.Mean, c.BaselineMean, relative(c))
	}
	v += fmt.Sprintf(", ahead on %d of %d turns", c.Ahead, c.Turns)
	if c.Behind > 0 || c.Level > 0 {
		v += fmt.Sprintf(", behind on %d", c.Behind)
	}
	if c.Level > 0 {
		v += fmt.Sprintf(", level on %d", c.Level)
	}
	if s.Failed > 0 {
		v += fmt.Sprintf("; %s failed %d of %d turns", s.Candidate, s.Failed, turns)
	}
	if c.Turns < turns {
		v += fmt.Sprintf("; compared on the %d turns both answered", c.Turns)
	}
	return v + "."
}

// relative is the difference as a percentage of the baseline's mean, when
// that means something (a positive baseline).
func relative(c Comparison) string {
	if c.BaselineMean <= 0.001 {
		return ""
	}
	return fmt.Sprintf(", %+.0f%%", c.Delta/c.BaselineMean*100)
}

// unscored says why candidate ci could not be compared with the baseline.
func unscored(res *Result, ci, base int) string {
	s, b := res.Summaries[ci], res.Summaries[base]
	switch {
	case s.Scored == 0:
		return fmt.Sprintf("%s failed every turn (%d of %d): %s.", s.Candidate, s.Failed, len(res.Turns), firstError(res, ci))
	default:
		return fmt.Sprintf("The baseline %s failed every turn (%s): %s is not compared.", b.Candidate, firstError(res, base), s.Candidate)
	}
}

// alone sums up candidate ci, with no baseline to compare with.
func alone(res *Result, ci int) string {
	s, turns := res.Summaries[ci], len(res.Turns)
	if s.Scored == 0 {
		return fmt.Sprintf("%s failed every turn (%d of %d): %s.", s.Candidate, s.Failed, turns, firstError(res, ci))
	}
	v := fmt.Sprintf("%s: mean similarity %.3f over %d turns, no baseline to compare with", s.Candidate, s.Mean, s.Scored)
	if s.Failed > 0 {
		v += fmt.Sprintf("; it failed %d of %d turns", s.Failed, turns)
	}
	return v + "."
}

// firstError is the first failure of candidate ci, to say why it failed.
func firstError(res *Result, ci int) string {
	for _, t := range res.Turns {
		if r := t.Replies[ci]; !r.Scored() {
			return r.Error
		}
	}
	return ""
}
