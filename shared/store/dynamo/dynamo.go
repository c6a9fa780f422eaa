package dynamo

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/duet"
)

// API is the part of the DynamoDB client the package uses; *dynamodb.Client
// implements it, and tests wrap one to count calls.
type API interface {
	GetItem(ctx context.Context, in *dynamodb.GetItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error)
	PutItem(ctx context.Context, in *dynamodb.PutItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error)
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

// Key and index values of ConvAI chat items.
const (
	chatPrefix   = "CHAT#"
	chatSortKey  = "CHAT"
	activePrefix = "ACTIVE#"
	outboxPrefix = "OUTBOX#"
	// indexTimeFormat is fixed width, so index sort keys sort by time.
	indexTimeFormat = "2006-01-02T15:04:05.000000000Z"
)

// Store is a convai.Store on DynamoDB, safe for concurrent use.
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

// WithTTL sets how long a session lives after its last activity.
func WithTTL(d time.Duration) Option { return func(s *Store) { s.ttl = d } }

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

// chatItem is a chat as stored.
type chatItem struct {
	PK string `dynamodbav:"pk"`
	SK string `dynamodbav:"sk"`
	convai.Chat
	// ExpiresAt is the expiry instant in Unix seconds, rounded up.
	ExpiresAt int64  `dynamodbav:"expires_at"`
	GSI1PK    string `dynamodbav:"gsi1pk,omitempty"`
	GSI1SK    string `dynamodbav:"gsi1sk,omitempty"`
	// WriteID is unique to each Save, so that a Save can recognise its own
	// write when the SDK retries a PutItem whose answer was lost.
	WriteID string `dynamodbav:"write_id"`
}

func chatKey(id int64) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		PartitionKey: &types.AttributeValueMemberS{Value: chatPrefix + strconv.FormatInt(id, 10)},
		SortKey:      &types.AttributeValueMemberS{Value: chatSortKey},
	}
}

// nowUnix is the current time in whole seconds, the resolution of expiry:
// an item is expired when its expires_at <= nowUnix.
func (s *Store) nowUnix() int64 { return s.now().Unix() }

func (s *Store) shard(id int64) int64 {
	n := int64(s.shards)
	return (id%n + n) % n
}

// Get returns the chat with a consistent read, or an error wrapping
// duet.ErrNotFound when there is none or it has expired.
func (s *Store) Get(ctx context.Context, id int64) (*convai.Chat, error) {
	out, err := s.client.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:      aws.String(s.table),
		Key:            chatKey(id),
		ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		return nil, fmt.Errorf("get chat %d: %w", id, err)
	}
	if out.Item == nil {
		return nil, fmt.Errorf("get chat %d: %w", id, duet.ErrNotFound)
	}
	var it chatItem
	if err := attributevalue.UnmarshalMap(out.Item, &it); err != nil {
		return nil, fmt.Errorf("decode chat %d: %w", id, err)
	}
	if it.ExpiresAt <= s.nowUnix() {
		return nil, fmt.Errorf("get chat %d: expired: %w", id, duet.ErrNotFound)
	}
	c := it.Chat
	// Lists come back empty rather than nil; callers compare with len, but
	// keep the in-memory shape the engine wrote.
	if len(c.Turns) == 0 {
		c.Turns = nil
	}
	if len(c.Ratings) == 0 {
		c.Ratings = nil
	}
	if len(c.Outbox) == 0 {
		c.Outbox = nil
	}
	return &c, nil
}

// Save writes c with one conditional PutItem if the stored version is still
// prev (prev 0: no chat, or an expired one), else returns an error wrapping
// duet.ErrConflict. c.Version must be prev+1.
func (s *Store) Save(ctx context.Context, c *convai.Chat, prev int64) error {
	if c.Version != prev+1 {
		return fmt.Errorf("save chat %d: version %d after %d: %w", c.ID, c.Version, prev, duet.ErrConflict)
	}
	it := s.item(c)
	it.WriteID = rand.Text()
	item, err := attributevalue.MarshalMap(it)
	if err != nil {
		return fmt.Errorf("encode chat %d: %w", c.ID, err)
	}
	now := &types.AttributeValueMemberN{Value: strconv.FormatInt(s.nowUnix(), 10)}
	in := &dynamodb.PutItemInput{
		TableName:                           aws.String(s.table),
		Item:                                item,
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
		ExpressionAttributeNames: map[string]string{
			"#exp": TTLAttribute,
		},
		ExpressionAttributeValues: map[string]types.AttributeValue{":now": now},
	}
	if prev == 0 {
		in.ConditionExpression = aws.String("attribute_not_exists(#pk) OR #exp <= :now")
		in.ExpressionAttributeNames["#pk"] = PartitionKey
	} else {
		in.ConditionExpression = aws.String("#ver = :prev AND #exp > :now")
		in.ExpressionAttributeNames["#ver"] = VersionAttribute
		in.ExpressionAttributeValues[":prev"] = &types.AttributeValueMemberN{Value: strconv.FormatInt(prev, 10)}
	}
	if _, err := s.client.PutItem(ctx, in); err != nil {
		var failed *types.ConditionalCheckFailedException
		if errors.As(err, &failed) {
			if ours(failed.Item, it.WriteID) {
				return nil // a retry of a write that had succeeded: its answer was lost
			}
			return fmt.Errorf("save chat %d: stored version is not %d: %w", c.ID, prev, duet.ErrConflict)
		}
		return fmt.Errorf("save chat %d: %w", c.ID, err)
	}
	return nil
}

// ours reports whether the stored item (returned by a failed condition) is
// the one this Save wrote.
func ours(stored map[string]types.AttributeValue, writeID string) bool {
	v, ok := stored["write_id"].(*types.AttributeValueMemberS)
	return ok && v.Value == writeID
}

// item returns c as stored, with its expiry and index keys.
func (s *Store) item(c *convai.Chat) chatItem {
	it := chatItem{
		PK:        chatPrefix + strconv.FormatInt(c.ID, 10),
		SK:        chatSortKey,
		Chat:      *c,
		ExpiresAt: ceilUnix(c.LastActivity.Add(s.ttl)),
	}
	shard := strconv.FormatInt(s.shard(c.ID), 10)
	switch {
	case len(c.Outbox) > 0:
		it.GSI1PK, it.GSI1SK = outboxPrefix+shard, indexTime(c.OutboxSince)
	case c.Status == convai.Open:
		it.GSI1PK, it.GSI1SK = activePrefix+shard, indexTime(c.LastActivity)
	}
	return it
}

// ceilUnix returns t in Unix seconds, rounded up, so that an item never
// expires before its time.
func ceilUnix(t time.Time) int64 {
	sec := t.Unix()
	if t.Nanosecond() > 0 {
		sec++
	}
	return sec
}

func indexTime(t time.Time) string { return t.UTC().Format(indexTimeFormat) }

// Idle returns the ids of open chats with nothing undelivered whose last
// activity is before t, oldest first.
func (s *Store) Idle(ctx context.Context, before time.Time) ([]int64, error) {
	ids, err := s.query(ctx, activePrefix, before)
	if err != nil {
		return nil, fmt.Errorf("query idle chats: %w", err)
	}
	return ids, nil
}

// Undelivered returns the ids of chats holding messages stored before t and
// not yet delivered, oldest first.
func (s *Store) Undelivered(ctx context.Context, before time.Time) ([]int64, error) {
	ids, err := s.query(ctx, outboxPrefix, before)
	if err != nil {
		return nil, fmt.Errorf("query undelivered chats: %w", err)
	}
	return ids, nil
}

// indexHit is one chat found in the index.
type indexHit struct {
	id int64
	at string // the index sort key
}

// query returns the live chats in every shard of the index partitions
// named by prefix whose sort key is before t, oldest first. The shards are
// queried in parallel.
func (s *Store) query(ctx context.Context, prefix string, before time.Time) ([]int64, error) {
	now := s.nowUnix()
	results := make([][]indexHit, s.shards)
	errs := make([]error, s.shards)
	var wg sync.WaitGroup
	for i := range s.shards {
		wg.Go(func() {
			results[i], errs[i] = s.queryShard(ctx, prefix+strconv.Itoa(i), indexTime(before), now)
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	var all []indexHit
	for _, r := range results {
		all = append(all, r...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].at < all[j].at })
	ids := make([]int64, len(all))
	for i, h := range all {
		ids[i] = h.id
	}
	return ids, nil
}

func (s *Store) queryShard(ctx context.Context, partition, before string, now int64) ([]indexHit, error) {
	p := dynamodb.NewQueryPaginator(s.client, &dynamodb.QueryInput{
		TableName:              aws.String(s.table),
		IndexName:              aws.String(IndexName),
		KeyConditionExpression: aws.String("#p = :p AND #s < :t"),
		FilterExpression:       aws.String("#exp > :now"),
		ExpressionAttributeNames: map[string]string{
			"#p":   IndexPartitionKey,
			"#s":   IndexSortKey,
			"#exp": TTLAttribute,
		},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":p":   &types.AttributeValueMemberS{Value: partition},
			":t":   &types.AttributeValueMemberS{Value: before},
			":now": &types.AttributeValueMemberN{Value: strconv.FormatInt(now, 10)},
		},
	})
	var hits []indexHit
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("query %s: %w", partition, err)
		}
		for _, av := range page.Items {
			var k struct {
				PK        string `dynamodbav:"pk"`
				SK        string `dynamodbav:"gsi1sk"`
				ExpiresAt int64  `dynamodbav:"expires_at"`
			}
			if err := attributevalue.UnmarshalMap(av, &k); err != nil {
				return nil, fmt.Errorf("query %s: decode keys: %w", partition, err)
			}
			idText, ok := strings.CutPrefix(k.PK, chatPrefix)
			if !ok || k.ExpiresAt <= now {
				continue // not a chat, or expired (the filter already drops those)
			}
			id, err := strconv.ParseInt(idText, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("query %s: bad key %q: %w", partition, k.PK, err)
			}
			hits = append(hits, indexHit{id: id, at: k.SK})
		}
	}
	return hits, nil
}
