package dynamo_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/convai/convaitest"
	"github.com/duetbot/duet/shared/store/dynamo"
	"github.com/duetbot/duet/shared/store/dynamo/dynamotest"
	"github.com/duetbot/duet/shared/store/storetest"
)

// client returns a client for the DynamoDB endpoint the tests run against,
// or skips the test when there is none.
func client(t *testing.T) *dynamodb.Client {
	t.Helper()
	endpoint := dynamotest.Endpoint(t)
	c, err := dynamo.NewClient(context.Background(), endpoint)
	if err != nil {
		t.Fatalf("NewClient(%q): %v", endpoint, err)
	}
	return c
}

// freshTable creates a table with a new name, the way `duet table create`
// does, and deletes it when the test ends.
func freshTable(t *testing.T, c *dynamodb.Client) string {
	t.Helper()
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		t.Fatalf("random table name: %v", err)
	}
	name := "duet-test-" + hex.EncodeToString(b)
	ctx := context.Background()
	if err := dynamo.CreateTable(ctx, c, name); err != nil {
		t.Fatalf("CreateTable(%s): %v", name, err)
	}
	t.Cleanup(func() {
		if _, err := c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(name)}); err != nil {
			t.Logf("delete table %s: %v", name, err)
		}
	})
	return name
}

// counting is a dynamo.API that counts the calls it passes on. With limit
// set it caps every Query page of the index at that many items, to exercise
// pagination.
type counting struct {
	c     *dynamodb.Client
	limit int32

	mu             sync.Mutex
	calls          map[string]int
	consistentGets int
	writes         []int // size in bytes of each item written
	reads          []int // bytes read by each consistent Query of the table
	written        map[string]int
	entries        map[string]indexEntry // each item's by_activity entry
	indexUnits     int                   // write units of the index, all told
	projected      []string              // the index's non-key attributes, as the table declares them
}

// indexEntry is what the by_activity index holds of an item: its keys and
// its projected attributes.
type indexEntry struct{ pk, sk, projected string }

// readProjection sets the non-key attributes the table's by_activity index
// projects, from DescribeTable, so that indexed counts what the real
// schema costs.
func (w *counting) readProjection(t *testing.T, table string) {
	t.Helper()
	out, err := w.c.DescribeTable(context.Background(), &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	if err != nil {
		t.Fatal(err)
	}
	for _, ix := range out.Table.GlobalSecondaryIndexes {
		if aws.ToString(ix.IndexName) == dynamo.IndexName {
			if ix.Projection.ProjectionType == types.ProjectionTypeAll {
				t.Fatal("the index projects every attribute: every write would update it")
			}
			w.projected = ix.Projection.NonKeyAttributes
		}
	}
}

func newCounting(c *dynamodb.Client) *counting {
	return &counting{c: c, calls: map[string]int{}, written: map[string]int{}}
}

// wcu returns the write units of writing item (new size n): a PutItem or
// UpdateItem is billed for the larger of the old and the new item.
func (w *counting) wrote(key map[string]types.AttributeValue, n int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	k := fmt.Sprint(key[dynamo.PartitionKey], key[dynamo.SortKey])
	w.writes = append(w.writes, max(n, w.written[k]))
	w.written[k] = n
}

func (w *counting) count(op string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.calls[op]++
}

// snapshot returns the counts so far and resets them.
func (w *counting) snapshot() (calls map[string]int, consistentGets int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	calls, consistentGets = w.calls, w.consistentGets
	w.calls, w.consistentGets = map[string]int{}, 0
	return calls, consistentGets
}

// costs returns the sizes of the items written and read since the last
// call, and resets them.
func (w *counting) costs() (writes, reads []int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	writes, reads = w.writes, w.reads
	w.writes, w.reads = nil, nil
	return writes, reads
}

func (w *counting) GetItem(ctx context.Context, in *dynamodb.GetItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	w.count("GetItem")
	if aws.ToBool(in.ConsistentRead) {
		w.mu.Lock()
		w.consistentGets++
		w.mu.Unlock()
	}
	return w.c.GetItem(ctx, in, opts...)
}

func (w *counting) PutItem(ctx context.Context, in *dynamodb.PutItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	w.count("PutItem")
	out, err := w.c.PutItem(ctx, in, opts...)
	if err == nil {
		w.wrote(in.Item, dynamo.ItemSize(in.Item))
		w.indexed(in.Item)
	}
	return out, err
}

// indexed counts the by_activity index's write units that putting item
// costs, as DynamoDB accounts them for an index entry of at most 1 KB: one
// to add or remove the entry, one to update a projected attribute, two (a
// delete and a put) to change its keys, none when the keys and the
// projected attributes stay as they were.
func (w *counting) indexed(item map[string]types.AttributeValue) {
	str := func(k string) string {
		switch v := item[k].(type) {
		case *types.AttributeValueMemberS:
			return v.Value
		case *types.AttributeValueMemberN:
			return v.Value
		}
		return ""
	}
	key := str(dynamo.PartitionKey) + "\x00" + str(dynamo.SortKey)
	var proj strings.Builder
	for _, a := range w.projected {
		proj.WriteString(str(a) + "\x00")
	}
	e := indexEntry{str(dynamo.IndexPartitionKey), str(dynamo.IndexSortKey), proj.String()}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.entries == nil {
		w.entries = map[string]indexEntry{}
	}
	old, had := w.entries[key]
	has := e.pk != ""
	switch {
	case had && has && (old.pk != e.pk || old.sk != e.sk):
		w.indexUnits += 2
	case had != has || (has && old.projected != e.projected):
		w.indexUnits++
	}
	if has {
		w.entries[key] = e
	} else {
		delete(w.entries, key)
	}
}

func (w *counting) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	w.count("UpdateItem")
	in.ReturnValues = types.ReturnValueAllNew
	out, err := w.c.UpdateItem(ctx, in, opts...)
	if err == nil {
		w.wrote(in.Key, dynamo.ItemSize(out.Attributes))
	}
	return out, err
}

func (w *counting) Query(ctx context.Context, in *dynamodb.QueryInput, opts ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	w.count("Query")
	if w.limit > 0 && in.IndexName != nil {
		in.Limit = aws.Int32(w.limit)
	}
	out, err := w.c.Query(ctx, in, opts...)
	if err == nil && in.IndexName == nil {
		n := 0
		for _, it := range out.Items {
			n += dynamo.ItemSize(it)
		}
		w.mu.Lock()
		w.reads = append(w.reads, n)
		w.mu.Unlock()
	}
	return out, err
}

// Scan is here so that a store reaching for it through a type assertion
// would be counted; none should.
func (w *counting) Scan(ctx context.Context, in *dynamodb.ScanInput, opts ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	w.count("Scan")
	return w.c.Scan(ctx, in, opts...)
}

func (w *counting) DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	w.count("DeleteItem")
	return w.c.DeleteItem(ctx, in, opts...)
}

func (w *counting) CreateTable(ctx context.Context, in *dynamodb.CreateTableInput, opts ...func(*dynamodb.Options)) (*dynamodb.CreateTableOutput, error) {
	w.count("CreateTable")
	return w.c.CreateTable(ctx, in, opts...)
}

func (w *counting) DescribeTable(ctx context.Context, in *dynamodb.DescribeTableInput, opts ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error) {
	w.count("DescribeTable")
	return w.c.DescribeTable(ctx, in, opts...)
}

func (w *counting) UpdateTimeToLive(ctx context.Context, in *dynamodb.UpdateTimeToLiveInput, opts ...func(*dynamodb.Options)) (*dynamodb.UpdateTimeToLiveOutput, error) {
	w.count("UpdateTimeToLive")
	return w.c.UpdateTimeToLive(ctx, in, opts...)
}

func (w *counting) DescribeTimeToLive(ctx context.Context, in *dynamodb.DescribeTimeToLiveInput, opts ...func(*dynamodb.Options)) (*dynamodb.DescribeTimeToLiveOutput, error) {
	w.count("DescribeTimeToLive")
	return w.c.DescribeTimeToLive(ctx, in, opts...)
}

func TestContract(t *testing.T) {
	c := client(t)
	storetest.Run(t, func(t *testing.T, now func() time.Time, ttl time.Duration) convai.Store {
		return dynamo.New(c, freshTable(t, c), dynamo.WithClock(now), dynamo.WithTTL(ttl))
	})
}

// TestContractPaged runs the suite with one item per Query page and fewer
// shards, so that the paginated and shared-shard paths run too.
func TestContractPaged(t *testing.T) {
	c := client(t)
	storetest.Run(t, func(t *testing.T, now func() time.Time, ttl time.Duration) convai.Store {
		w := newCounting(c)
		w.limit = 1
		return dynamo.New(w, freshTable(t, c), dynamo.WithClock(now), dynamo.WithTTL(ttl), dynamo.WithShards(2))
	})
}

func TestCreateTableIdempotent(t *testing.T) {
	c := client(t)
	table := freshTable(t, c)
	ctx := context.Background()
	enabled, err := dynamo.EnsureTable(ctx, c, table)
	if err != nil {
		t.Fatalf("EnsureTable on an existing table: %v", err)
	}
	if !enabled {
		// dynalite has no UpdateTimeToLive: the table works, and every read
		// treats expired items as absent anyway.
		t.Log("this DynamoDB cannot enable TTL; not checking it")
	} else {
		ttl, err := c.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(table)})
		if err != nil {
			t.Fatalf("DescribeTimeToLive: %v", err)
		}
		if d := ttl.TimeToLiveDescription; d == nil || aws.ToString(d.AttributeName) != dynamo.TTLAttribute ||
			d.TimeToLiveStatus != types.TimeToLiveStatusEnabled {
			t.Errorf("TTL: got %+v, want enabled on %s", d, dynamo.TTLAttribute)
		}
	}
	desc, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	if err != nil {
		t.Fatalf("DescribeTable: %v", err)
	}
	if n := len(desc.Table.GlobalSecondaryIndexes); n != 1 {
		t.Fatalf("indexes: got %d, want 1", n)
	}
	ix := desc.Table.GlobalSecondaryIndexes[0]
	if aws.ToString(ix.IndexName) != dynamo.IndexName || ix.Projection == nil ||
		ix.Projection.ProjectionType != types.ProjectionTypeKeysOnly || len(ix.Projection.NonKeyAttributes) != 0 {
		t.Errorf("index: got %s projecting %+v, want %s projecting KEYS_ONLY", aws.ToString(ix.IndexName), ix.Projection, dynamo.IndexName)
	}
}

// brief replies in a few words, as the cost budget assumes a reply does
// (convaitest.Echo's repeat the partner's whole message).
type brief struct{ convaitest.Echo }

// Reply names how many turns the chat has.
func (brief) Reply(_ context.Context, req brain.Request) (string, error) {
	return fmt.Sprintf("reply after %d turns", len(req.Turns)), nil
}

// engine returns an Engine on a fresh table whose calls w counts.
func engine(t *testing.T) (*convai.Engine, *counting, *convaitest.Clock, *convaitest.Outbox) {
	t.Helper()
	c := client(t)
	w := newCounting(c)
	clock := convaitest.NewClock(time.Now().UTC())
	sender := &convaitest.Outbox{}
	table := freshTable(t, c)
	w.readProjection(t, table)
	e := &convai.Engine{
		Store:     dynamo.New(w, table, dynamo.WithClock(clock.Now)),
		Sender:    sender,
		Replier:   brief{},
		Evaluator: convaitest.Echo{},
		Now:       clock.Now,
		Log:       slog.New(slog.DiscardHandler),
	}
	return e, w, clock, sender
}

// TestCostPerMessage holds each partner message to the design's budget:
// one consistent Query of at most 4 KB, and at most two writes of at most
// 1 KB each, whatever the chat's length; a whole 20-turn chat costs at
// most 45 write units.
func TestCostPerMessage(t *testing.T) {
	e, w, clock, sender := engine(t)
	e.MaxTurns = 100
	ctx := context.Background()
	const id = -1001234567890
	paragraph := strings.Repeat("A paragraph to discuss, as the 2017 server sent them. ", 12)
	sentence := "I think the wasp was more scared than you were, to be honest with you; "
	totalWCU := 0
	for turn := range 22 {
		text := fmt.Sprintf("%s (turn %d) %s", sentence, turn, sentence)
		switch turn {
		case 0:
			text = "/start " + paragraph
		case 21:
			text = "/end"
		}
		w.snapshot()
		w.costs()
		if err := e.Handle(ctx, convai.Update{UpdateID: int64(1000 + turn), ChatID: id, Text: text}); err != nil {
			t.Fatalf("turn %d: Handle: %v", turn, err)
		}
		clock.Advance(20 * time.Second)
		calls, _ := w.snapshot()
		writes, reads := w.costs()
		if calls["Query"] != 1 || len(reads) != 1 || calls["GetItem"] != 0 || calls["Scan"] != 0 {
			t.Errorf("turn %d: calls %v, want exactly one Query", turn, calls)
		}
		for _, n := range reads {
			if n > 4096 {
				t.Errorf("turn %d: the read returned %d bytes, want <= 4 KB", turn, n)
			}
		}
		if len(writes) > 2 || calls["UpdateItem"] != 0 {
			t.Errorf("turn %d: %d writes (%v), want at most two PutItems", turn, len(writes), calls)
		}
		for _, n := range writes {
			if turn > 0 && n > 1024 {
				t.Errorf("turn %d: wrote an item of %d bytes, want <= 1 KB", turn, n)
			}
			totalWCU += (n + 1023) / 1024
		}
	}
	if got := len(sender.Messages()); got != 21 {
		t.Errorf("messages sent: got %d, want 20 replies and the final", got)
	}
	// The /start writes the context (about 650 bytes here) once.
	if totalWCU > 45 {
		t.Errorf("the whole 20-turn chat cost %d write units, want <= 45", totalWCU)
	}
	// The head's index entry holds its last activity to 5 minutes, and
	// only keys: a message every 20 s moves it (a delete and a put, two
	// units) about once in 15 messages, plus the entry's first write and
	// its removal at /end (docs/operations.md: What a million messages cost).
	w.mu.Lock()
	indexUnits := w.indexUnits
	w.mu.Unlock()
	if indexUnits > 8 {
		t.Errorf("the whole 22-update chat cost %d write units of the by_activity index, want <= 8", indexUnits)
	}
	t.Logf("20-turn chat: %d write units, %d of the index", totalWCU, indexUnits)
}

// TestSweepQueries checks that the sweeper finds idle chats with Queries of
// the index, never a Scan.
func TestSweepQueries(t *testing.T) {
	e, w, clock, sender := engine(t)
	ctx := context.Background()
	for i, text := range []string{"/start\nthe sea\n/begin", "I like boats"} {
		if err := e.Handle(ctx, convai.Update{UpdateID: int64(i + 1), ChatID: -4000000001, Text: text}); err != nil {
			t.Fatalf("Handle(%q): %v", text, err)
		}
	}
	clock.Advance(convai.DefaultIdleTimeout + time.Second)
	w.snapshot()
	res, err := e.Sweep(ctx)
	if err != nil || res.Ended != 1 || res.Failed != 0 {
		t.Fatalf("Sweep: got %+v, %v; want 1 ended", res, err)
	}
	calls, _ := w.snapshot()
	if calls["Scan"] != 0 {
		t.Errorf("Scan calls: got %d, want 0", calls["Scan"])
	}
	// One Query per shard for each of Undelivered and Idle, and one read of
	// the idle chat: the cost grows with idle chats, not with all chats.
	if want := 2*dynamo.DefaultShards + 1; calls["Query"] != want {
		t.Errorf("Query calls: got %d, want %d", calls["Query"], want)
	}
	if got := len(sender.Messages()); got != 3 {
		t.Errorf("messages sent: got %d, want 3 (opening, reply, final scores)", got)
	}
}

// TestFaults races the delivery guarantees with two engines on one table
// (see storetest.RunFaults).
func TestFaults(t *testing.T) {
	c := client(t)
	storetest.RunFaults(t, storetest.FaultConfig{Chats: 24, Messages: 6}, func(t *testing.T) convai.Store {
		return dynamo.New(c, freshTable(t, c))
	})
}
