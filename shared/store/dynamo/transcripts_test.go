package dynamo_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/duetbot/duet/shared/annex"
	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/duet"
	"github.com/duetbot/duet/shared/store/dynamo"
)

// smallPages is a dynamo.ReadAPI that asks for at most two items a Scan
// or Query page, so that the Archive's paging is exercised.
type smallPages struct{ *dynamodb.Client }

func (p smallPages) Scan(ctx context.Context, in *dynamodb.ScanInput, opts ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	in.Limit = aws.Int32(2)
	return p.Client.Scan(ctx, in, opts...)
}

func (p smallPages) Query(ctx context.Context, in *dynamodb.QueryInput, opts ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	in.Limit = aws.Int32(2)
	return p.Client.Query(ctx, in, opts...)
}

// storeChat writes a session of chat id through the Store: its start,
// one turn per partner message, and a final when ended.
func storeChat(t *testing.T, s *dynamo.Store, id int64, at time.Time, partner []string, ended bool) {
	t.Helper()
	ctx := context.Background()
	recs := []convai.Record{{Session: 1, Seq: 0, Kind: convai.StartRecord, Context: "chat context", UpdateID: 1, Sum: 1, At: at}}
	for i, p := range partner {
		recs = append(recs, convai.Record{Session: 1, Seq: int64(i + 1), Kind: convai.TurnRecord, UpdateID: int64(i + 2), Sum: 2, Partner: p, Bot: "reply to " + p, Rating: 5 + i, PartnerTurns: i + 1, At: at})
	}
	status := convai.Open
	if ended {
		recs = append(recs, convai.Record{Session: 1, Seq: int64(len(recs)), Kind: convai.EndRecord, At: at, Final: &brain.Scores{Quality: 6, Breadth: 2, Engagement: 5}})
		status = convai.Ended
	}
	for i := range recs {
		if err := s.Append(ctx, id, &recs[i]); err != nil {
			t.Fatalf("append chat %d record %d: %v", id, i, err)
		}
	}
	h := convai.Head{ChatID: id, Session: 1, Status: status, Sent: int64(len(recs) - 1), PartnerAt: at, SentAt: at, Version: 1}
	if err := s.Commit(ctx, h, 0); err != nil {
		t.Fatalf("commit chat %d: %v", id, err)
	}
}

func TestArchive(t *testing.T) {
	c := client(t)
	table := freshTable(t, c)
	ctx := context.Background()
	now := time.Now()
	// Chats 1..5 are live; chat 9 was written 3 days ago with a TTL of a
	// day, so every item of it has expired (DynamoDB may not have deleted
	// them yet: the reads must ignore them).
	live := dynamo.New(c, table, dynamo.WithTTL(time.Hour))
	for id := int64(1); id <= 5; id++ {
		storeChat(t, live, id, now, []string{"hello", "how are you?"}, id%2 == 0)
	}
	past := now.Add(-72 * time.Hour)
	old := dynamo.New(c, table, dynamo.WithTTL(24*time.Hour), dynamo.WithClock(func() time.Time { return past }))
	storeChat(t, old, 9, past, []string{"long ago"}, true)
	ex := annex.Exchange{Conversation: "c1", Request: annex.Message{From: "U1", ID: "1", Text: "hi Ada", Timestamp: "2026-11-22T10:00:00Z"}, Reply: annex.Message{From: annex.BotFrom, ID: "b1", Text: "hi!"}, At: now}
	if err := live.SaveExchange(ctx, ex); err != nil {
		t.Fatal(err)
	}
	stale := ex
	stale.Conversation, stale.At = "c0", past
	if err := old.SaveExchange(ctx, stale); err != nil {
		t.Fatal(err)
	}

	a := dynamo.NewArchive(smallPages{c}, table, nil)
	t.Run("every chat, paged", func(t *testing.T) {
		logs, read, err := a.Chats(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(logs) != 5 {
			t.Fatalf("got %d chats, want the 5 live ones", len(logs))
		}
		for i, l := range logs {
			wantRecs := 3
			if l.ID%2 == 0 {
				wantRecs = 4
			}
			if l.ID != int64(i+1) || l.Head == nil || len(l.Records) != wantRecs {
				t.Errorf("chat %d: head %v, %d records; want id %d, a head, %d records", l.ID, l.Head, len(l.Records), i+1, wantRecs)
				continue
			}
			for j, r := range l.Records {
				if r.Seq != int64(j) {
					t.Errorf("chat %d record %d has seq %d: not in order", l.ID, j, r.Seq)
				}
			}
			if r := l.Records[2]; r.Partner != "how are you?" || r.Bot != "reply to how are you?" || r.Rating != 6 {
				t.Errorf("chat %d record 2 = %+v, want the turn as stored", l.ID, r)
			}
		}
		// 5 live chats of 4 or 5 items, the expired chat's 3 items, all read.
		if read.Items != 3*4+2*5+4 || read.Pages < 10 {
			t.Errorf("read %+v, want 26 chat items over many pages of 2", read)
		}
	})
	t.Run("one chat", func(t *testing.T) {
		l, read, err := a.Chat(ctx, 2)
		if err != nil {
			t.Fatal(err)
		}
		if l.ID != 2 || l.Head == nil || l.Head.Status != convai.Ended || len(l.Records) != 4 || l.Records[3].Final == nil {
			t.Errorf("chat 2 = %+v, want its head and 4 records, the last with the final", l)
		}
		if read.Items != 5 || read.Pages < 3 {
			t.Errorf("read %+v, want 5 items over pages of 2", read)
		}
	})
	t.Run("unknown and expired chats", func(t *testing.T) {
		for _, id := range []int64{404, 9} {
			if _, _, err := a.Chat(ctx, id); !errors.Is(err, duet.ErrNotFound) {
				t.Errorf("Chat(%d) error = %v, want duet.ErrNotFound", id, err)
			}
		}
	})
	t.Run("annex exchanges", func(t *testing.T) {
		got, read, err := a.Exchanges(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0].Conversation != "c1" || got[0].Request.Text != "hi Ada" || got[0].Reply.Text != "hi!" {
			t.Errorf("exchanges = %+v, want the live one only", got)
		}
		if read.Items != 2 {
			t.Errorf("read %+v, want both annex items read", read)
		}
	})
	t.Run("missing table", func(t *testing.T) {
		_, _, err := dynamo.NewArchive(c, table+"-missing", nil).Chats(ctx)
		if !errors.Is(err, duet.ErrNotFound) || !strings.Contains(err.Error(), "does not exist") {
			t.Errorf("error = %v, want a not-found error saying the table does not exist", err)
		}
	})
}

// noCredentials is a dynamo.ReadAPI that fails as the SDK does when no
// credentials can be found: while signing.
type noCredentials struct{}

func (noCredentials) Scan(context.Context, *dynamodb.ScanInput, ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	return nil, &v4.SigningError{Err: errors.New("failed to retrieve credentials: no EC2 IMDS role found")}
}

func (noCredentials) Query(context.Context, *dynamodb.QueryInput, ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	return nil, &v4.SigningError{Err: errors.New("failed to retrieve credentials: no EC2 IMDS role found")}
}

func TestArchiveNoCredentials(t *testing.T) {
	a := dynamo.NewArchive(noCredentials{}, "t", nil)
	_, _, err := a.Chats(context.Background())
	if err == nil || !strings.Contains(err.Error(), "no AWS credentials") || !strings.Contains(err.Error(), "DYNAMODB_ENDPOINT") {
		t.Errorf("Chats error = %v, want one saying there are no credentials and what to set", err)
	}
	_, _, err = a.Chat(context.Background(), 1)
	if err == nil || !strings.Contains(err.Error(), "no AWS credentials") {
		t.Errorf("Chat error = %v, want one saying there are no credentials", err)
	}
}
