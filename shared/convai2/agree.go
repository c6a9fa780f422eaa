package convai2

import (
	"math"
	"math/rand/v2"
	"sort"
	"strings"
)

// Spearman is the rank correlation of x and y (ties get their average
// rank), NaN when there are fewer than two pairs or either side is
// constant.
func Spearman(x, y []float64) float64 {
	if len(x) != len(y) || len(x) < 2 {
		return math.NaN()
	}
	return pearson(ranks(x), ranks(y))
}

// AUC is the ROC AUC of scores against binary labels (true: positive):
// the chance that a random positive scores above a random negative, ties
// counting half. NaN without both classes.
func AUC(scores []float64, positive []bool) float64 {
	if len(scores) != len(positive) {
		return math.NaN()
	}
	r := ranks(scores)
	var pos, neg, sum float64
	for i, p := range positive {
		if p {
			pos++
			sum += r[i]
		} else {
			neg++
		}
	}
	if pos == 0 || neg == 0 {
		return math.NaN()
	}
	return (sum - pos*(pos+1)/2) / (pos * neg)
}

// ranks are 1-based ranks of v, ties averaged.
func ranks(v []float64) []float64 {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return v[idx[a]] < v[idx[b]] })
	r := make([]float64, len(v))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && v[idx[j+1]] == v[idx[i]] {
			j++
		}
		avg := float64(i+j)/2 + 1
		for k := i; k <= j; k++ {
			r[idx[k]] = avg
		}
		i = j + 1
	}
	return r
}

func pearson(x, y []float64) float64 {
	n := float64(len(x))
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx /= n
	my /= n
	var sxy, sxx, syy float64
	for i := range x {
		dx, dy := x[i]-mx, y[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return math.NaN()
	}
	return sxy / math.Sqrt(sxx*syy)
}

// Rated is what an evaluator said of one dialogue replayed through the
// engine: `duet rate -json` prints one per line.
type Rated struct {
	Index   int            `json:"index"`
	Ratings []RatedMessage `json:"ratings"`
	Final   RatedFinal     `json:"final"`
}

// RatedMessage is the rating of one message of the partner's seat.
type RatedMessage struct {
	ID         int64 `json:"id"`
	Evaluation int   `json:"evaluation"`
}

// RatedFinal is the final evaluation of a dialogue, for the router's
// "/end 1 5" with the dialogue's profile options.
type RatedFinal struct {
	Score      int  `json:"score"`
	Profile    *int `json:"profile_idx,omitempty"`
	Quality    int  `json:"quality"`
	Breadth    int  `json:"breadth"`
	Engagement int  `json:"engagement"`
}

// Agreement is how an evaluator's judgments agree with the humans' labels.
type Agreement struct {
	Dialogues, Scored, Messages, Labelled, Guessed, Spoke int
	Spearman, AUC                                         float64
	ProfileAcc, ProfileAccSpoke                           float64
	HumanProfileAcc                                       float64
	HumanGuesses                                          int
	// ProfileCeiling is the best profile accuracy a guess can expect:
	// right wherever the partner spoke, chance (one in the number of
	// options) where it never did.
	ProfileCeiling float64
	// OracleAUC is the message AUC of the dialogue's own human score
	// (eval_score) used as every message's rating, over the labelled
	// messages of scored dialogues: how far the humans' per-message
	// thumbs follow their view of the whole dialogue.
	OracleAUC      float64
	OracleMessages int
}

// Agree measures results (results[i] of ds[i], the evaluator in seat's
// place) against the labels of ds. A measure the labels do not allow is NaN.
func Agree(ds []Dialogue, results []Rated, seat string) Agreement {
	a := Agreement{Dialogues: len(ds), ProfileAcc: math.NaN(), ProfileAccSpoke: math.NaN(), HumanProfileAcc: math.NaN(), ProfileCeiling: math.NaN()}
	var sx, sy, mx, ox []float64
	var my, oy []bool
	ceiling := 0.0
	right, rightSpoke, humanRight := 0, 0, 0
	for i, d := range ds {
		res := results[i]
		a.Messages += len(res.Ratings)
		if d.Score > 0 {
			a.Scored++
			sx = append(sx, float64(res.Final.Score))
			sy = append(sy, float64(d.Score))
		}
		byID := map[int64]int{}
		for _, m := range res.Ratings {
			byID[m.ID] = m.Evaluation
		}
		for _, m := range d.Messages {
			if m.Sender != seat && m.Evaluation >= 0 {
				if ev, ok := byID[m.ID]; ok {
					a.Labelled++
					mx = append(mx, float64(ev))
					my = append(my, m.Evaluation == 1)
					if d.Score > 0 {
						ox = append(ox, float64(d.Score))
						oy = append(oy, m.Evaluation == 1)
					}
				}
			}
		}
		if res.Final.Profile != nil && len(d.Options) > 0 {
			truth := d.PartnerProfile(seat)
			ok := SameProfile(d.Options[*res.Final.Profile], truth)
			a.Guessed++
			if ok {
				right++
			}
			if len(res.Ratings) > 0 {
				a.Spoke++
				ceiling++
				if ok {
					rightSpoke++
				}
			} else {
				ceiling += 1 / float64(len(d.Options))
			}
		}
		if d.ProfileMatch >= 0 {
			a.HumanGuesses++
			humanRight += d.ProfileMatch
		}
	}
	a.Spearman = Spearman(sx, sy)
	a.AUC = AUC(mx, my)
	a.OracleAUC, a.OracleMessages = AUC(ox, oy), len(ox)
	if a.Guessed > 0 {
		a.ProfileAcc = float64(right) / float64(a.Guessed)
		a.ProfileCeiling = ceiling / float64(a.Guessed)
	}
	if a.Spoke > 0 {
		a.ProfileAccSpoke = float64(rightSpoke) / float64(a.Spoke)
	}
	if a.HumanGuesses > 0 {
		a.HumanProfileAcc = float64(humanRight) / float64(a.HumanGuesses)
	}
	return a
}

// AddDecoys gives every dialogue without options its partner's true
// profile (the partner of seat) and n others' (from other dialogues,
// different from it), in a random order from seed: the dev protocol.
func AddDecoys(ds []Dialogue, seat string, n int, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 0x6475657420726174))
	for i := range ds {
		if ds[i].Options != nil || len(ds) < 2 {
			continue
		}
		truth := ds[i].PartnerProfile(seat)
		opts := [][]string{truth}
		for tries := 0; len(opts) < n+1 && tries < 100*n; tries++ {
			j := rng.IntN(len(ds))
			p := ds[j].PartnerProfile(seat)
			if j == i || len(p) == 0 || SameProfile(p, truth) {
				continue
			}
			opts = append(opts, p)
		}
		rng.Shuffle(len(opts), func(a, b int) { opts[a], opts[b] = opts[b], opts[a] })
		ds[i].Options = opts
	}
}

// SameProfile reports whether two profiles have the same sentences, white
// space around them aside.
func SameProfile(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if strings.TrimSpace(a[i]) != strings.TrimSpace(b[i]) {
			return false
		}
	}
	return true
}
