package offline

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/duetbot/duet/shared/brain"
)

// TestContextCache: the cache keeps the contexts of the chats in progress,
// least recently used out first, within its bounds.
func TestContextCache(t *testing.T) {
	var c contextCache
	ctx := func(i int) string { return fmt.Sprintf("i like number %d.\nmy favorite color is blue.", i) }
	first := c.get(ctx(0))
	for i := 1; i < contextCacheSize; i++ {
		c.get(ctx(i))
	}
	if got := c.len(); got != contextCacheSize {
		t.Fatalf("cache holds %d contexts, want %d", got, contextCacheSize)
	}
	if c.get(ctx(0)) != first {
		t.Errorf("context 0 was analysed again while the cache had room")
	}
	// Context 0 is now the most recently used: a new context evicts
	// context 1, the least recently used, and not context 0.
	c.get(ctx(contextCacheSize))
	if got := c.len(); got != contextCacheSize {
		t.Errorf("cache holds %d contexts, want at most %d", got, contextCacheSize)
	}
	if c.get(ctx(0)) != first {
		t.Errorf("the most recently used context was evicted")
	}
	if _, ok := c.index[ctx(1)]; ok {
		t.Errorf("the least recently used context is still cached")
	}
}

// TestContextCacheMemory: long contexts are bounded by their estimated
// memory.
func TestContextCacheMemory(t *testing.T) {
	var c contextCache
	long := make([]byte, 8192)
	for i := range long {
		long[i] = 'a' + byte(i%26)
	}
	per := contextCost(string(long)) + 32*8
	for i := range 2 * contextCacheMemory / per {
		c.get(fmt.Sprintf("%d %s", i, long))
	}
	if c.cost > contextCacheMemory {
		t.Errorf("cache holds contexts of cost %d, want at most %d", c.cost, contextCacheMemory)
	}
	if c.len() < contextCacheMemory/per-1 {
		t.Errorf("cache holds %d contexts, want it full (%d)", c.len(), contextCacheMemory/per)
	}
}

// TestReplyConcurrent: chats of many contexts served at once get the replies
// they get one at a time.
func TestReplyConcurrent(t *testing.T) {
	var reqs []brain.Request
	for i := range 200 {
		ctx := fmt.Sprintf("i have %d dogs.\ni like to ride horses.\nmy favorite color is blue.", i)
		if i%2 == 1 {
			ctx = fmt.Sprintf("Chapter %d: you find a wasp crawling on your wrist while watching TV.", i)
		}
		reqs = append(reqs, chat(t, ctx, "do you have pets?", "ok", "what do you do?"))
	}
	want := make([]string, len(reqs))
	for i, r := range reqs {
		want[i] = reply(t, r)
	}
	b := New()
	var wg sync.WaitGroup
	got := make([]string, len(reqs))
	for w := range 4 {
		wg.Go(func() {
			for i := w; i < len(reqs); i += 4 {
				got[i], _ = b.Reply(context.Background(), reqs[i])
			}
		})
	}
	wg.Wait()
	for i := range reqs {
		if got[i] != want[i] {
			t.Errorf("chat %d: concurrent reply %q, alone %q", i, got[i], want[i])
		}
	}
}
