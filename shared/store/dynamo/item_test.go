package dynamo

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/duet"
)

// These tests need no DynamoDB: they check what the store asks of it. The
// behaviour against a real endpoint is in dynamo_test.go.

// fakeAPI is an API whose Query and PutItem are function fields; every
// other method fails the call.
type fakeAPI struct {
	API
	query func(*dynamodb.QueryInput) (*dynamodb.QueryOutput, error)
	put   func(*dynamodb.PutItemInput) (*dynamodb.PutItemOutput, error)
}

func (f *fakeAPI) Query(_ context.Context, in *dynamodb.QueryInput, _ ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	return f.query(in)
}

func (f *fakeAPI) PutItem(_ context.Context, in *dynamodb.PutItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	return f.put(in)
}

var at = time.Date(2026, 3, 4, 5, 6, 7, 8, time.FixedZone("CET", 3600))

func TestHeadIndexKeys(t *testing.T) {
	s := New(nil, "t")
	for _, tc := range []struct {
		name       string
		status     convai.Status
		pending    time.Time
		sentAt     time.Time
		pk, sk     string
		noIndexKey bool
	}{
		{"open, a sender gave up", convai.Open, at.Add(-time.Second), time.Time{}, "OUTBOX#5", "2026-03-04T04:06:06.000000008Z", false},
		{"ended, final pending", convai.Ended, at.Add(-time.Second), time.Time{}, "OUTBOX#5", "2026-03-04T04:06:06.000000008Z", false},
		// An open chat's time is rounded down to the 5-minute grain.
		{"open, delivered", convai.Open, time.Time{}, time.Time{}, "ACTIVE#5", "2026-03-04T04:05:00.000000000Z", false},
		{"open, bot spoke last", convai.Open, time.Time{}, at.Add(5 * time.Minute), "ACTIVE#5", "2026-03-04T04:10:00.000000000Z", false},
		{"ended, delivered", convai.Ended, time.Time{}, time.Time{}, "", "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := &convai.Head{ChatID: -3, Status: tc.status, Pending: tc.pending, PartnerAt: at, SentAt: tc.sentAt, Version: 1}
			av, err := attributevalue.MarshalMap(s.headItem(h))
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
			// expires_at is the idle instant + TTL, rounded up to the second.
			want := h.IdleSince().Add(DefaultTTL).Unix() + 1
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

// TestSortKeys checks the order one descending Query relies on: the head,
// then the newest session's start, then its records newest first, then
// older sessions.
func TestSortKeys(t *testing.T) {
	keys := []string{headSortKey, recordSK(12, 0), recordSK(12, 11), recordSK(12, 10), recordSK(12, 2), recordSK(11, 0), recordSK(11, 99), recordPrefix}
	for i := 1; i < len(keys); i++ {
		if keys[i-1] <= keys[i] {
			t.Errorf("sort key %q does not sort after %q", keys[i-1], keys[i])
		}
	}
}

func TestWriteConditions(t *testing.T) {
	var got *dynamodb.PutItemInput
	f := &fakeAPI{put: func(in *dynamodb.PutItemInput) (*dynamodb.PutItemOutput, error) {
		got = in
		return &dynamodb.PutItemOutput{}, nil
	}}
	s := New(f, "sessions", WithClock(func() time.Time { return at }))
	for _, tc := range []struct {
		name  string
		write func() error
		cond  string
	}{
		{"append", func() error { return s.Append(context.Background(), 1, &convai.Record{Session: 1, Seq: 3, At: at}) },
			"attribute_not_exists(#pk) OR #exp <= :now"},
		{"create head", func() error { return s.Commit(context.Background(), convai.Head{ChatID: 1, Version: 1}, 0) },
			"attribute_not_exists(#pk) OR #exp <= :now"},
		{"update head", func() error { return s.Commit(context.Background(), convai.Head{ChatID: 1, Version: 5}, 4) },
			"#ver = :prev AND #exp > :now"},
	} {
		if err := tc.write(); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if cond := aws.ToString(got.ConditionExpression); cond != tc.cond {
			t.Errorf("%s: got condition %q, want %q", tc.name, cond, tc.cond)
		}
		if now := got.ExpressionAttributeValues[":now"].(*types.AttributeValueMemberN).Value; now != strconv.FormatInt(at.Unix(), 10) {
			t.Errorf("%s: got :now %s, want %d", tc.name, now, at.Unix())
		}
	}
}

func TestCommitErrors(t *testing.T) {
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
			err := New(f, "t").Commit(context.Background(), convai.Head{ChatID: 1, Version: tc.version}, 0)
			if err == nil {
				t.Fatal("Commit: got nil error")
			}
			if errors.Is(err, duet.ErrConflict) != tc.conflict {
				t.Errorf("Commit: got %v, want conflict %v", err, tc.conflict)
			}
		})
	}
}

func TestLoadExpired(t *testing.T) {
	s := New(nil, "t", WithTTL(time.Hour), WithClock(func() time.Time { return at }))
	stored := func(last time.Time) *fakeAPI {
		head, err := attributevalue.MarshalMap(s.headItem(&convai.Head{ChatID: 1, Status: convai.Open, PartnerAt: last, Version: 1}))
		if err != nil {
			t.Fatalf("MarshalMap: %v", err)
		}
		return &fakeAPI{query: func(in *dynamodb.QueryInput) (*dynamodb.QueryOutput, error) {
			if !aws.ToBool(in.ConsistentRead) || aws.ToBool(in.ScanIndexForward) {
				t.Error("Query: want a consistent read, newest first")
			}
			return &dynamodb.QueryOutput{Items: []map[string]types.AttributeValue{head}}, nil
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
		_, err := s.Load(context.Background(), 1)
		if got := !errors.Is(err, duet.ErrNotFound); got != tc.present || (tc.present && err != nil) {
			t.Errorf("%s: Load: got error %v, want present %v", tc.name, err, tc.present)
		}
	}
}

// TestCommitRecognisesItsRetriedWrite plays the SDK retrying a PutItem whose
// first answer was lost: the retry fails its condition against the item the
// first attempt wrote. That is this write's own, not a conflict; an item
// written by anyone else still is.
func TestCommitRecognisesItsRetriedWrite(t *testing.T) {
	for _, tc := range []struct {
		name     string
		stored   func(written map[string]types.AttributeValue) map[string]types.AttributeValue
		conflict bool
	}{
		{"own write", func(w map[string]types.AttributeValue) map[string]types.AttributeValue { return w }, false},
		{"another writer", func(w map[string]types.AttributeValue) map[string]types.AttributeValue {
			other := maps.Clone(w)
			other[writeIDAttr] = &types.AttributeValueMemberS{Value: "someone-else"}
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
			err := New(f, "t").Commit(context.Background(), convai.Head{ChatID: 1, Version: 2, PartnerAt: at}, 1)
			if got := errors.Is(err, duet.ErrConflict); got != tc.conflict || (!tc.conflict && err != nil) {
				t.Errorf("Commit = %v, want conflict %v", err, tc.conflict)
			}
		})
	}
}

// TestFinalRoundTrip writes a record's final through Append and reads it
// back: the router's score and profile guess (index 0 included) survive,
// and a final without them stays without them.
func TestFinalRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name  string
		final brain.Scores
	}{
		{"2017 scores only", brain.Scores{Quality: 3, Breadth: 4, Engagement: 5}},
		{"score, no profile", brain.Scores{Quality: 3, Breadth: 4, Engagement: 5, Score: 2}},
		{"profile 0", brain.Scores{Quality: 3, Breadth: 4, Engagement: 5, Score: 5, Profile: new(int)}},
		{"profile 7", brain.Scores{Quality: 10, Breadth: 1, Engagement: 9, Score: 1, Profile: func() *int { i := 7; return &i }()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var written map[string]types.AttributeValue
			f := &fakeAPI{put: func(in *dynamodb.PutItemInput) (*dynamodb.PutItemOutput, error) {
				written = in.Item
				return &dynamodb.PutItemOutput{}, nil
			}}
			final := tc.final
			rec := &convai.Record{Session: 1, Seq: 2, Kind: convai.EndRecord, At: at, Final: &final}
			if err := New(f, "t").Append(context.Background(), 1, rec); err != nil {
				t.Fatal(err)
			}
			var it recordItem
			if err := attributevalue.UnmarshalMap(written, &it); err != nil {
				t.Fatal(err)
			}
			got := it.record().Final
			if got == nil || !reflect.DeepEqual(*got, tc.final) {
				t.Errorf("final read back = %+v, want %+v", got, tc.final)
			}
		})
	}
}

// TestSaidPacking: reply hashes round-trip through their packing, odd and
// even counts alike, in a byte and a half each.
func TestSaidPacking(t *testing.T) {
	for n := range 8 {
		said := make([]uint16, n)
		for i := range said {
			said[i] = uint16(i*1237+5) & (1<<convai.HashBits - 1)
		}
		b := packSaid(said)
		if want := (3*n + 1) / 2; len(b) != want {
			t.Errorf("%d hashes: %d bytes, want %d", n, len(b), want)
		}
		if got := unpackSaid(b); fmt.Sprint(got) != fmt.Sprint(said) && !(n == 0 && got == nil) {
			t.Errorf("%d hashes: got %v back, want %v", n, got, said)
		}
	}
}

// TestItemSizes holds the items a message writes to one write unit (1 KB)
// with typical chat messages, whatever the chat's length: the head carries
// no text, a bounded list of ids and the hashes of a session's replies
// (at most convai.MaxSaid).
func TestItemSizes(t *testing.T) {
	s := New(nil, "t")
	recent := make([]int64, 16)
	for i := range recent {
		recent[i] = -1<<62 + int64(i)*7919
	}
	said := make([]uint16, convai.MaxSaid)
	for i := range said {
		said[i] = 1<<convai.HashBits - 1 - uint16(i)
	}
	h := &convai.Head{ChatID: -1001234567890, Session: 123, Status: convai.Open, Sent: 99, Part: 1, Recent: recent, Said: said,
		PartnerAt: at, SentAt: at, Pending: at, Version: 1 << 20}
	av, err := attributevalue.MarshalMap(s.headItem(h))
	if err != nil {
		t.Fatal(err)
	}
	av[writeIDAttr] = &types.AttributeValueMemberS{Value: strings.Repeat("x", 26)}
	if n := ItemSize(av); n > 1024 {
		t.Errorf("largest head: %d bytes, want <= 1024", n)
	} else {
		t.Logf("largest head: %d bytes", n)
	}
	msg := strings.Repeat("Sure, I'd love to talk about that; ", 6)[:200]
	r := recordItem{PK: chatPK(-1001234567890), SK: recordSK(123, 99), Session: 123, Seq: 99, Kind: "turn",
		UpdateID: 1 << 40, Sum: 1 << 63, Partner: msg, Bot: msg, Rating: 10, PartnerTurns: 99, At: at.UnixNano(),
		LeaseOwner: strings.Repeat("o", 16), LeaseUntil: at.UnixNano(), ExpiresAt: at.Unix(), WriteID: strings.Repeat("x", 26),
		Final: &finalScore{Quality: 10, Breadth: 10, Engagement: 10, Score: 100, Profile: 32}}
	if av, err = attributevalue.MarshalMap(r); err != nil {
		t.Fatal(err)
	}
	if n := ItemSize(av); n > 1024 {
		t.Errorf("record of two 200-character messages: %d bytes, want <= 1024", n)
	}
}
