package dynamo

import (
	"context"
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

	"github.com/duetbot/duet/shared/convai"
)

// indexGrain is the resolution of an open chat's ACTIVE index time: the
// start of its idle time rounded down to it. DynamoDB writes an index entry
// (a delete and a put, two write units) only when its keys or projected
// attributes change; with times to the grain, and only keys projected, a
// lively chat's messages leave its entry alone for minutes, instead of
// moving it with every message. Idle applies the exact time from the head.
const indexGrain = 5 * time.Minute

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
