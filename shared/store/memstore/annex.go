package memstore

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/duetbot/duet/shared/annex"
	"github.com/duetbot/duet/shared/duet"
)

// Annex is an in-memory annex.Store: exchanges by conversation with the
// TTL, and imported personas. It is safe for concurrent use.
type Annex struct {
	ttl time.Duration
	now func() time.Time

	mu        sync.Mutex
	exchanges map[string]map[string]exchangeEntry // conversation → key → exchange
	personas  map[string]annex.PersonaData        // by annex.PersonaKey
}

type exchangeEntry struct {
	ex      annex.Exchange
	expires time.Time
}

var _ annex.Store = (*Annex)(nil)

// NewAnnex returns an empty annex store; it takes the same options as New
// (WithTTL, WithClock).
func NewAnnex(opts ...Option) *Annex {
	s := New(opts...)
	return &Annex{ttl: s.ttl, now: s.now, exchanges: map[string]map[string]exchangeEntry{}, personas: map[string]annex.PersonaData{}}
}

// SaveExchange records ex under its conversation until At + TTL.
func (a *Annex) SaveExchange(_ context.Context, ex annex.Exchange) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	conv := a.exchanges[ex.Conversation]
	if conv == nil {
		conv = map[string]exchangeEntry{}
		a.exchanges[ex.Conversation] = conv
	}
	conv[ex.Key()] = exchangeEntry{ex: ex, expires: ex.At.Add(a.ttl)}
	return nil
}

// Exchanges returns the unexpired exchanges of a conversation in key order.
func (a *Annex) Exchanges(_ context.Context, conversation string) ([]annex.Exchange, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	now := a.now()
	var keys []string
	for k, e := range a.exchanges[conversation] {
		if now.Before(e.expires) {
			keys = append(keys, k)
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
	for _, conv := range a.exchanges {
		for _, e := range conv {
			if now.Before(e.expires) {
				n++
			}
		}
	}
	return n
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
