package dynamo

import (
	"context"
	"errors"
	"maps"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/duet"
)

// These tests need no DynamoDB: they check what the store asks of it. The
// behaviour against a real endpoint is in dynamo_test.go.

// fakeAPI is an API whose GetItem and PutItem are function fields; every
// other method fails the call.
type fakeAPI struct {
	API
	get func(*dynamodb.GetItemInput) (*dynamodb.GetItemOutput, error)
	put func(*dynamodb.PutItemInput) (*dynamodb.PutItemOutput, error)
}

func (f *fakeAPI) GetItem(_ context.Context, in *dynamodb.GetItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	return f.get(in)
}

func (f *fakeAPI) PutItem(_ context.Context, in *dynamodb.PutItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	return f.put(in)
}

var at = time.Date(2026, 3, 4, 5, 6, 7, 8, time.FixedZone("CET", 3600))

func TestItemIndexKeys(t *testing.T) {
	s := New(nil, "t")
	for _, tc := range []struct {
		name       string
		status     convai.Status
		outbox     []string
		pk, sk     string
		noIndexKey bool
	}{
		{"open with outbox", convai.Open, []string{"m"}, "OUTBOX#5", "2026-03-04T04:06:06.000000008Z", false},
		{"ended with outbox", convai.Ended, []string{"m"}, "OUTBOX#5", "2026-03-04T04:06:06.000000008Z", false},
		{"open, delivered", convai.Open, nil, "ACTIVE#5", "2026-03-04T04:06:07.000000008Z", false},
		{"ended, delivered", convai.Ended, nil, "", "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &convai.Chat{ID: -3, Status: tc.status, Outbox: tc.outbox, OutboxSince: at.Add(-time.Second), LastActivity: at, Version: 1}
			av, err := attributevalue.MarshalMap(s.item(c))
			if err != nil {
				t.Fatalf("MarshalMap: %v", err)
			}
			pk, hasPK := av[IndexPartitionKey].(*types.AttributeValueMemberS)
			sk, hasSK := av[IndexSortKey].(*types.AttributeValueMemberS)
			if tc.noIndexKey {
				if hasPK || hasSK {
					t.Errorf("index keys: got %v, %v; want none", av[IndexPartitionKey], av[IndexSortKey])
				}
				return
			}
			if !hasPK || !hasSK || pk.Value != tc.pk || sk.Value != tc.sk {
				t.Errorf("index keys: got %v, %v; want %s, %s", av[IndexPartitionKey], av[IndexSortKey], tc.pk, tc.sk)
			}
			if got := av[PartitionKey].(*types.AttributeValueMemberS).Value; got != "CHAT#-3" {
				t.Errorf("pk: got %s, want CHAT#-3", got)
			}
			// expires_at is LastActivity + TTL, rounded up to the second.
			want := at.Add(DefaultTTL).Unix() + 1
			if got := av[TTLAttribute].(*types.AttributeValueMemberN).Value; got != strconv.FormatInt(want, 10) {
				t.Errorf("expires_at: got %s, want %d", got, want)
			}
		})
	}
}

func TestShard(t *testing.T) {
	s := New(nil, "t", WithShards(8))
	for id, want := range map[int64]int64{0: 0, 9: 1, -1: 7, -9: 7, 1<<40 + 3: 3, -1 << 63: 0} {
		if got := s.shard(id); got != want {
			t.Errorf("shard(%d): got %d, want %d", id, got, want)
		}
	}
}

func TestSaveConditions(t *testing.T) {
	var got *dynamodb.PutItemInput
	f := &fakeAPI{put: func(in *dynamodb.PutItemInput) (*dynamodb.PutItemOutput, error) {
		got = in
		return &dynamodb.PutItemOutput{}, nil
	}}
	s := New(f, "sessions", WithClock(func() time.Time { return at }))
	for _, tc := range []struct {
		prev int64
		cond string
	}{
		{0, "attribute_not_exists(#pk) OR #exp <= :now"},
		{4, "#ver = :prev AND #exp > :now"},
	} {
		c := &convai.Chat{ID: 1, Status: convai.Open, LastActivity: at, Version: tc.prev + 1}
		if err := s.Save(context.Background(), c, tc.prev); err != nil {
			t.Fatalf("Save(prev %d): %v", tc.prev, err)
		}
		if cond := aws.ToString(got.ConditionExpression); cond != tc.cond {
			t.Errorf("prev %d: got condition %q, want %q", tc.prev, cond, tc.cond)
		}
		if now := got.ExpressionAttributeValues[":now"].(*types.AttributeValueMemberN).Value; now != strconv.FormatInt(at.Unix(), 10) {
			t.Errorf("prev %d: got :now %s, want %d", tc.prev, now, at.Unix())
		}
	}
}

func TestSaveErrors(t *testing.T) {
	for _, tc := range []struct {
		name     string
		err      error
		version  int64
		conflict bool
	}{
		{"condition failed", &types.ConditionalCheckFailedException{Message: aws.String("no")}, 1, true},
		{"other failure", errors.New("throttled"), 1, false},
		{"version not prev+1", nil, 3, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeAPI{put: func(*dynamodb.PutItemInput) (*dynamodb.PutItemOutput, error) {
				return &dynamodb.PutItemOutput{}, tc.err
			}}
			err := New(f, "t").Save(context.Background(), &convai.Chat{ID: 1, Version: tc.version}, 0)
			if err == nil {
				t.Fatal("Save: got nil error")
			}
			if errors.Is(err, duet.ErrConflict) != tc.conflict {
				t.Errorf("Save: got %v, want conflict %v", err, tc.conflict)
			}
		})
	}
}

func TestGetExpired(t *testing.T) {
	s := New(nil, "t", WithTTL(time.Hour), WithClock(func() time.Time { return at }))
	stored := func(last time.Time) *fakeAPI {
		item, err := attributevalue.MarshalMap(s.item(&convai.Chat{ID: 1, Status: convai.Open, LastActivity: last, Version: 1}))
		if err != nil {
			t.Fatalf("MarshalMap: %v", err)
		}
		return &fakeAPI{get: func(in *dynamodb.GetItemInput) (*dynamodb.GetItemOutput, error) {
			if !aws.ToBool(in.ConsistentRead) {
				t.Error("GetItem: got an eventually consistent read, want a consistent one")
			}
			return &dynamodb.GetItemOutput{Item: item}, nil
		}}
	}
	for _, tc := range []struct {
		name    string
		last    time.Time
		present bool
	}{
		{"live", at.Add(-time.Hour + 2*time.Second), true},
		{"expired", at.Add(-time.Hour - 2*time.Second), false},
	} {
		s.client = stored(tc.last)
		_, err := s.Get(context.Background(), 1)
		if got := !errors.Is(err, duet.ErrNotFound); got != tc.present || (tc.present && err != nil) {
			t.Errorf("%s: Get: got error %v, want present %v", tc.name, err, tc.present)
		}
	}
}

// TestSaveRecognisesItsRetriedWrite plays the SDK retrying a PutItem whose
// first answer was lost: the retry fails its condition against the item the
// first attempt wrote. That is this Save's own write, not a conflict; an
// item written by anyone else still is.
func TestSaveRecognisesItsRetriedWrite(t *testing.T) {
	for _, tc := range []struct {
		name     string
		stored   func(written map[string]types.AttributeValue) map[string]types.AttributeValue
		conflict bool
	}{
		{"own write", func(w map[string]types.AttributeValue) map[string]types.AttributeValue { return w }, false},
		{"another writer", func(w map[string]types.AttributeValue) map[string]types.AttributeValue {
			other := maps.Clone(w)
			other["write_id"] = &types.AttributeValueMemberS{Value: "someone-else"}
			return other
		}, true},
		{"no write id", func(map[string]types.AttributeValue) map[string]types.AttributeValue { return nil }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeAPI{put: func(in *dynamodb.PutItemInput) (*dynamodb.PutItemOutput, error) {
				if in.ReturnValuesOnConditionCheckFailure != types.ReturnValuesOnConditionCheckFailureAllOld {
					t.Errorf("ReturnValuesOnConditionCheckFailure = %q, want ALL_OLD", in.ReturnValuesOnConditionCheckFailure)
				}
				return nil, &types.ConditionalCheckFailedException{Message: aws.String("failed"), Item: tc.stored(in.Item)}
			}}
			err := New(f, "t").Save(context.Background(), &convai.Chat{ID: 1, Version: 2, LastActivity: at}, 1)
			if got := errors.Is(err, duet.ErrConflict); got != tc.conflict {
				t.Errorf("Save = %v, want conflict %v", err, tc.conflict)
			}
			if !tc.conflict && err != nil {
				t.Errorf("Save = %v, want nil", err)
			}
		})
	}
}
