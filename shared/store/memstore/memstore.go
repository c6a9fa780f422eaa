// Package memstore keeps sessions in process memory: the embedded default of
// `duet serve` and `duet poll`, needing no AWS account. It honours the same
// contract as the DynamoDB store (see package storetest), TTL included.
package memstore

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/duet"
)

// DefaultTTL is how long a session lives after its last activity.
const DefaultTTL = 168 * time.Hour

// Store is an in-memory session store, safe for concurrent use.
type Store struct {
	ttl time.Duration
	now func() time.Time

	mu    sync.Mutex
	chats map[int64]entry
}

type entry struct {
	chat    *convai.Chat
	expires time.Time
}

var _ convai.Store = (*Store)(nil)

// Option configures a Store.
type Option func(*Store)

// WithTTL sets how long a session lives after its last activity.
func WithTTL(d time.Duration) Option { return func(s *Store) { s.ttl = d } }

// WithClock replaces time.Now, for tests.
func WithClock(now func() time.Time) Option { return func(s *Store) { s.now = now } }

// New returns an empty store.
func New(opts ...Option) *Store {
	s := &Store{ttl: DefaultTTL, now: time.Now, chats: map[int64]entry{}}
	for _, o := range opts {
		o(s)
	}
	return s
}

// live returns the unexpired entry for id. Callers hold s.mu.
func (s *Store) live(id int64) (entry, bool) {
	e, ok := s.chats[id]
	if !ok {
		return entry{}, false
	}
	if !s.now().Before(e.expires) {
		delete(s.chats, id)
		return entry{}, false
	}
	return e, true
}

// Get returns a copy of the chat, or duet.ErrNotFound.
func (s *Store) Get(_ context.Context, id int64) (*convai.Chat, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.live(id)
	if !ok {
		return nil, fmt.Errorf("get chat %d: %w", id, duet.ErrNotFound)
	}
	return e.chat.Clone(), nil
}

// Save stores a copy of c if the stored version is prev.
func (s *Store) Save(_ context.Context, c *convai.Chat, prev int64) error {
	if c.Version != prev+1 {
		return fmt.Errorf("save chat %d: version %d after %d: %w", c.ID, c.Version, prev, duet.ErrConflict)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.live(c.ID)
	cur := int64(0)
	if ok {
		cur = e.chat.Version
	}
	if cur != prev {
		return fmt.Errorf("save chat %d: stored version %d, want %d: %w", c.ID, cur, prev, duet.ErrConflict)
	}
	s.chats[c.ID] = entry{chat: c.Clone(), expires: c.LastActivity.Add(s.ttl)}
	return nil
}

// Idle returns the ids of open chats whose last activity is before t, oldest first.
func (s *Store) Idle(_ context.Context, before time.Time) ([]int64, error) {
	return s.matching(func(c *convai.Chat) (time.Time, bool) {
		return c.LastActivity, c.Status == convai.Open && len(c.Outbox) == 0 && c.LastActivity.Before(before)
	}), nil
}

// Undelivered returns the ids of chats with messages waiting since before t, oldest first.
func (s *Store) Undelivered(_ context.Context, before time.Time) ([]int64, error) {
	return s.matching(func(c *convai.Chat) (time.Time, bool) {
		return c.OutboxSince, len(c.Outbox) > 0 && c.OutboxSince.Before(before)
	}), nil
}

func (s *Store) matching(match func(*convai.Chat) (time.Time, bool)) []int64 {
	type hit struct {
		id int64
		at time.Time
	}
	s.mu.Lock()
	var hits []hit
	for id := range s.chats {
		e, ok := s.live(id)
		if !ok {
			continue
		}
		if at, ok := match(e.chat); ok {
			hits = append(hits, hit{id, at})
		}
	}
	s.mu.Unlock()
	sort.Slice(hits, func(i, j int) bool { return hits[i].at.Before(hits[j].at) })
	ids := make([]int64, len(hits))
	for i, h := range hits {
		ids[i] = h.id
	}
	return ids
}
