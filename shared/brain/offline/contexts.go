package offline

import (
	"container/list"
	"sync"
)

// contextCacheSize bounds the contexts a Brain keeps analysed, and
// contextCacheMemory the memory they take, as contextCost estimates it. A
// chat's context (a ConvAI2 profile or a 2017 paragraph, up to 8 KB) is
// analysed when the chat starts and reused for every Rate and Reply of the
// chat, so the cache must hold the contexts of every chat in progress: a
// few thousand concurrent chats of typical contexts (a profile is about 150
// bytes and 13 KB analysed, a paragraph 500 bytes), or about 180 of the
// longest.
const (
	contextCacheSize   = 4096
	contextCacheMemory = 48 << 20
)

// contextCost estimates the memory an analysed context takes: about 32
// bytes of words, stems and topics per byte of text, and 8 KB of profile
// facts and paraphrases (newAnalysedContext allocates 300 KB for 8 KB of
// text, 21 KB for a profile).
func contextCost(s string) int { return 32*len(s) + 8<<10 }

// analysedContext is a ConvAI context, analysed once. It is never modified
// after it is made, so it is shared freely.
type analysedContext struct {
	raw     string
	text    *text
	pool    []term   // the topics that fill reply slots, best first
	hash    uint64   // FNV-1a of raw: the per-chat part of reply seeds
	profile *profile // the bot's persona when the context is a ConvAI2 profile
	voice   *voice   // the templates for this kind of context
}

func newAnalysedContext(s string) *analysedContext {
	t := analyze(s)
	return &analysedContext{
		raw:     s,
		text:    t,
		pool:    withPhrases(slotPool(rankTerms(t, fromContext), poolSize)),
		hash:    t.hash,
		profile: parseProfile(s),
		voice:   voiceOf(t),
	}
}

// contextCache keeps the most recently used contexts, least recently used
// out first. Its zero value is ready to use.
type contextCache struct {
	mu    sync.Mutex
	order list.List // of *analysedContext, most recently used first
	index map[string]*list.Element
	cost  int // the contexts' contextCost, summed
}

// get returns s analysed, from the cache when it is there.
func (c *contextCache) get(s string) *analysedContext {
	c.mu.Lock()
	if el, ok := c.index[s]; ok {
		c.order.MoveToFront(el)
		c.mu.Unlock()
		return el.Value.(*analysedContext)
	}
	c.mu.Unlock()
	e := newAnalysedContext(s) // outside the lock: concurrent chats do not wait
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.index[s]; ok { // analysed meanwhile by another chat
		c.order.MoveToFront(el)
		return el.Value.(*analysedContext)
	}
	if c.index == nil {
		c.index = make(map[string]*list.Element)
	}
	c.index[s] = c.order.PushFront(e)
	c.cost += contextCost(s)
	for c.order.Len() > contextCacheSize || (c.cost > contextCacheMemory && c.order.Len() > 1) {
		old := c.order.Remove(c.order.Back()).(*analysedContext)
		delete(c.index, old.raw)
		c.cost -= contextCost(old.raw)
	}
	return e
}

// len reports how many contexts the cache holds.
func (c *contextCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}

// readCacheSize bounds the messages of each kind a Brain keeps read.
const readCacheSize = 8192

// readCache keeps what a Brain has read of chat messages, by their text.
// Rate reads every earlier partner message of a chat (for novelty) and a
// profile chat's Reply every earlier message of both sides, so without it
// each message would be read again at every later turn of its chat: a
// reply's CPU, which Lambda bills and which bounds duet serve's
// requests/s, grows about tenfold (BenchmarkReplyDev without the heard and
// bot memos: 70-110 µs per message against 7-14). Its zero value is ready
// to use.
type readCache struct {
	texts  memo[*text]       // messages analysed
	heards memo[[]heard]     // what partner messages say about their writers
	bots   memo[*botMessage] // the bot's messages, read for the repeat checks
}

// text returns s analysed.
func (c *readCache) text(s string) *text { return c.texts.get(s, analyze) }

// heard returns what s, a partner message, says about its writer.
func (c *readCache) heard(s string) []heard {
	return c.heards.get(s, func(s string) []heard { return heardFrom(s, c.text(s)) })
}

// bot returns s, a message of the bot, read.
func (c *readCache) bot(s string) *botMessage {
	return c.bots.get(s, func(s string) *botMessage {
		m := &botMessage{norm: normalize(s)}
		for x := range sentencesOf(s) {
			m.sentences = append(m.sentences, x)
		}
		return m
	})
}

// botMessage is a message of the bot, read once for all later turns of
// its chat.
type botMessage struct {
	norm      string   // normalised, for the repeat checks
	sentences []string // for the facts stated and the questions asked
}

// memo keeps values computed from strings, which are never modified and
// so are shared freely. When full, it forgets about half of its entries
// (map order is random), which keeps it simple and bounded. Its zero value
// is ready to use.
type memo[T any] struct {
	mu      sync.Mutex
	entries map[string]T
}

// get returns make(s), from the memo when it is there.
func (c *memo[T]) get(s string, make func(string) T) T {
	c.mu.Lock()
	v, ok := c.entries[s]
	c.mu.Unlock()
	if ok {
		return v
	}
	v = make(s) // outside the lock: concurrent chats do not wait
	c.mu.Lock()
	if c.entries == nil {
		c.entries = map[string]T{}
	}
	if len(c.entries) >= readCacheSize {
		n := 0
		for k := range c.entries {
			if n++; n > readCacheSize/2 {
				break
			}
			delete(c.entries, k)
		}
	}
	c.entries[s] = v
	c.mu.Unlock()
	return v
}
