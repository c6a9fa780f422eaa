package embed

import (
	"context"
	"fmt"
	"sync"
)

// DefaultBatch is how many texts Cache sends to its back end in one call
// when no batch size is given.
const DefaultBatch = 64

// Cache embeds each distinct text once: it remembers vectors by text and
// asks its back end only for the texts it has not seen, in batches. It is
// safe for concurrent use.
type Cache struct {
	next  Embedder
	batch int

	mu   sync.Mutex
	vecs map[string][]float32
}

var _ Embedder = (*Cache)(nil)

// NewCache returns a Cache in front of next that sends at most batch texts
// per call (batch < 1 means DefaultBatch; 1 for APIs that embed one text
// per request).
func NewCache(next Embedder, batch int) *Cache {
	if batch < 1 {
		batch = DefaultBatch
	}
	return &Cache{next: next, batch: batch, vecs: map[string][]float32{}}
}

// Embed returns the vectors of texts, from the cache where it can.
func (c *Cache) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	c.mu.Lock()
	var missing []string
	seen := map[string]bool{}
	for _, t := range texts {
		if _, ok := c.vecs[t]; !ok && !seen[t] {
			seen[t] = true
			missing = append(missing, t)
		}
	}
	c.mu.Unlock()

	for start := 0; start < len(missing); start += c.batch {
		part := missing[start:min(start+c.batch, len(missing))]
		vecs, err := c.next.Embed(ctx, part)
		if err != nil {
			return nil, err
		}
		if len(vecs) != len(part) {
			return nil, fmt.Errorf("embed: got %d vectors for %d texts", len(vecs), len(part))
		}
		c.mu.Lock()
		for i, t := range part {
			c.vecs[t] = vecs[i]
		}
		c.mu.Unlock()
	}

	out := make([][]float32, len(texts))
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, t := range texts {
		out[i] = c.vecs[t]
	}
	return out, nil
}
