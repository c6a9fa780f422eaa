package memstore

import (
	"container/list"
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/duetbot/duet/shared/annex"
	"github.com/duetbot/duet/shared/duet"
)

// Annex is an in-memory annex.Store: exchanges by conversation with the
// TTL, and imported personas. Expired exchanges are deleted, and past the
// byte cap (WithMaxBytes) the least recently written are evicted. It is
// safe for concurrent use.
type Annex struct {
	ttl      time.Duration
	now      func() time.Time
	maxBytes int64

	mu        sync.Mutex
	exchanges map[string]map[string]*exchangeEntry // conversation → key → exchange
	lru       *list.List                           // of *exchangeEntry, least recently written first
	bytes     int64                                // the sum of the entries' sizes
	evicted   evictions
	personas  map[string]annex.PersonaData // by annex.PersonaKey
}

type exchangeEntry struct {
	ex      annex.Exchange
	key     string
	expires time.Time
	size    int64
	elem    *list.Element
}

var _ annex.Store = (*Annex)(nil)

// NewAnnex returns an empty annex store; it takes the same options as New
// (WithTTL, WithClock, WithMaxBytes, WithLogger).
func NewAnnex(opts ...Option) *Annex {
	s := New(opts...)
	return &Annex{
		ttl: s.ttl, now: s.now, maxBytes: s.maxBytes,
		exchanges: map[string]map[string]*exchangeEntry{}, lru: list.New(),
		evicted:  evictions{log: s.log, what: "annex exchange"},
		personas: map[string]annex.PersonaData{},
	}
}

// SaveExchange records ex under its conversation until At + TTL, then
// deletes what expired and, past the cap, the least recently written.
func (a *Annex) SaveExchange(_ context.Context, ex annex.Exchange) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	conv := a.exchanges[ex.Conversation]
	if conv == nil {
		conv = map[string]*exchangeEntry{}
		a.exchanges[ex.Conversation] = conv
	}
	key := ex.Key()
	if old := conv[key]; old != nil {
		a.lru.Remove(old.elem)
		a.bytes -= old.size
	}
	e := &exchangeEntry{ex: ex, key: key, expires: ex.At.Add(a.ttl), size: exchangeSize(ex, key)}
	e.elem = a.lru.PushBack(e)
	conv[key] = e
	a.bytes += e.size
	now := a.now()
	// The list is in write order, so expired entries gather at its front.
	for f := a.lru.Front(); f != nil && f.Value.(*exchangeEntry) != e; f = a.lru.Front() {
		old := f.Value.(*exchangeEntry)
		switch {
		case !now.Before(old.expires):
			a.drop(old)
		case a.bytes > a.maxBytes:
			a.drop(old)
			a.evicted.add(now, "conversation", old.ex.Conversation, "at", old.ex.At, "bytes", a.bytes, "max_bytes", a.maxBytes)
		default:
			return nil
		}
	}
	return nil
}

// drop deletes e. Callers hold a.mu.
func (a *Annex) drop(e *exchangeEntry) {
	a.lru.Remove(e.elem)
	a.bytes -= e.size
	conv := a.exchanges[e.ex.Conversation]
	delete(conv, e.key)
	if len(conv) == 0 {
		delete(a.exchanges, e.ex.Conversation)
	}
}

// Exchanges returns the unexpired exchanges of a conversation in key
// order, deleting the expired ones.
func (a *Annex) Exchanges(_ context.Context, conversation string) ([]annex.Exchange, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	now := a.now()
	var keys []string
	for k, e := range a.exchanges[conversation] {
		if now.Before(e.expires) {
			keys = append(keys, k)
		} else {
			a.drop(e)
		}
	}
	sort.Strings(keys)
	out := make([]annex.Exchange, len(keys))
	for i, k := range keys {
		out[i] = a.exchanges[conversation][k].ex
	}
	return out, nil
}

// Count returns how many unexpired exchanges the store holds in all.
func (a *Annex) Count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	n, now := 0, a.now()
	for e := a.lru.Front(); e != nil; e = e.Next() {
		if now.Before(e.Value.(*exchangeEntry).expires) {
			n++
		}
	}
	return n
}

// Bytes returns the estimated bytes the exchanges take, which the cap bounds.
func (a *Annex) Bytes() int64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.bytes
}

// LoadPersona returns a copy of the persona stored under name, matched by
// annex.PersonaKey.
func (a *Annex) LoadPersona(_ context.Context, name string) (annex.PersonaData, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	p, ok := a.personas[annex.PersonaKey(name)]
	if !ok {
		return annex.PersonaData{}, fmt.Errorf("load persona %q: %w", name, duet.ErrNotFound)
	}
	p.Pairs = append([]annex.Pair(nil), p.Pairs...)
	return p, nil
}

// SavePersona replaces the persona stored under annex.PersonaKey(p.Name).
func (a *Annex) SavePersona(_ context.Context, p annex.PersonaData) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	p.Pairs = append([]annex.Pair(nil), p.Pairs...)
	a.personas[annex.PersonaKey(p.Name)] = p
	return nil
}
