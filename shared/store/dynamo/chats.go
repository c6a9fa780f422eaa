package dynamo

import (
	"cmp"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/duet"
)

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
