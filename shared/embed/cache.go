package embed

import (
	"context"
	"fmt"
	"sync"
)

// DefaultBatch is how many texts Cache sends to its back end in one call
// when no batch size is given.
const DefaultBatch = 64

// Cache embeds each distinct text once: it remembers vectors by text, asks
// its back end only for the texts it has not seen, in batches, and lets
// concurrent callers asking for the same text share one request rather than
// each paying for it. It is safe for concurrent use.
type Cache struct {
	next  Embedder
	batch int

	mu       sync.Mutex
	vecs     map[string][]float32
	inflight map[string]*flight
}

// flight is one text being embedded; done is closed when vec or err is set.
type flight struct {
	done chan struct{}
	vec  []float32
	err  error
}

var _ Embedder = (*Cache)(nil)

// NewCache returns a Cache in front of next that sends at most batch texts
// per call (batch < 1 means DefaultBatch; 1 for APIs that embed one text
// per request).
func NewCache(next Embedder, batch int) *Cache {
	if batch < 1 {
		batch = DefaultBatch
	}
	return &Cache{next: next, batch: batch, vecs: map[string][]float32{}, inflight: map[string]*flight{}}
}

// Embed returns the vectors of texts: from the cache, from a request
// another caller already has in flight, or from the back end.
func (c *Cache) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	var mine []string             // texts this call embeds, in first-seen order
	owned := map[string]*flight{} // their flights
	waits := map[string]*flight{} // texts in flight for another caller
	c.mu.Lock()
	for _, t := range texts {
		if _, ok := c.vecs[t]; ok || owned[t] != nil || waits[t] != nil {
			continue
		}
		if f := c.inflight[t]; f != nil {
			waits[t] = f
			continue
		}
		f := &flight{done: make(chan struct{})}
		c.inflight[t] = f
		owned[t] = f
		mine = append(mine, t)
	}
	c.mu.Unlock()

	err := c.fetch(ctx, mine, owned)
	if err != nil {
		return nil, err
	}
	for _, f := range waits {
		select {
		case <-f.done:
			if f.err != nil {
				return nil, f.err
			}
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, t := range texts {
		out[i] = c.vecs[t]
	}
	return out, nil
}

// fetch embeds texts in batches and settles their flights: each with its
// vector, or, once a batch fails, every one not yet settled with the error.
func (c *Cache) fetch(ctx context.Context, texts []string, flights map[string]*flight) error {
	settle := func(part []string, vecs [][]float32, err error) {
		c.mu.Lock()
		defer c.mu.Unlock()
		for i, t := range part {
			f := flights[t]
			if err != nil {
				f.err = err
			} else {
				f.vec = vecs[i]
				c.vecs[t] = vecs[i]
			}
			delete(c.inflight, t)
			close(f.done)
		}
	}
	for start := 0; start < len(texts); start += c.batch {
		part := texts[start:min(start+c.batch, len(texts))]
		vecs, err := c.next.Embed(ctx, part)
		if err == nil && len(vecs) != len(part) {
			err = fmt.Errorf("embed: got %d vectors for %d texts", len(vecs), len(part))
		}
		if err != nil {
			settle(texts[start:], nil, err)
			return err
		}
		settle(part, vecs, nil)
	}
	return nil
}
