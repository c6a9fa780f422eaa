package annex

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/embed"
)

// Retrieval limits.
const (
	// MaxExamples is how many similar pairs a brain.Persona carries.
	MaxExamples = 5
	// MaxSamples is how many of the person's messages a brain.Persona
	// carries for their manner (the most recent ones).
	MaxSamples = 200
)

// Persona is what the bot knows of the person it emulates: the pairs learned
// from their transcripts, with the vectors of the prompts, ready to find the
// pairs closest to a new message. It is read-only after NewPersona and safe
// for concurrent use.
type Persona struct {
	data  PersonaData
	emb   embed.Embedder
	vecs  [][]float32 // vectors of data.Pairs' prompts (nil for prompt-less pairs)
	texts []string    // the person's answers, oldest first
}

// NewPersona embeds the prompts of d's pairs with emb. A nil emb means
// offline lexical vectors weighted by the rarity of words in d's pairs.
func NewPersona(ctx context.Context, d PersonaData, emb embed.Embedder) (*Persona, error) {
	if emb == nil {
		var docs []string
		for _, p := range d.Pairs {
			docs = append(docs, p.Prompt, p.Answer)
		}
		emb = embed.FitLexical(docs)
	}
	p := &Persona{data: d, emb: emb}
	vecs, err := p.vectors(ctx, d.Pairs)
	if err != nil {
		return nil, fmt.Errorf("persona %s: %w", d.Name, err)
	}
	p.vecs = vecs
	for _, pr := range d.Pairs {
		p.texts = append(p.texts, pr.Answer)
	}
	return p, nil
}

// Data returns what the persona was built from.
func (p *Persona) Data() PersonaData { return p.data }

// Name returns the name of the person.
func (p *Persona) Name() string { return p.data.Name }

func (p *Persona) vectors(ctx context.Context, pairs []Pair) ([][]float32, error) {
	var prompts []string
	var at []int
	for i, pr := range pairs {
		if strings.TrimSpace(pr.Prompt) != "" {
			prompts = append(prompts, pr.Prompt)
			at = append(at, i)
		}
	}
	vecs := make([][]float32, len(pairs))
	if len(prompts) == 0 {
		return vecs, nil
	}
	got, err := p.emb.Embed(ctx, prompts)
	if err != nil {
		return nil, fmt.Errorf("embed prompts: %w", err)
	}
	for j, i := range at {
		vecs[i] = got[j]
	}
	return vecs, nil
}

// Brief returns the brain.Persona for answering message: the pairs (learned
// ones and extra, those the request itself taught) whose prompts are closest
// to it, best first, and the person's recent messages for their manner.
func (p *Persona) Brief(ctx context.Context, message string, extra []Pair) (*brain.Persona, error) {
	extraVecs, err := p.vectors(ctx, extra)
	if err != nil {
		return nil, err
	}
	mv, err := p.emb.Embed(ctx, []string{message})
	if err != nil {
		return nil, fmt.Errorf("embed message: %w", err)
	}
	pairs := append(append([]Pair(nil), p.data.Pairs...), extra...)
	vecs := append(append([][]float32(nil), p.vecs...), extraVecs...)

	var examples []brain.Example
	for i, pr := range pairs {
		if vecs[i] == nil {
			continue
		}
		examples = append(examples, brain.Example{Prompt: pr.Prompt, Answer: pr.Answer, Similarity: embed.Cosine(mv[0], vecs[i])})
	}
	// Later pairs win ties: the request's own history is the freshest.
	sort.SliceStable(examples, func(i, j int) bool { return examples[i].Similarity > examples[j].Similarity })
	if len(examples) > MaxExamples {
		examples = examples[:MaxExamples]
	}
	samples := dedupe(append(append([]string(nil), p.texts...), answers(extra)...))
	if len(samples) > MaxSamples {
		samples = samples[len(samples)-MaxSamples:]
	}
	return &brain.Persona{Name: p.data.Name, Examples: examples, Samples: samples}, nil
}

func answers(pairs []Pair) []string {
	out := make([]string, len(pairs))
	for i, p := range pairs {
		out[i] = p.Answer
	}
	return out
}

// dedupe drops repeated texts, keeping the last of each (the most recent).
func dedupe(texts []string) []string {
	last := map[string]int{}
	for i, t := range texts {
		last[t] = i
	}
	var out []string
	for i, t := range texts {
		if last[t] == i {
			out = append(out, t)
		}
	}
	return out
}
