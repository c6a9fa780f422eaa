package clariq

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sync"
)

// Model is everything the ranker and the need classifier learned: what
// `duet clariq fit` writes and model.json holds.
type Model struct {
	// Note says how the model was made: the command, the data, the dev figures.
	Note string     `json:"note"`
	Rank Params     `json:"rank"`
	Need NeedParams `json:"need"`
}

//go:embed model.json
var modelJSON []byte

var defaultModel = sync.OnceValues(func() (*Model, error) { return ParseModel(modelJSON) })

// DefaultModel returns the embedded model, fitted from the ClariQ training
// topics. It panics if the embedded file is corrupt, which tests catch.
func DefaultModel() *Model {
	m, err := defaultModel()
	if err != nil {
		panic(err)
	}
	return m
}

// ParseModel decodes a model written by Fit.
func ParseModel(b []byte) (*Model, error) {
	var m Model
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("clariq model: %w", err)
	}
	if m.Rank.K1 <= 0 || m.Rank.B < 0 || m.Rank.B > 1 {
		return nil, fmt.Errorf("clariq model: BM25 k1=%v b=%v out of range", m.Rank.K1, m.Rank.B)
	}
	return &m, nil
}

// MarshalIndent encodes the model as model.json holds it: indented, with
// sorted keys, so a refit shows as a readable diff.
func (m *Model) MarshalIndent() ([]byte, error) {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode clariq model: %w", err)
	}
	return append(b, '\n'), nil
}
