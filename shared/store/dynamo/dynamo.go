package dynamo

import (
	"cmp"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/duet"
)

// API is the part of the DynamoDB client the package uses; *dynamodb.Client
// implements it, and tests wrap one to count calls.
type API interface {
	GetItem(ctx context.Context, in *dynamodb.GetItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error)
	PutItem(ctx context.Context, in *dynamodb.PutItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error)
	UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error)
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

// Key and index values of ConvAI chat items. A chat is one partition:
// the head under sort key "CHAT", and each record under
// "C#<session>#S" (the start) or "C#<session>#R<seq>", fixed width, so
// that one descending Query from "CHAT" reads the head, the newest
// session's start and its newest records, in that order.
const (
	chatPrefix   = "CHAT#"
	headSortKey  = "CHAT"
	recordPrefix = "C#"
	activePrefix = "ACTIVE#"
	outboxPrefix = "OUTBOX#"
	writeIDAttr  = "wid"
	leaseOwner   = "lo"
	leaseUntil   = "lu"
	// indexTimeFormat is fixed width, so index sort keys sort by time.
	indexTimeFormat = "2006-01-02T15:04:05.000000000Z"
)

// indexGrain is the resolution of an open chat's ACTIVE index time: the
// start of its idle time rounded down to it. DynamoDB writes an index entry
// (a delete and a put, two write units) only when its keys or projected
// attributes change; with times to the grain, and only keys projected, a
// lively chat's messages leave its entry alone for minutes, instead of
// moving it with every message. Idle applies the exact time from the head.
const indexGrain = 5 * time.Minute

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

// headItem is a chat head as stored. Times are Unix nanoseconds (0: unset),
// names short: every byte of a name is paid on every write.
type headItem struct {
	PK        string  `dynamodbav:"pk"`
	SK        string  `dynamodbav:"sk"`
	Session   int64   `dynamodbav:"sess"`
	Status    string  `dynamodbav:"st"`
	Sent      int64   `dynamodbav:"sent"`
	Part      int     `dynamodbav:"part,omitempty"`
	Recent    []int64 `dynamodbav:"rec,omitempty"`
	PartnerAt int64   `dynamodbav:"pat"`
	SentAt    int64   `dynamodbav:"sat,omitempty"`
	Pending   int64   `dynamodbav:"pend,omitempty"`
	Version   int64   `dynamodbav:"version"`
	// ExpiresAt is the expiry instant in Unix seconds, rounded up.
	ExpiresAt int64  `dynamodbav:"expires_at"`
	GSI1PK    string `dynamodbav:"gsi1pk,omitempty"`
	GSI1SK    string `dynamodbav:"gsi1sk,omitempty"`
	// WriteID is unique to each write, so that a write can recognise itself
	// when the SDK retries a PutItem whose answer was lost.
	WriteID string `dynamodbav:"wid"`
}

// recordItem is a chat record as stored.
type recordItem struct {
	PK           string      `dynamodbav:"pk"`
	SK           string      `dynamodbav:"sk"`
	Session      int64       `dynamodbav:"sess"`
	Seq          int64       `dynamodbav:"seq"`
	Kind         string      `dynamodbav:"k"`
	UpdateID     int64       `dynamodbav:"uid,omitempty"`
	Sum          uint64      `dynamodbav:"sum,omitempty"`
	Context      string      `dynamodbav:"ctx,omitempty"`
	Partner      string      `dynamodbav:"p,omitempty"`
	Bot          string      `dynamodbav:"b,omitempty"`
	Rating       int         `dynamodbav:"r,omitempty"`
	Final        *finalScore `dynamodbav:"fin,omitempty"`
	PartnerTurns int         `dynamodbav:"pt,omitempty"`
	At           int64       `dynamodbav:"at"`
	LeaseOwner   string      `dynamodbav:"lo,omitempty"`
	LeaseUntil   int64       `dynamodbav:"lu,omitempty"`
	ExpiresAt    int64       `dynamodbav:"expires_at"`
	WriteID      string      `dynamodbav:"wid"`
}

// finalScore is a record's whole-chat evaluation: fixed-size, whatever the
// router's evaluation request held (the candidate profiles are not kept:
// the final is computed before its record is written).
type finalScore struct {
	Quality    int `dynamodbav:"q"`
	Breadth    int `dynamodbav:"b"`
	Engagement int `dynamodbav:"e"`
	Score      int `dynamodbav:"s,omitempty"`
	// Profile is the profile guess plus one, so that 0 (omitted) means none.
	Profile int `dynamodbav:"pi,omitempty"`
}

// scores returns the stored evaluation as the engine sees it.
func (f *finalScore) scores() *brain.Scores {
	s := &brain.Scores{Quality: f.Quality, Breadth: f.Breadth, Engagement: f.Engagement, Score: f.Score}
	if f.Profile > 0 {
		i := f.Profile - 1
		s.Profile = &i
	}
	return s
}

// newFinalScore returns the stored form of s.
func newFinalScore(s *brain.Scores) *finalScore {
	f := &finalScore{Quality: s.Quality, Breadth: s.Breadth, Engagement: s.Engagement, Score: s.Score}
	if s.Profile != nil && *s.Profile >= 0 {
		f.Profile = *s.Profile + 1
	}
	return f
}

func chatPK(id int64) string { return chatPrefix + strconv.FormatInt(id, 10) }

func recordSK(session, seq int64) string {
	if seq == 0 {
		return fmt.Sprintf("%s%010d#S", recordPrefix, session)
	}
	return fmt.Sprintf("%s%010d#R%010d", recordPrefix, session, seq)
}

func key(pk, sk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		PartitionKey: &types.AttributeValueMemberS{Value: pk},
		SortKey:      &types.AttributeValueMemberS{Value: sk},
	}
}

func nanos(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

func fromNanos(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}

func num(n int64) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(n, 10)}
}

// nowUnix is the current time in whole seconds, the resolution of expiry:
// an item is expired when its expires_at <= nowUnix.
func (s *Store) nowUnix() int64 { return s.now().Unix() }

func (s *Store) shard(id int64) int64 {
	n := int64(s.shards)
	return (id%n + n) % n
}

// Load reads the chat's head, its newest session's start and that
// session's newest convai.Window records with one consistent Query.
func (s *Store) Load(ctx context.Context, id int64) (*convai.Chat, error) {
	out, err := s.client.Query(ctx, &dynamodb.QueryInput{
		TableName:              aws.String(s.table),
		KeyConditionExpression: aws.String("#pk = :pk AND #sk BETWEEN :lo AND :hi"),
		ExpressionAttributeNames: map[string]string{
			"#pk": PartitionKey,
			"#sk": SortKey,
		},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk": &types.AttributeValueMemberS{Value: chatPK(id)},
			":lo": &types.AttributeValueMemberS{Value: recordPrefix},
			":hi": &types.AttributeValueMemberS{Value: headSortKey},
		},
		ScanIndexForward: aws.Bool(false),
		ConsistentRead:   aws.Bool(true),
		Limit:            aws.Int32(convai.Window + 2),
	})
	if err != nil {
		return nil, fmt.Errorf("load chat %d: %w", id, err)
	}
	now := s.nowUnix()
	c := &convai.Chat{ID: id}
	found := false
	turns := 0
	for _, av := range out.Items {
		sk, _ := av[SortKey].(*types.AttributeValueMemberS)
		if sk == nil {
			continue
		}
		if sk.Value == headSortKey {
			var h headItem
			if err := attributevalue.UnmarshalMap(av, &h); err != nil {
				return nil, fmt.Errorf("decode chat %d: %w", id, err)
			}
			if h.ExpiresAt <= now {
				continue
			}
			c.Head = h.head(id)
			found = true
			continue
		}
		var r recordItem
		if err := attributevalue.UnmarshalMap(av, &r); err != nil {
			return nil, fmt.Errorf("decode chat %d record %s: %w", id, sk.Value, err)
		}
		if r.ExpiresAt <= now {
			continue
		}
		found = true
		// Items come newest first: the newest session's first, and of its
		// records, the start and then the newest Window.
		if len(c.Records) > 0 && r.Session != c.Records[0].Session || r.Seq > 0 && turns == convai.Window {
			continue
		}
		if r.Seq > 0 {
			turns++
		}
		c.Records = append(c.Records, r.record())
	}
	if !found {
		return nil, fmt.Errorf("load chat %d: %w", id, duet.ErrNotFound)
	}
	slices.SortFunc(c.Records, func(a, b convai.Record) int { return cmp.Compare(a.Seq, b.Seq) })
	return c, nil
}

func (h *headItem) head(id int64) convai.Head {
	return convai.Head{
		ChatID:    id,
		Session:   h.Session,
		Status:    convai.Status(h.Status),
		Sent:      h.Sent,
		Part:      h.Part,
		Recent:    h.Recent,
		PartnerAt: fromNanos(h.PartnerAt),
		SentAt:    fromNanos(h.SentAt),
		Pending:   fromNanos(h.Pending),
		Version:   h.Version,
	}
}

func (r *recordItem) record() convai.Record {
	rec := convai.Record{
		Session: r.Session, Seq: r.Seq, Kind: convai.RecordKind(r.Kind),
		UpdateID: r.UpdateID, Sum: r.Sum, Context: r.Context,
		Partner: r.Partner, Bot: r.Bot, Rating: r.Rating, PartnerTurns: r.PartnerTurns,
		At:    fromNanos(r.At),
		Lease: convai.Lease{Owner: r.LeaseOwner, Until: fromNanos(r.LeaseUntil)},
	}
	if r.Final != nil {
		rec.Final = r.Final.scores()
	}
	return rec
}

// Append writes r with one PutItem, conditional on no live record having
// its key.
func (s *Store) Append(ctx context.Context, id int64, r *convai.Record) error {
	it := recordItem{
		PK: chatPK(id), SK: recordSK(r.Session, r.Seq),
		Session: r.Session, Seq: r.Seq, Kind: string(r.Kind),
		UpdateID: r.UpdateID, Sum: r.Sum, Context: r.Context,
		Partner: r.Partner, Bot: r.Bot, Rating: r.Rating, PartnerTurns: r.PartnerTurns,
		At:         nanos(r.At),
		LeaseOwner: r.Lease.Owner, LeaseUntil: nanos(r.Lease.Until),
		ExpiresAt: ceilUnix(r.At.Add(s.ttl)),
		WriteID:   rand.Text(),
	}
	if f := r.Final; f != nil {
		it.Final = newFinalScore(f)
	}
	item, err := attributevalue.MarshalMap(it)
	if err != nil {
		return fmt.Errorf("encode chat %d record: %w", id, err)
	}
	return s.put(ctx, id, item, it.WriteID, 0, fmt.Sprintf("record %d.%d", r.Session, r.Seq))
}

// put writes item with one PutItem: when prev is 0 if no live item has its
// key, else if the stored version is prev.
func (s *Store) put(ctx context.Context, id int64, item map[string]types.AttributeValue, writeID string, prev int64, what string) error {
	in := &dynamodb.PutItemInput{
		TableName:                           aws.String(s.table),
		Item:                                item,
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
		ExpressionAttributeNames:            map[string]string{"#exp": TTLAttribute},
		ExpressionAttributeValues:           map[string]types.AttributeValue{":now": num(s.nowUnix())},
	}
	if prev == 0 {
		in.ConditionExpression = aws.String("attribute_not_exists(#pk) OR #exp <= :now")
		in.ExpressionAttributeNames["#pk"] = PartitionKey
	} else {
		in.ConditionExpression = aws.String("#ver = :prev AND #exp > :now")
		in.ExpressionAttributeNames["#ver"] = VersionAttribute
		in.ExpressionAttributeValues[":prev"] = num(prev)
	}
	if _, err := s.client.PutItem(ctx, in); err != nil {
		var failed *types.ConditionalCheckFailedException
		if errors.As(err, &failed) {
			if ours(failed.Item, writeID) {
				return nil // a retry of a write that had succeeded: its answer was lost
			}
			return fmt.Errorf("write chat %d %s: %w", id, what, duet.ErrConflict)
		}
		return fmt.Errorf("write chat %d %s: %w", id, what, err)
	}
	return nil
}

// ours reports whether the stored item (returned by a failed condition) is
// the one this write wrote.
func ours(stored map[string]types.AttributeValue, writeID string) bool {
	v, ok := stored[writeIDAttr].(*types.AttributeValueMemberS)
	return ok && v.Value == writeID
}

// Claim sets a record's lease with one conditional UpdateItem (and, when
// the condition fails on an implementation that does not return the item,
// one consistent GetItem to tell a held lease from a missing record).
func (s *Store) Claim(ctx context.Context, id, session, seq int64, l convai.Lease, now time.Time) error {
	in := &dynamodb.UpdateItemInput{
		TableName:        aws.String(s.table),
		Key:              key(chatPK(id), recordSK(session, seq)),
		UpdateExpression: aws.String("SET #lo = :lo, #lu = :lu"),
		ConditionExpression: aws.String("attribute_exists(#pk) AND #exp > :nowsec AND " +
			"(attribute_not_exists(#lu) OR #lu <= :now OR #lo = :lo)"),
		ExpressionAttributeNames: map[string]string{
			"#pk": PartitionKey, "#exp": TTLAttribute, "#lo": leaseOwner, "#lu": leaseUntil,
		},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":lo":     &types.AttributeValueMemberS{Value: l.Owner},
			":lu":     num(nanos(l.Until)),
			":now":    num(nanos(now)),
			":nowsec": num(s.nowUnix()),
		},
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	}
	if _, err := s.client.UpdateItem(ctx, in); err != nil {
		var failed *types.ConditionalCheckFailedException
		if errors.As(err, &failed) {
			stored := failed.Item
			if stored == nil {
				// Not every implementation returns the item (dynalite does
				// not): read it, on this rare path only.
				out, gerr := s.client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(s.table), Key: in.Key, ConsistentRead: aws.Bool(true)})
				if gerr != nil {
					return fmt.Errorf("claim record %d.%d of chat %d: %w", session, seq, id, gerr)
				}
				stored = out.Item
			}
			var r recordItem
			if stored == nil || attributevalue.UnmarshalMap(stored, &r) != nil || r.ExpiresAt <= s.nowUnix() {
				return fmt.Errorf("claim record %d.%d of chat %d: %w", session, seq, id, duet.ErrNotFound)
			}
			return fmt.Errorf("claim record %d.%d of chat %d: leased to another sender: %w", session, seq, id, duet.ErrConflict)
		}
		return fmt.Errorf("claim record %d.%d of chat %d: %w", session, seq, id, err)
	}
	return nil
}

// Commit writes the head with one PutItem conditional on its version.
func (s *Store) Commit(ctx context.Context, h convai.Head, prev int64) error {
	if h.Version != prev+1 {
		return fmt.Errorf("commit chat %d: version %d after %d: %w", h.ChatID, h.Version, prev, duet.ErrConflict)
	}
	it := s.headItem(&h)
	it.WriteID = rand.Text()
	item, err := attributevalue.MarshalMap(it)
	if err != nil {
		return fmt.Errorf("encode chat %d: %w", h.ChatID, err)
	}
	return s.put(ctx, h.ChatID, item, it.WriteID, prev, "head")
}

// headItem returns h as stored, with its expiry and index keys.
func (s *Store) headItem(h *convai.Head) headItem {
	it := headItem{
		PK: chatPK(h.ChatID), SK: headSortKey,
		Session: h.Session, Status: string(h.Status), Sent: h.Sent, Part: h.Part, Recent: h.Recent,
		PartnerAt: nanos(h.PartnerAt), SentAt: nanos(h.SentAt), Pending: nanos(h.Pending),
		Version:   h.Version,
		ExpiresAt: ceilUnix(h.IdleSince().Add(s.ttl)),
	}
	shard := strconv.FormatInt(s.shard(h.ChatID), 10)
	switch {
	case !h.Pending.IsZero():
		it.GSI1PK, it.GSI1SK = outboxPrefix+shard, indexTime(h.Pending)
	case h.Status == convai.Open:
		// To the grain, so that the entry moves once per grain, not
		// with every message.
		it.GSI1PK, it.GSI1SK = activePrefix+shard, indexTime(h.IdleSince().Truncate(indexGrain))
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

// Idle returns the ids of open chats with nothing pending whose idle time
// began before t, oldest first.
func (s *Store) Idle(ctx context.Context, before time.Time) ([]int64, error) {
	ids, err := s.query(ctx, activePrefix, ceilGrain(before), (*convai.Head).IdleBefore, before)
	if err != nil {
		return nil, fmt.Errorf("query idle chats: %w", err)
	}
	return ids, nil
}

// Undelivered returns the ids of chats pending since before t, oldest first.
func (s *Store) Undelivered(ctx context.Context, before time.Time) ([]int64, error) {
	ids, err := s.query(ctx, outboxPrefix, before, (*convai.Head).PendingBefore, before)
	if err != nil {
		return nil, fmt.Errorf("query undelivered chats: %w", err)
	}
	return ids, nil
}

// ceilGrain rounds t up to the index's time grain: an ACTIVE entry whose
// time is before it may hold a chat idle since before t.
func ceilGrain(t time.Time) time.Time {
	if c := t.Truncate(indexGrain); !c.Equal(t) {
		return c.Add(indexGrain)
	}
	return t
}

// checkers is how many heads query reads at once.
const checkers = 16

// query returns the live chats in every shard of the index partitions
// named by prefix whose index time is before bound and whose head, read
// back, matches before, oldest first by the time match gives. The index holds
// only keys, and ACTIVE times only to the grain, so each candidate's head
// is read (an eventually consistent GetItem of its time attributes) to
// apply the exact time and expiry: the sweeper pays a read per candidate,
// and every message is spared an index write.
func (s *Store) query(ctx context.Context, prefix string, bound time.Time, match func(*convai.Head, time.Time) (time.Time, bool), before time.Time) ([]int64, error) {
	results := make([][]int64, s.shards)
	errs := make([]error, s.shards)
	var wg sync.WaitGroup
	for i := range s.shards {
		wg.Go(func() {
			results[i], errs[i] = s.queryShard(ctx, prefix+strconv.Itoa(i), indexTime(bound))
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	var cands []int64
	for _, r := range results {
		cands = append(cands, r...)
	}

	type hit struct {
		id int64
		at time.Time
	}
	hits := make([]*hit, len(cands))
	errs = make([]error, len(cands))
	sem := make(chan struct{}, checkers)
	now := s.nowUnix()
	for i, id := range cands {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			h, err := s.timesOf(ctx, id, now)
			if err != nil || h == nil {
				errs[i] = err
				return
			}
			if at, ok := match(h, before); ok {
				hits[i] = &hit{id, at}
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	hits = slices.DeleteFunc(hits, func(h *hit) bool { return h == nil })
	slices.SortStableFunc(hits, func(a, b *hit) int { return a.at.Compare(b.at) })
	ids := make([]int64, len(hits))
	for i, h := range hits {
		ids[i] = h.id
	}
	return ids, nil
}

// timesOf reads the attributes of chat id's head that Idle and Undelivered
// match on; nil when the head is gone or expired.
func (s *Store) timesOf(ctx context.Context, id, now int64) (*convai.Head, error) {
	out, err := s.client.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:            aws.String(s.table),
		Key:                  key(chatPK(id), headSortKey),
		ProjectionExpression: aws.String("#st, #pat, #sat, #pend, #exp"),
		ExpressionAttributeNames: map[string]string{
			"#st": "st", "#pat": "pat", "#sat": "sat", "#pend": "pend", "#exp": TTLAttribute,
		},
	})
	if err != nil {
		return nil, fmt.Errorf("read chat %d: %w", id, err)
	}
	var h headItem
	if out.Item == nil {
		return nil, nil
	}
	if err := attributevalue.UnmarshalMap(out.Item, &h); err != nil {
		return nil, fmt.Errorf("decode chat %d: %w", id, err)
	}
	if h.ExpiresAt <= now {
		return nil, nil
	}
	head := h.head(id)
	return &head, nil
}

func (s *Store) queryShard(ctx context.Context, partition, before string) ([]int64, error) {
	p := dynamodb.NewQueryPaginator(s.client, &dynamodb.QueryInput{
		TableName:              aws.String(s.table),
		IndexName:              aws.String(IndexName),
		KeyConditionExpression: aws.String("#p = :p AND #s < :t"),
		ExpressionAttributeNames: map[string]string{
			"#p": IndexPartitionKey,
			"#s": IndexSortKey,
		},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":p": &types.AttributeValueMemberS{Value: partition},
			":t": &types.AttributeValueMemberS{Value: before},
		},
	})
	var ids []int64
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("query %s: %w", partition, err)
		}
		for _, av := range page.Items {
			pk, _ := av[PartitionKey].(*types.AttributeValueMemberS)
			if pk == nil {
				continue
			}
			idText, ok := strings.CutPrefix(pk.Value, chatPrefix)
			if !ok {
				continue // not a chat
			}
			id, err := strconv.ParseInt(idText, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("query %s: bad key %q: %w", partition, pk.Value, err)
			}
			ids = append(ids, id)
		}
	}
	return ids, nil
}
