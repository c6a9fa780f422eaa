package offline

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/duetbot/duet/shared/brain"
)

// The learned part of the evaluator. A partner message is described by
// dense features (built on Signals) and by hashed words and word pairs
// (judge_features.go); a logistic model of those gives the chance a human
// finds the message good, and cut points turn its logit into the 1..10
// rating. The whole chat is described by dialogueFeatures; a linear model
// of those gives the 1..5 score. FitJudge learns both from labelled requests
// (`duet rate fit` reads them from the ConvAI2 releases); judge_model.json
// is the committed result.

// JudgeModel is the evaluator's learned parameters.
type JudgeModel struct {
	// MessageFeatures and DialogueFeatures name the weights, so that a
	// model fitted for other features is refused at load.
	MessageFeatures  []string `json:"message_features"`
	DialogueFeatures []string `json:"dialogue_features"`
	// Message weighs the dense features, Hashed the hashed words
	// (1<<hashBits), of a partner message.
	Message []float64 `json:"message"`
	Hashed  []float64 `json:"hashed"`
	// RatingCuts are the 9 increasing logits at which a rating becomes
	// 2, 3, …, 10.
	RatingCuts []float64 `json:"rating_cuts"`
	// Dialogue weighs the dialogue features; ScoreCuts are the 4 values at
	// which the whole-chat score becomes 2..5.
	Dialogue  []float64 `json:"dialogue"`
	ScoreCuts []float64 `json:"score_cuts"`
	// Profile is the learned lexicon of the profile guess (nil: exact
	// matches only, weighted within the candidates).
	Profile *ProfileLexicon `json:"profile,omitempty"`
	// Trained says what the model was fitted on, for people.
	Trained string `json:"trained,omitempty"`
}

//go:embed judge_model.json
var judgeModelJSON []byte

// defaultJudge returns the committed model, parsed on first use rather than
// at package initialisation: parsing takes 1-5 ms of every Lambda cold
// start, the annex bot, which links this package, never rates, and a
// binary whose model is stale (mid-refit) still starts and can run
// `duet rate fit`. TestCommittedJudge keeps the committed one valid.
var defaultJudge = sync.OnceValue(func() *JudgeModel {
	m, err := ParseJudgeModel(judgeModelJSON)
	if err != nil {
		panic("offline: judge_model.json: " + err.Error())
	}
	return m
})

// NeutralJudge is a model of this build's shape that rates every message
// alike: for replays whose ratings nobody reads, such as collecting the
// dialogues a fit learns from (FitJudge rates them anew), which must work
// while the committed model is stale.
func NeutralJudge() *JudgeModel {
	return &JudgeModel{
		MessageFeatures:  slices.Clone(messageFeatures),
		DialogueFeatures: slices.Clone(dialogueFeatures),
		Message:          make([]float64, len(messageFeatures)),
		Hashed:           make([]float64, 1<<hashBits),
		RatingCuts:       []float64{-4, -3, -2, -1, 0, 1, 2, 3, 4},
		Dialogue:         make([]float64, len(dialogueFeatures)),
		ScoreCuts:        []float64{-1.5, -0.5, 0.5, 1.5},
	}
}

// ParseJudgeModel reads a model written by JudgeModel's JSON encoding and
// checks that it fits this code's features.
func ParseJudgeModel(b []byte) (*JudgeModel, error) {
	var m JudgeModel
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	switch {
	case !slices.Equal(m.MessageFeatures, messageFeatures) || len(m.Message) != len(messageFeatures):
		return nil, fmt.Errorf("message features differ from this build's (refit with `duet rate fit`)")
	case !slices.Equal(m.DialogueFeatures, dialogueFeatures) || len(m.Dialogue) != len(dialogueFeatures):
		return nil, fmt.Errorf("dialogue features differ from this build's (refit with `duet rate fit`)")
	case len(m.Hashed) != 1<<hashBits:
		return nil, fmt.Errorf("hashed weights: %d, want %d", len(m.Hashed), 1<<hashBits)
	case len(m.RatingCuts) != 9 || !slices.IsSorted(m.RatingCuts):
		return nil, fmt.Errorf("rating_cuts: want 9 increasing values")
	case len(m.ScoreCuts) != 4 || !slices.IsSorted(m.ScoreCuts):
		return nil, fmt.Errorf("score_cuts: want 4 increasing values")
	}
	return &m, nil
}

// WithJudge returns a Brain that rates with m instead of the committed
// model.
func WithJudge(m *JudgeModel) *Brain { return &Brain{judge: m} }

func (b *Brain) model() *JudgeModel {
	if b.judge != nil {
		return b.judge
	}
	return defaultJudge()
}

// logit is the model's log-odds that the message of v is good.
func (m *JudgeModel) logit(v *msgVector) float64 {
	z := 0.0
	for k, w := range m.Message {
		z += w * v.dense[k]
	}
	if v.hashes != nil {
		h := 0.0
		for _, k := range v.hashes {
			h += m.Hashed[k]
		}
		return z + h/math.Sqrt(float64(len(v.hashes)))
	}
	h, n := 0.0, 0
	for k, t := range v.texts {
		if t == nil {
			continue
		}
		sum := 0.0 // each text summed apart, as the committed ratings were
		hashWords(t, hashSpaces[k], func(i uint32) { sum += m.Hashed[i]; n++ })
		h += sum
	}
	if n > 0 {
		z += h / math.Sqrt(float64(n))
	}
	return z
}

// rating turns a logit into 1..10 by the cut points.
func (m *JudgeModel) rating(z float64) int {
	n := 1
	for _, c := range m.RatingCuts {
		if z >= c {
			n++
		}
	}
	return n
}

// judged is what the model says of a whole request.
type judged struct {
	logits []float64
	vs     []msgVector
	value  float64 // the dialogue model's value, before the score cuts
}

func (b *Brain) judgeAll(d *dialogue) judged {
	m := b.model()
	var j judged
	for i, t := range d.turns {
		if t.Role != brain.Partner {
			continue
		}
		v := d.vector(i)
		j.vs = append(j.vs, v)
		j.logits = append(j.logits, m.logit(&v))
	}
	f := d.dialogueVector(j.logits, j.vs)
	for k, w := range m.Dialogue {
		j.value += w * f[k]
	}
	return j
}

// score turns a dialogue value into 1..5.
func (m *JudgeModel) score(v float64) int {
	n := 1
	for _, c := range m.ScoreCuts {
		if v >= c {
			n++
		}
	}
	return n
}
