package clariq

import (
	"math"
	"strings"
)

// Features of a request for the clarification-need classifier.
const (
	nTerms     = iota // content terms, log
	nWords            // all words, log
	nWh               // opens with a wh-word or how/is/can/does: a question
	nTellAbout        // "tell me about", "information about", "I'm interested in" …
	nQMark            // ends with a question mark
	nIDF              // mean idf of the request's terms, over the bank's largest
	nMaxBM25          // the best question's BM25, log
	nFullMatch        // questions with every request term, log
	nUnknown          // share of request terms the bank never uses
	nSingle           // exactly one content term
	nRarestDF         // questions holding the request's rarest term, log
	nMatching         // questions holding any request term, log
	nNamed            // request terms in at most five questions (names, specifics)
	numNeedFeatures
)

var needFeatureNames = [numNeedFeatures]string{"terms", "words", "wh", "tell_about", "qmark", "idf", "max_bm25", "full_match", "unknown", "single", "rarest_df", "matching", "named"}

// NeedParams are the clarification-need classifier's learned weights: a
// softmax over the four levels, each with a bias and weights by feature name.
//
// With Cuts set it is instead an ordinal model: Weights[0] and Bias[0]
// give a score, and the level is 1 plus the number of cuts below it.
type NeedParams struct {
	Weights [4]map[string]float64
	Bias    [4]float64
	Cuts    []float64 `json:",omitempty"`
}

var whWords = map[string]bool{"what": true, "who": true, "when": true, "where": true, "which": true, "why": true,
	"how": true, "is": true, "are": true, "can": true, "does": true, "do": true, "should": true, "was": true}

var vague = []string{"tell me about", "tell me more", "information about", "information on", "info on", "info about",
	"interested in", "want to know about", "learn about", "to know more about", "looking for information"}

func (r *Ranker) needFeatures(text string, buf *rankBuf) [numNeedFeatures]float64 {
	var f [numNeedFeatures]float64
	ws := words(text)
	ts := terms(text)
	f[nTerms] = math.Log1p(float64(len(ts)))
	f[nWords] = math.Log1p(float64(len(ws)))
	if len(ws) > 0 && whWords[ws[0]] {
		f[nWh] = 1
	}
	low := strings.ToLower(strings.Join(ws, " "))
	for _, v := range vague {
		if strings.Contains(low, v) {
			f[nTellAbout] = 1
			break
		}
	}
	if strings.HasSuffix(strings.TrimSpace(text), "?") {
		f[nQMark] = 1
	}
	if len(ts) == 1 {
		f[nSingle] = 1
	}
	q := r.ix.query(ts)
	var idf float64
	for _, qt := range q {
		idf += r.ix.idf[qt.id]
	}
	if len(q) > 0 {
		f[nIDF] = idf / float64(len(q)) / r.ix.maxIDF()
	}
	rarest := 0
	for i, qt := range q {
		if i == 0 || len(r.ix.post[qt.id]) < rarest {
			rarest = len(r.ix.post[qt.id])
		}
		if len(r.ix.post[qt.id]) <= 5 {
			f[nNamed]++
		}
	}
	f[nRarestDF] = math.Log1p(float64(rarest))
	if len(ts) > 0 {
		f[nUnknown] = 1 - float64(len(q))/float64(len(uniq(ts)))
	}
	r.ix.features(&r.model.Rank, ts, buf.s, buf.feat)
	var best float64
	full, matching := 0, 0
	for d := range r.ix.Len() {
		best = max(best, buf.s.bm[d])
		if buf.s.bm[d] > 0 {
			matching++
		}
		if buf.feat[d*numFeatures+fAllTerms] == 1 {
			full++
		}
	}
	f[nMaxBM25] = math.Log1p(best)
	f[nFullMatch] = math.Log1p(float64(full))
	f[nMatching] = math.Log1p(float64(matching))
	return f
}

func uniq(ss []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// probs returns the softmax probabilities of the four levels.
func (p *NeedParams) probs(f [numNeedFeatures]float64) [4]float64 {
	var z [4]float64
	m := math.Inf(-1)
	for c := range 4 {
		z[c] = p.Bias[c]
		for i, name := range needFeatureNames {
			z[c] += p.Weights[c][name] * f[i]
		}
		m = max(m, z[c])
	}
	var sum float64
	for c := range z {
		z[c] = math.Exp(z[c] - m)
		sum += z[c]
	}
	for c := range z {
		z[c] /= sum
	}
	return z
}

// predict returns the most probable level, 1..4.
func (p *NeedParams) predict(f [numNeedFeatures]float64) int {
	if len(p.Cuts) > 0 {
		z := p.Bias[0]
		for i, name := range needFeatureNames {
			z += p.Weights[0][name] * f[i]
		}
		level := 1
		for _, c := range p.Cuts {
			if z > c {
				level++
			}
		}
		return min(level, 4)
	}
	pr := p.probs(f)
	best := 0
	for c := 1; c < 4; c++ {
		if pr[c] > pr[best] {
			best = c
		}
	}
	return best + 1
}
