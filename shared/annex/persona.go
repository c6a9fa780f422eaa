package annex

import (
	"cmp"
	"context"
	"fmt"
	"slices"
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
// pairs closest to a new message, and the manner of their latest messages.
// Everything a request reads is worked out once, in NewPersona, so that a
// request's work does not grow with the persona: with lexical vectors the
// prompts are indexed (see index), and the person's latest MaxSamples
// messages are analysed for compose. It is read-only after NewPersona and
// safe for concurrent use.
type Persona struct {
	data PersonaData
	emb  embed.Embedder
	// lex is set when emb is an embed.Lexical: prompts are then searched
	// through index; otherwise vecs are compared with each message.
	lex   *embed.Lexical
	index *index
	vecs  [][]float32 // vectors of data.Pairs' prompts (nil for prompt-less pairs)
	// samples are the person's answers, each once (its latest), oldest
	// first; voice is the analysis of the latest MaxSamples of them.
	samples []string
	voice   *voice
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
	if lex, ok := emb.(embed.Lexical); ok {
		p.lex = &lex
		var prompts []string
		var at []int32
		for i, pr := range d.Pairs {
			if strings.TrimSpace(pr.Prompt) != "" {
				prompts = append(prompts, pr.Prompt)
				at = append(at, int32(i))
			}
		}
		p.index = newIndex(lex, prompts, at)
	} else {
		vecs, err := p.vectors(ctx, d.Pairs)
		if err != nil {
			return nil, fmt.Errorf("persona %s: %w", d.Name, err)
		}
		p.vecs = vecs
	}
	p.samples = dedupe(answers(d.Pairs))
	p.voice = newVoice(p.samples[max(0, len(p.samples)-MaxSamples):])
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
	b, _, err := p.brief(ctx, message, extra)
	return b, err
}

// brief is Brief, with the analysis of the brief's samples for compose.
func (p *Persona) brief(ctx context.Context, message string, extra []Pair) (*brain.Persona, *voice, error) {
	var found []scored
	if p.lex != nil {
		qf := p.lex.Features(message)
		qv := p.lex.SparseOf(qf)
		found = p.index.search(qf, qv, make([]scored, 0, searchCandidates+len(extra)))
		qn2 := qv.Norm2()
		for i, pr := range extra {
			if strings.TrimSpace(pr.Prompt) != "" {
				v := p.lex.Sparse(pr.Prompt)
				found = append(found, scored{len(p.data.Pairs) + i, embed.CosineOf(embed.Dot(qv, v), qn2, v.Norm2())})
			}
		}
	} else {
		extraVecs, err := p.vectors(ctx, extra)
		if err != nil {
			return nil, nil, err
		}
		mv, err := p.emb.Embed(ctx, []string{message})
		if err != nil {
			return nil, nil, fmt.Errorf("embed message: %w", err)
		}
		for i, v := range p.vecs {
			if v != nil {
				found = append(found, scored{i, embed.Cosine(mv[0], v)})
			}
		}
		for i, v := range extraVecs {
			if v != nil {
				found = append(found, scored{len(p.vecs) + i, embed.Cosine(mv[0], v)})
			}
		}
	}
	// Ties go to the earlier pair: the order in which the pairs were
	// learned, the request's own last.
	slices.SortFunc(found, func(a, b scored) int {
		if c := cmp.Compare(b.sim, a.sim); c != 0 {
			return c
		}
		return cmp.Compare(a.pair, b.pair)
	})
	examples := make([]brain.Example, 0, min(len(found), MaxExamples))
	for _, f := range found[:min(len(found), MaxExamples)] {
		pr := p.pair(f.pair, extra)
		examples = append(examples, brain.Example{Prompt: pr.Prompt, Answer: pr.Answer, Similarity: f.sim})
	}
	v := p.voice.with(p.samples, answers(extra))
	return &brain.Persona{Name: p.data.Name, Examples: examples, Samples: v.samples}, v, nil
}

// pair returns pair i of the persona's pairs followed by extra.
func (p *Persona) pair(i int, extra []Pair) Pair {
	if i < len(p.data.Pairs) {
		return p.data.Pairs[i]
	}
	return extra[i-len(p.data.Pairs)]
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
	last := make(map[string]int, len(texts))
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
