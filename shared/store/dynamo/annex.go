package dynamo

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/duetbot/duet/shared/annex"
	"github.com/duetbot/duet/shared/duet"
)

// Key values of annex items. An exchange is one item: pk
// "ANNEX#<conversation id>", sk "MSG#<timestamp>#<message id>" (see
// annex.Exchange.Key), with expires_at. Personas are laid out in
// persona.go.
const (
	annexPrefix    = "ANNEX#"
	messagePrefix  = "MSG#"
	personaPrefix  = "PERSONA#"
	pairPrefix     = "PAIR#"
	personaMetaKey = "META"
)

var _ annex.Store = (*Store)(nil)

// exchangeItem is an annex exchange as stored.
type exchangeItem struct {
	PK           string        `dynamodbav:"pk"`
	SK           string        `dynamodbav:"sk"`
	Conversation string        `dynamodbav:"conversation"`
	Request      annex.Message `dynamodbav:"request"`
	Reply        annex.Message `dynamodbav:"reply"`
	At           string        `dynamodbav:"at"`
	ExpiresAt    int64         `dynamodbav:"expires_at"`
}

// SaveExchange writes ex as one item that expires TTL after ex.At. A retried
// request writes the same key again, so it leaves one copy.
func (s *Store) SaveExchange(ctx context.Context, ex annex.Exchange) error {
	it := exchangeItem{
		PK:           annexPrefix + ex.Conversation,
		SK:           messagePrefix + ex.Key(),
		Conversation: ex.Conversation,
		Request:      ex.Request,
		Reply:        ex.Reply,
		At:           ex.At.UTC().Format(indexTimeFormat),
		ExpiresAt:    ceilUnix(ex.At.Add(s.ttl)),
	}
	av, err := attributevalue.MarshalMap(it)
	if err != nil {
		return fmt.Errorf("encode exchange %s: %w", it.SK, err)
	}
	if _, err := s.client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(s.table), Item: av}); err != nil {
		return refused(fmt.Errorf("save exchange in conversation %q: %w", ex.Conversation, err), "the message is too large to record")
	}
	return nil
}

// refused returns err as a duet.EINVALID error saying msg when DynamoDB
// refused the request as invalid (a ValidationException: an item over
// 400 KB, a key over its limit), which no retry can fix; any other error
// is returned as it is, for the caller to treat as an outage.
func refused(err error, msg string) error {
	var ae smithy.APIError
	if errors.As(err, &ae) && ae.ErrorCode() == "ValidationException" {
		return duet.Wrap(duet.EINVALID, err, "%s", msg)
	}
	return err
}

// Exchanges returns the unexpired exchanges of a conversation in key order.
func (s *Store) Exchanges(ctx context.Context, conversation string) ([]annex.Exchange, error) {
	var items []exchangeItem
	err := s.queryPrefix(ctx, annexPrefix+conversation, messagePrefix, func(av map[string]types.AttributeValue) error {
		var it exchangeItem
		if err := attributevalue.UnmarshalMap(av, &it); err != nil {
			return err
		}
		items = append(items, it)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("load conversation %q: %w", conversation, err)
	}
	now := s.nowUnix()
	var out []annex.Exchange
	for _, it := range items {
		if it.ExpiresAt <= now {
			continue // TTL deletion lags: expired is absent
		}
		ex := annex.Exchange{Conversation: it.Conversation, Request: it.Request, Reply: it.Reply}
		if t, err := parseIndexTime(it.At); err == nil {
			ex.At = t
		}
		out = append(out, ex)
	}
	return out, nil
}

// queryPrefix calls each for every item of partition pk whose sort key
// begins with prefix, in sort key order, following pagination.
func (s *Store) queryPrefix(ctx context.Context, pk, prefix string, each func(map[string]types.AttributeValue) error) error {
	in := &dynamodb.QueryInput{
		TableName:              aws.String(s.table),
		KeyConditionExpression: aws.String("#pk = :pk AND begins_with(#sk, :prefix)"),
		ExpressionAttributeNames: map[string]string{
			"#pk": PartitionKey,
			"#sk": SortKey,
		},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk":     &types.AttributeValueMemberS{Value: pk},
			":prefix": &types.AttributeValueMemberS{Value: prefix},
		},
		ConsistentRead: aws.Bool(true),
	}
	for pages := dynamodb.NewQueryPaginator(s.client, in); pages.HasMorePages(); {
		out, err := pages.NextPage(ctx)
		if err != nil {
			return err
		}
		for _, av := range out.Items {
			if err := each(av); err != nil {
				return err
			}
		}
	}
	return nil
}

func parseIndexTime(s string) (t time.Time, err error) {
	return time.Parse(indexTimeFormat, s)
}
