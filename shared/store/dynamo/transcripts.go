package dynamo

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/duetbot/duet/shared/annex"
	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/duet"
)

// ReadAPI is the part of the DynamoDB client an Archive uses. The bots
// never Scan (their API has no Scan); an operator reading every chat does.
type ReadAPI interface {
	Query(ctx context.Context, in *dynamodb.QueryInput, opts ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error)
	Scan(ctx context.Context, in *dynamodb.ScanInput, opts ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error)
}

var _ ReadAPI = (*dynamodb.Client)(nil)

// Archive reads what the bots stored, for an operator: every ConvAI chat
// with all its records, one chat, or every annex exchange. Expired items
// are absent, as on every other read.
type Archive struct {
	client ReadAPI
	table  string
	now    func() time.Time
}

// NewArchive returns an Archive of table. now is the clock expiry is
// judged by (nil: time.Now).
func NewArchive(client ReadAPI, table string, now func() time.Time) *Archive {
	if now == nil {
		now = time.Now
	}
	return &Archive{client: client, table: table, now: now}
}

// ChatLog is everything stored of one ConvAI chat: its head (nil when it
// expired or was never written) and its live records, in key order
// (session, then sequence).
type ChatLog struct {
	ID      int64
	Head    *convai.Head
	Records []convai.Record
}

// Read counts what a read went through: the items DynamoDB examined
// (Scanned) and those that were the read's kind (Items, expired included).
type Read struct {
	Scanned int
	Items   int
	Pages   int
}

// Chats returns every chat in the table, ordered by id, with one paged
// Scan of the chat partitions.
func (a *Archive) Chats(ctx context.Context) ([]ChatLog, Read, error) {
	logs := map[int64]*ChatLog{}
	read, err := a.scan(ctx, chatPrefix, func(av map[string]types.AttributeValue) error {
		return a.addChatItem(logs, av)
	})
	if err != nil {
		return nil, read, err
	}
	out := make([]ChatLog, 0, len(logs))
	for _, l := range logs {
		sortRecords(l.Records)
		out = append(out, *l)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, read, nil
}

// Chat returns one chat, with a paged Query of its partition; an error
// wrapping duet.ErrNotFound when nothing of it is live.
func (a *Archive) Chat(ctx context.Context, id int64) (ChatLog, Read, error) {
	logs := map[int64]*ChatLog{}
	in := &dynamodb.QueryInput{
		TableName:                 aws.String(a.table),
		KeyConditionExpression:    aws.String("#pk = :pk"),
		ExpressionAttributeNames:  map[string]string{"#pk": PartitionKey},
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: chatPK(id)}},
		ConsistentRead:            aws.Bool(true),
	}
	var read Read
	for pages := dynamodb.NewQueryPaginator(a.client, in); pages.HasMorePages(); {
		out, err := pages.NextPage(ctx)
		if err != nil {
			return ChatLog{}, read, a.explain(fmt.Sprintf("read chat %d", id), err)
		}
		read.Pages++
		read.Scanned += int(out.ScannedCount)
		for _, av := range out.Items {
			read.Items++
			if err := a.addChatItem(logs, av); err != nil {
				return ChatLog{}, read, err
			}
		}
	}
	l, ok := logs[id]
	if !ok {
		return ChatLog{}, read, fmt.Errorf("chat %d: %w", id, duet.ErrNotFound)
	}
	sortRecords(l.Records)
	return *l, read, nil
}

// Exchanges returns every live annex exchange, ordered by conversation
// and then by key (the request's time), with one paged Scan.
func (a *Archive) Exchanges(ctx context.Context) ([]annex.Exchange, Read, error) {
	type keyed struct {
		sk string
		ex annex.Exchange
	}
	var items []keyed
	now := a.now().Unix()
	read, err := a.scan(ctx, annexPrefix, func(av map[string]types.AttributeValue) error {
		var it exchangeItem
		if err := attributevalue.UnmarshalMap(av, &it); err != nil {
			return fmt.Errorf("decode annex item: %w", err)
		}
		if it.ExpiresAt <= now || !strings.HasPrefix(it.SK, messagePrefix) {
			return nil
		}
		ex := annex.Exchange{Conversation: it.Conversation, Request: it.Request, Reply: it.Reply}
		if t, err := parseIndexTime(it.At); err == nil {
			ex.At = t
		}
		items = append(items, keyed{it.SK, ex})
		return nil
	})
	if err != nil {
		return nil, read, err
	}
	sort.Slice(items, func(i, j int) bool {
		if items[i].ex.Conversation != items[j].ex.Conversation {
			return items[i].ex.Conversation < items[j].ex.Conversation
		}
		return items[i].sk < items[j].sk
	})
	out := make([]annex.Exchange, len(items))
	for i, it := range items {
		out[i] = it.ex
	}
	return out, read, nil
}

// scan calls each for every item whose partition key begins with prefix,
// following pagination.
func (a *Archive) scan(ctx context.Context, prefix string, each func(map[string]types.AttributeValue) error) (Read, error) {
	in := &dynamodb.ScanInput{
		TableName:                 aws.String(a.table),
		FilterExpression:          aws.String("begins_with(#pk, :prefix)"),
		ExpressionAttributeNames:  map[string]string{"#pk": PartitionKey},
		ExpressionAttributeValues: map[string]types.AttributeValue{":prefix": &types.AttributeValueMemberS{Value: prefix}},
		ConsistentRead:            aws.Bool(true),
	}
	var read Read
	for pages := dynamodb.NewScanPaginator(a.client, in); pages.HasMorePages(); {
		out, err := pages.NextPage(ctx)
		if err != nil {
			return read, a.explain("scan "+strings.TrimSuffix(prefix, "#")+" items", err)
		}
		read.Pages++
		read.Scanned += int(out.ScannedCount)
		for _, av := range out.Items {
			read.Items++
			if err := each(av); err != nil {
				return read, err
			}
		}
	}
	return read, nil
}

// addChatItem adds a chat head or record to its log, unless it expired.
func (a *Archive) addChatItem(logs map[int64]*ChatLog, av map[string]types.AttributeValue) error {
	pk, _ := av[PartitionKey].(*types.AttributeValueMemberS)
	sk, _ := av[SortKey].(*types.AttributeValueMemberS)
	if pk == nil || sk == nil {
		return nil
	}
	id, err := strconv.ParseInt(strings.TrimPrefix(pk.Value, chatPrefix), 10, 64)
	if err != nil {
		return nil // not a chat partition
	}
	now := a.now().Unix()
	log := func() *ChatLog {
		l, ok := logs[id]
		if !ok {
			l = &ChatLog{ID: id}
			logs[id] = l
		}
		return l
	}
	switch {
	case sk.Value == headSortKey:
		var h headItem
		if err := attributevalue.UnmarshalMap(av, &h); err != nil {
			return fmt.Errorf("decode chat %d: %w", id, err)
		}
		if h.ExpiresAt <= now {
			return nil
		}
		head := h.head(id)
		log().Head = &head
	case strings.HasPrefix(sk.Value, recordPrefix):
		var r recordItem
		if err := attributevalue.UnmarshalMap(av, &r); err != nil {
			return fmt.Errorf("decode chat %d record %s: %w", id, sk.Value, err)
		}
		if r.ExpiresAt <= now {
			return nil
		}
		l := log()
		l.Records = append(l.Records, r.record())
	}
	return nil
}

func sortRecords(rs []convai.Record) {
	sort.Slice(rs, func(i, j int) bool {
		if rs[i].Session != rs[j].Session {
			return rs[i].Session < rs[j].Session
		}
		return rs[i].Seq < rs[j].Seq
	})
}

// explain wraps err from reading the table with what an operator can do
// about the usual causes: a table that does not exist, no credentials.
func (a *Archive) explain(what string, err error) error {
	var missing *types.ResourceNotFoundException
	var signing *v4.SigningError
	switch {
	case errors.As(err, &missing):
		return fmt.Errorf("%s: table %q does not exist here (check SESSIONS_TABLE, DYNAMODB_ENDPOINT and the region; `duet table create` makes one): %w", what, a.table, duet.ErrNotFound)
	case errors.As(err, &signing):
		return fmt.Errorf("%s: no AWS credentials (set AWS_PROFILE or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or DYNAMODB_ENDPOINT for a local DynamoDB): %w", what, err)
	}
	return fmt.Errorf("%s of table %s: %w", what, a.table, err)
}
