// Package memstore keeps sessions in process memory: the embedded default of
// `duet serve` and `duet poll`, needing no AWS account. It honours the same
// contract as the DynamoDB store (see package storetest), TTL included, and
// it is bounded: ended and expired chats are deleted, and past a cap on
// chats or on bytes the least recently written one is evicted (and logged).
package memstore

import (
	"container/list"
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/duet"
)

// Defaults of a Store's options.
const (
	// DefaultTTL is how long a session lives after its last activity.
	DefaultTTL = 168 * time.Hour
	// DefaultMaxChats caps the chats kept; past it the least recently
	// active is evicted (and logged).
	DefaultMaxChats = 10_000
	// DefaultRetention is how long an ended chat, all delivered, is kept
	// to recognise late duplicates of its last updates.
	DefaultRetention = 10 * time.Minute
)

// Store is an in-memory session store, safe for concurrent use.
type Store struct {
	ttl       time.Duration
	retention time.Duration
	maxChats  int
	maxBytes  int64
	now       func() time.Time
	log       *slog.Logger

	mu      sync.Mutex
	chats   map[int64]*entry
	lru     *list.List // of *entry, least recently written first
	bytes   int64      // the sum of the entries' sizes
	evicted evictions
}

type entry struct {
	id      int64
	head    convai.Head // Version 0: none written yet
	records []convai.Record
	touched time.Time // last write
	active  time.Time // last activity, for expiry
	elem    *list.Element
	size    int64 // chatSize when last written
}

var _ convai.Store = (*Store)(nil)

// Option configures a Store.
type Option func(*Store)

// WithTTL sets how long a session lives after its last activity; d <= 0
// (an unset duration) keeps DefaultTTL, rather than expiring every chat at
// once.
func WithTTL(d time.Duration) Option {
	return func(s *Store) {
		if d > 0 {
			s.ttl = d
		}
	}
}

// WithClock replaces time.Now, for tests.
func WithClock(now func() time.Time) Option { return func(s *Store) { s.now = now } }

// WithMaxChats sets the cap on chats kept; n < 1 is taken as 1.
func WithMaxChats(n int) Option { return func(s *Store) { s.maxChats = max(n, 1) } }

// WithMaxBytes sets the cap on the bytes kept (see DefaultMaxBytes); n < 1
// keeps the default.
func WithMaxBytes(n int64) Option {
	return func(s *Store) {
		if n > 0 {
			s.maxBytes = n
		}
	}
}

// WithRetention sets how long an ended, delivered chat is kept.
func WithRetention(d time.Duration) Option { return func(s *Store) { s.retention = d } }

// WithLogger sets where evictions are logged: the command's own logger, so
// that they read as its other lines do.
func WithLogger(l *slog.Logger) Option {
	return func(s *Store) {
		if l != nil {
			s.log = l
		}
	}
}

// New returns an empty store.
func New(opts ...Option) *Store {
	s := &Store{
		ttl: DefaultTTL, retention: DefaultRetention, maxChats: DefaultMaxChats, maxBytes: DefaultMaxBytes,
		now: time.Now, log: slog.Default(),
		chats: map[int64]*entry{}, lru: list.New(),
	}
	for _, o := range opts {
		o(s)
	}
	s.evicted = evictions{log: s.log, what: "chat"}
	return s
}

// Bytes returns the estimated bytes the store holds, which its cap bounds.
func (s *Store) Bytes() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bytes
}

// Len returns how many chats the store holds.
func (s *Store) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.chats)
}

// live returns the entry for id unless it expired at now. Callers hold s.mu.
func (s *Store) live(id int64, now time.Time) (*entry, bool) {
	e, ok := s.chats[id]
	if !ok {
		return nil, false
	}
	if s.expired(e, now) {
		s.drop(e)
		return nil, false
	}
	return e, true
}

// expired reports whether e is past its TTL or, ended and delivered, past
// its retention.
func (s *Store) expired(e *entry, now time.Time) bool {
	if !now.Before(e.active.Add(s.ttl)) {
		return true
	}
	return e.done() && !now.Before(e.touched.Add(s.retention))
}

// done reports whether the chat's newest session ended with all delivered.
func (e *entry) done() bool {
	if e.head.Version == 0 || e.head.Status != convai.Ended || !e.head.Pending.IsZero() {
		return false
	}
	for _, r := range e.records {
		if r.Session > e.head.Session || (r.Session == e.head.Session && r.Seq > e.head.Sent) {
			return false
		}
	}
	return true
}

func (s *Store) drop(e *entry) {
	s.lru.Remove(e.elem)
	delete(s.chats, e.id)
	s.bytes -= e.size
}

// touch records a write at now to id's entry, creating it; the caller
// then changes the entry and calls fit. Callers hold s.mu.
func (s *Store) touch(id int64, active, now time.Time) *entry {
	e, ok := s.live(id, now)
	if !ok {
		e = &entry{id: id}
		e.elem = s.lru.PushBack(e)
		s.chats[id] = e
	} else {
		s.lru.MoveToBack(e.elem)
	}
	e.touched = now
	if active.After(e.active) {
		e.active = active
	}
	return e
}

// fit counts e's new size and enforces the bounds, deleting the expired
// entries and, past a cap, the least recently written, e aside. Callers
// hold s.mu.
func (s *Store) fit(e *entry, now time.Time) {
	size := chatSize(e)
	s.bytes += size - e.size
	e.size = size
	// The list is in write order, so expired entries gather at its front.
	for f := s.lru.Front(); f != nil && f.Value.(*entry) != e; f = s.lru.Front() {
		old := f.Value.(*entry)
		switch {
		case s.expired(old, now):
			s.drop(old)
		case len(s.chats) > s.maxChats || s.bytes > s.maxBytes:
			s.drop(old)
			s.evicted.add(now, "chat", old.id, "last_write", old.touched, "chats", len(s.chats), "max_chats", s.maxChats,
				"bytes", s.bytes, "max_bytes", s.maxBytes)
		default:
			return
		}
	}
}

// Load returns copies of the chat's head and newest records.
func (s *Store) Load(_ context.Context, id int64) (*convai.Chat, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.live(id, s.now())
	if !ok || (e.head.Version == 0 && len(e.records) == 0) {
		return nil, fmt.Errorf("load chat %d: %w", id, duet.ErrNotFound)
	}
	c := &convai.Chat{ID: id, Head: e.head, Records: slices.Clone(e.records)}
	c.Head.Recent = slices.Clone(e.head.Recent)
	for i := range c.Records {
		c.Records[i].Final = cloneScores(c.Records[i].Final)
	}
	return c, nil
}

// Append stores r unless the chat has a record (r.Session, r.Seq).
func (s *Store) Append(_ context.Context, id int64, r *convai.Record) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	if e, ok := s.live(id, now); ok {
		if slices.ContainsFunc(e.records, func(o convai.Record) bool { return o.Session == r.Session && o.Seq == r.Seq }) {
			return fmt.Errorf("append to chat %d: record %d.%d exists: %w", id, r.Session, r.Seq, duet.ErrConflict)
		}
	}
	e := s.touch(id, r.At, now)
	rec := *r
	rec.Final = cloneScores(rec.Final)
	e.records = append(e.records, rec)
	e.records = keep(e.records)
	s.fit(e, now)
	return nil
}

// keep returns records limited to what a Load returns: the newest
// session's start and the newest convai.Window others of that session. In
// the usual layout (the start first, then the session's others in order) it
// drops the oldest others in place, without allocating.
func keep(records []convai.Record) []convai.Record {
	newest := records[len(records)-1].Session
	start, others := -1, 0
	usual := true
	for i := range records {
		switch r := &records[i]; {
		case r.Session != newest:
			usual = false
		case r.Seq == 0:
			usual = usual && i == 0
			start = i
		default:
			others++
		}
	}
	over := max(others-convai.Window, 0)
	if usual {
		first := 0
		if start == 0 {
			first = 1
		}
		return slices.Delete(records, first, first+over)
	}
	out := make([]convai.Record, 0, min(others, convai.Window)+2)
	if start >= 0 {
		out = append(out, records[start])
	}
	for i := range records {
		if r := &records[i]; r.Session == newest && r.Seq != 0 {
			if over > 0 {
				over--
				continue
			}
			out = append(out, *r)
		}
	}
	return out
}

// Claim sets the lease of a record if it is free, expired or owner's.
func (s *Store) Claim(_ context.Context, id, session, seq int64, l convai.Lease, now time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.live(id, s.now())
	if !ok {
		return fmt.Errorf("claim in chat %d: %w", id, duet.ErrNotFound)
	}
	i := slices.IndexFunc(e.records, func(r convai.Record) bool { return r.Session == session && r.Seq == seq })
	if i < 0 {
		return fmt.Errorf("claim record %d.%d of chat %d: %w", session, seq, id, duet.ErrNotFound)
	}
	if e.records[i].Lease.Held(l.Owner, now) {
		return fmt.Errorf("claim record %d.%d of chat %d: leased to another sender: %w", session, seq, id, duet.ErrConflict)
	}
	e.records[i].Lease = l
	return nil
}

// Commit stores h if the stored head's version is prev.
func (s *Store) Commit(_ context.Context, h convai.Head, prev int64) error {
	if h.Version != prev+1 {
		return fmt.Errorf("commit chat %d: version %d after %d: %w", h.ChatID, h.Version, prev, duet.ErrConflict)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	cur := int64(0)
	now := s.now()
	if e, ok := s.live(h.ChatID, now); ok {
		cur = e.head.Version
	}
	if cur != prev {
		return fmt.Errorf("commit chat %d: stored version %d, want %d: %w", h.ChatID, cur, prev, duet.ErrConflict)
	}
	e := s.touch(h.ChatID, h.IdleSince(), now)
	e.head = h
	e.head.Recent = slices.Clone(h.Recent)
	e.head.Said = slices.Clone(h.Said)
	s.fit(e, now)
	return nil
}

// Idle returns the ids of open chats with nothing pending whose idle time
// began before t, oldest first.
func (s *Store) Idle(_ context.Context, before time.Time) ([]int64, error) {
	return s.matching((*convai.Head).IdleBefore, before), nil
}

// Undelivered returns the ids of chats pending since before t, oldest first.
func (s *Store) Undelivered(_ context.Context, before time.Time) ([]int64, error) {
	return s.matching((*convai.Head).PendingBefore, before), nil
}

// matching returns the ids of the live chats whose head matches before,
// ordered by the time match gives.
func (s *Store) matching(match func(*convai.Head, time.Time) (time.Time, bool), before time.Time) []int64 {
	type hit struct {
		id int64
		at time.Time
	}
	s.mu.Lock()
	var hits []hit
	now := s.now()
	for _, e := range s.chats {
		if e.head.Version == 0 || s.expired(e, now) {
			continue
		}
		if at, ok := match(&e.head, before); ok {
			hits = append(hits, hit{e.id, at})
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

// cloneScores returns a deep copy of s, so that no caller shares a stored
// record's profile guess.
func cloneScores(s *brain.Scores) *brain.Scores {
	if s == nil {
		return nil
	}
	v := *s
	if s.Profile != nil {
		i := *s.Profile
		v.Profile = &i
	}
	return &v
}
