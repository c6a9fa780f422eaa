package dynamo

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
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
// annex.Exchange.Key), with expires_at. A persona, pk
// "PERSONA#<annex.PersonaKey(name)>", is a "META" item (who the
// person is and how many pairs they have) and one item per pair, sk
// "PAIR#<n>" with n zero-padded so pairs sort in order; persona items never
// expire.
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

type personaMetaItem struct {
	PK       string `dynamodbav:"pk"`
	SK       string `dynamodbav:"sk"`
	Name     string `dynamodbav:"name"`
	ID       string `dynamodbav:"person_id,omitempty"`
	Username string `dynamodbav:"username,omitempty"`
	Count    int    `dynamodbav:"count"`
}

type pairItem struct {
	PK     string `dynamodbav:"pk"`
	SK     string `dynamodbav:"sk"`
	Prompt string `dynamodbav:"prompt,omitempty"`
	Answer string `dynamodbav:"answer"`
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

// SavePersona writes p's pairs, then its META item, so that a reader never
// sees a count larger than the pairs written. Pairs left over from a larger
// earlier import lie beyond the count and are ignored.
func (s *Store) SavePersona(ctx context.Context, p annex.PersonaData) error {
	pk := personaPrefix + annex.PersonaKey(p.Name)
	for i, pr := range p.Pairs {
		av, err := attributevalue.MarshalMap(pairItem{PK: pk, SK: pairKey(i), Prompt: pr.Prompt, Answer: pr.Answer})
		if err != nil {
			return fmt.Errorf("encode persona pair %d: %w", i, err)
		}
		if _, err := s.client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(s.table), Item: av}); err != nil {
			return refused(fmt.Errorf("save persona %q pair %d: %w", p.Name, i, err), fmt.Sprintf("pair %d of the persona is too large to store", i))
		}
	}
	av, err := attributevalue.MarshalMap(personaMetaItem{PK: pk, SK: personaMetaKey, Name: p.Name, ID: p.ID, Username: p.Username, Count: len(p.Pairs)})
	if err != nil {
		return fmt.Errorf("encode persona %q: %w", p.Name, err)
	}
	if _, err := s.client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(s.table), Item: av}); err != nil {
		return fmt.Errorf("save persona %q: %w", p.Name, err)
	}
	return nil
}

// LoadPersona returns the persona stored under name, matched by
// annex.PersonaKey, or an error wrapping duet.ErrNotFound when none was
// imported.
func (s *Store) LoadPersona(ctx context.Context, name string) (annex.PersonaData, error) {
	pk := personaPrefix + annex.PersonaKey(name)
	out, err := s.client.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:      aws.String(s.table),
		Key:            map[string]types.AttributeValue{PartitionKey: &types.AttributeValueMemberS{Value: pk}, SortKey: &types.AttributeValueMemberS{Value: personaMetaKey}},
		ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		return annex.PersonaData{}, fmt.Errorf("load persona %q: %w", name, err)
	}
	item := out.Item
	if item == nil {
		return annex.PersonaData{}, fmt.Errorf("load persona %q: %w", name, duet.ErrNotFound)
	}
	var meta personaMetaItem
	if err := attributevalue.UnmarshalMap(item, &meta); err != nil {
		return annex.PersonaData{}, fmt.Errorf("decode persona %q: %w", name, err)
	}
	p := annex.PersonaData{Name: meta.Name, ID: meta.ID, Username: meta.Username, Pairs: make([]annex.Pair, 0, meta.Count)}
	err = s.queryPrefix(ctx, pk, pairPrefix, func(av map[string]types.AttributeValue) error {
		var it pairItem
		if err := attributevalue.UnmarshalMap(av, &it); err != nil {
			return err
		}
		n, err := strconv.Atoi(strings.TrimPrefix(it.SK, pairPrefix))
		if err != nil || n >= meta.Count {
			return nil // left over from a larger earlier import
		}
		p.Pairs = append(p.Pairs, annex.Pair{Prompt: it.Prompt, Answer: it.Answer})
		return nil
	})
	if err != nil {
		return annex.PersonaData{}, fmt.Errorf("load persona %q pairs: %w", name, err)
	}
	return p, nil
}

func pairKey(i int) string { return fmt.Sprintf("%s%06d", pairPrefix, i) }

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
