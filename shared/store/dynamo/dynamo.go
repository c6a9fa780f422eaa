package dynamo

import (
	"context"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/duetbot/duet/shared/convai"
)

// API is the part of the DynamoDB client the package uses; *dynamodb.Client
// implements it, and tests wrap one to count calls.
type API interface {
	GetItem(ctx context.Context, in *dynamodb.GetItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error)
	PutItem(ctx context.Context, in *dynamodb.PutItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error)
	UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error)
	DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error)
	Query(ctx context.Context, in *dynamodb.QueryInput, opts ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error)
	CreateTable(ctx context.Context, in *dynamodb.CreateTableInput, opts ...func(*dynamodb.Options)) (*dynamodb.CreateTableOutput, error)
	DescribeTable(ctx context.Context, in *dynamodb.DescribeTableInput, opts ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error)
	UpdateTimeToLive(ctx context.Context, in *dynamodb.UpdateTimeToLiveInput, opts ...func(*dynamodb.Options)) (*dynamodb.UpdateTimeToLiveOutput, error)
	DescribeTimeToLive(ctx context.Context, in *dynamodb.DescribeTimeToLiveInput, opts ...func(*dynamodb.Options)) (*dynamodb.DescribeTimeToLiveOutput, error)
}

var _ API = (*dynamodb.Client)(nil)

// Defaults for a Store's options.
const (
	// DefaultTTL is how long a session lives after its last activity.
	DefaultTTL = 168 * time.Hour
	// DefaultShards is how many index partitions each of ACTIVE and OUTBOX
	// is spread over, so that no single partition gets hot.
	DefaultShards = 8
)

// Store is a convai.Store on DynamoDB, safe for concurrent use. Per partner
// message it makes one consistent Query and two PutItems of about 1 KB or
// less each, whatever the chat's length.
type Store struct {
	client API
	table  string
	ttl    time.Duration
	shards int
	now    func() time.Time
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

// WithShards sets how many index partitions the chats are spread over. Every
// process sharing a table must use the same number; n < 1 is taken as 1.
func WithShards(n int) Option { return func(s *Store) { s.shards = max(n, 1) } }

// WithClock replaces time.Now, for tests.
func WithClock(now func() time.Time) Option { return func(s *Store) { s.now = now } }

// New returns a Store keeping chats in table, which must exist (see CreateTable).
func New(client API, table string, opts ...Option) *Store {
	s := &Store{client: client, table: table, ttl: DefaultTTL, shards: DefaultShards, now: time.Now}
	for _, o := range opts {
		o(s)
	}
	return s
}

// nowUnix is the current time in whole seconds, the resolution of expiry:
// an item is expired when its expires_at <= nowUnix.
func (s *Store) nowUnix() int64 { return s.now().Unix() }

func (s *Store) shard(id int64) int64 {
	n := int64(s.shards)
	return (id%n + n) % n
}
