package offline

import "sync"

// contextCacheSize is how many recent contexts a Brain keeps analysed. A
// chat's context is analysed for every Rate and Reply; contexts run up to
// 8 KB, and re-analysing one costs far more than the rest of a message.
const contextCacheSize = 16

// analysedContext is a ConvAI context, analysed once. It is never modified
// after it is made, so it is shared freely.
type analysedContext struct {
	raw  string
	text *text
	pool []term // the topics that fill reply slots, best first
}

func newAnalysedContext(s string) *analysedContext {
	t := analyze(s)
	return &analysedContext{raw: s, text: t, pool: withPhrases(slotPool(rankTerms(t, fromContext), poolSize))}
}

// contextCache keeps the most recently used contexts. Its zero value is
// ready to use.
type contextCache struct {
	mu      sync.Mutex
	entries [contextCacheSize]*analysedContext
	next    int // the slot to overwrite next
}

// get returns s analysed, from the cache when it is there.
func (c *contextCache) get(s string) *analysedContext {
	c.mu.Lock()
	for _, e := range c.entries {
		if e != nil && e.raw == s {
			c.mu.Unlock()
			return e
		}
	}
	c.mu.Unlock()
	e := newAnalysedContext(s) // outside the lock: concurrent chats do not wait
	c.mu.Lock()
	c.entries[c.next] = e
	c.next = (c.next + 1) % contextCacheSize
	c.mu.Unlock()
	return e
}

// textCacheSize bounds the messages a Brain keeps analysed. Rate looks at
// every earlier partner message of a chat (for novelty) and Reply at the
// last one, so without the cache each message would be analysed once per
// later turn.
const textCacheSize = 8192

// textCache keeps analysed messages by their text. An analysed text is
// never modified, so entries are shared freely. When full, it forgets
// about half of its entries (map order is random), which keeps it simple
// and bounded. Its zero value is ready to use.
type textCache struct {
	mu      sync.Mutex
	entries map[string]*text
}

// get returns s analysed, from the cache when it is there.
func (c *textCache) get(s string) *text {
	c.mu.Lock()
	t, ok := c.entries[s]
	c.mu.Unlock()
	if ok {
		return t
	}
	t = analyze(s)
	c.mu.Lock()
	if c.entries == nil {
		c.entries = make(map[string]*text, textCacheSize)
	}
	if len(c.entries) >= textCacheSize {
		n := 0
		for k := range c.entries {
			if n++; n > textCacheSize/2 {
				break
			}
			delete(c.entries, k)
		}
	}
	c.entries[s] = t
	c.mu.Unlock()
	return t
}
