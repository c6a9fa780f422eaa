package dynamo

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/duetbot/duet/shared/annex"
	"github.com/duetbot/duet/shared/duet"
)

// A persona, pk "PERSONA#<annex.PersonaKey(name)>", is a "META" item (who
// the person is, how many pairs they have, and which version of the pairs
// is current) and one item per pair of that version, sk
// "PAIR#<version>#<n>" with n zero-padded so pairs sort in order. An
// import writes a new version's pairs, then switches the META item to it,
// then deletes the older versions' pairs: until the switch readers see the
// previous persona whole, after it the new one whole, and an import that
// fails half-way leaves the previous one as it was. Persona items never
// expire. Version 0 is the layout before versions ("PAIR#<n>").

type personaMetaItem struct {
	PK       string `dynamodbav:"pk"`
	SK       string `dynamodbav:"sk"`
	Name     string `dynamodbav:"name"`
	ID       string `dynamodbav:"person_id,omitempty"`
	Username string `dynamodbav:"username,omitempty"`
	Count    int    `dynamodbav:"count"`
	Version  int64  `dynamodbav:"version,omitempty"`
	Import   string `dynamodbav:"import,omitempty"` // the import that wrote it, to know its own write when the SDK retries it
}

type pairItem struct {
	PK     string `dynamodbav:"pk"`
	SK     string `dynamodbav:"sk"`
	Prompt string `dynamodbav:"prompt,omitempty"`
	Answer string `dynamodbav:"answer"`
}

// pairsPrefix is the sort key prefix of version v's pairs.
func pairsPrefix(v int64) string {
	if v == 0 {
		return pairPrefix
	}
	return pairPrefix + strconv.FormatInt(v, 10) + "#"
}

func pairKey(v int64, i int) string { return fmt.Sprintf("%s%06d", pairsPrefix(v), i) }

// SavePersona stores p as the persona's next version: its pairs first,
// then the META item naming that version (on condition that no other
// import switched it meanwhile: duet.ErrConflict), then it deletes the
// previous versions' pairs. Until the switch, readers get the previous
// persona whole.
func (s *Store) SavePersona(ctx context.Context, p annex.PersonaData) error {
	pk := personaPrefix + annex.PersonaKey(p.Name)
	prev, found, err := s.personaMeta(ctx, pk)
	if err != nil {
		return fmt.Errorf("save persona %q: %w", p.Name, err)
	}
	v := prev.Version + 1
	for i, pr := range p.Pairs {
		av, err := attributevalue.MarshalMap(pairItem{PK: pk, SK: pairKey(v, i), Prompt: pr.Prompt, Answer: pr.Answer})
		if err != nil {
			return fmt.Errorf("encode persona pair %d: %w", i, err)
		}
		if _, err := s.client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(s.table), Item: av}); err != nil {
			return refused(fmt.Errorf("save persona %q pair %d (the stored persona is unchanged): %w", p.Name, i, err), fmt.Sprintf("pair %d of the persona is too large to store", i))
		}
	}
	meta := personaMetaItem{PK: pk, SK: personaMetaKey, Name: p.Name, ID: p.ID, Username: p.Username, Count: len(p.Pairs), Version: v, Import: rand.Text()}
	av, err := attributevalue.MarshalMap(meta)
	if err != nil {
		return fmt.Errorf("encode persona %q: %w", p.Name, err)
	}
	in := &dynamodb.PutItemInput{TableName: aws.String(s.table), Item: av,
		ConditionExpression:      aws.String("attribute_not_exists(#pk)"),
		ExpressionAttributeNames: map[string]string{"#pk": PartitionKey}}
	if found {
		in.ConditionExpression = aws.String("attribute_not_exists(#v)")
		in.ExpressionAttributeNames = map[string]string{"#v": "version"}
		if prev.Version > 0 {
			in.ConditionExpression = aws.String("#v = :v")
			in.ExpressionAttributeValues = map[string]types.AttributeValue{":v": &types.AttributeValueMemberN{Value: strconv.FormatInt(prev.Version, 10)}}
		}
	}
	if _, err := s.client.PutItem(ctx, in); err != nil {
		var failed *types.ConditionalCheckFailedException
		if !errors.As(err, &failed) {
			return fmt.Errorf("save persona %q (the stored persona is unchanged): %w", p.Name, err)
		}
		// The SDK retries a write whose response was lost; the retry then
		// fails its condition on the write itself. Only another import's
		// META is a conflict.
		if now, ok, err := s.personaMeta(ctx, pk); err != nil || !ok || now != meta {
			return fmt.Errorf("save persona %q: another import changed it meanwhile: %w", p.Name, duet.ErrConflict)
		}
	}
	if err := s.deleteOtherPairs(ctx, pk, v); err != nil {
		return fmt.Errorf("saved persona %q, but deleting the previous version's pairs failed (the next import deletes them): %w", p.Name, err)
	}
	return nil
}

// personaMeta returns the META item of partition pk, and whether there is one.
func (s *Store) personaMeta(ctx context.Context, pk string) (personaMetaItem, bool, error) {
	out, err := s.client.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:      aws.String(s.table),
		Key:            map[string]types.AttributeValue{PartitionKey: &types.AttributeValueMemberS{Value: pk}, SortKey: &types.AttributeValueMemberS{Value: personaMetaKey}},
		ConsistentRead: aws.Bool(true),
	})
	if err != nil || out.Item == nil {
		return personaMetaItem{}, false, err
	}
	var meta personaMetaItem
	if err := attributevalue.UnmarshalMap(out.Item, &meta); err != nil {
		return personaMetaItem{}, false, fmt.Errorf("decode: %w", err)
	}
	return meta, true, nil
}

// deleteOtherPairs deletes the pairs of partition pk that are not of
// version v.
func (s *Store) deleteOtherPairs(ctx context.Context, pk string, v int64) error {
	var stale []string
	keep := pairsPrefix(v)
	err := s.queryPrefix(ctx, pk, pairPrefix, func(av map[string]types.AttributeValue) error {
		if sk, ok := av[SortKey].(*types.AttributeValueMemberS); ok && !strings.HasPrefix(sk.Value, keep) {
			stale = append(stale, sk.Value)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, sk := range stale {
		if _, err := s.client.DeleteItem(ctx, &dynamodb.DeleteItemInput{
			TableName: aws.String(s.table),
			Key:       map[string]types.AttributeValue{PartitionKey: &types.AttributeValueMemberS{Value: pk}, SortKey: &types.AttributeValueMemberS{Value: sk}},
		}); err != nil {
			return err
		}
	}
	return nil
}

// LoadPersona returns the persona stored under name, matched by
// annex.PersonaKey, or an error wrapping duet.ErrNotFound when none was
// imported.
func (s *Store) LoadPersona(ctx context.Context, name string) (annex.PersonaData, error) {
	pk := personaPrefix + annex.PersonaKey(name)
	meta, found, err := s.personaMeta(ctx, pk)
	if err != nil {
		return annex.PersonaData{}, fmt.Errorf("load persona %q: %w", name, err)
	}
	if !found {
		return annex.PersonaData{}, fmt.Errorf("load persona %q: %w", name, duet.ErrNotFound)
	}
	p := annex.PersonaData{Name: meta.Name, ID: meta.ID, Username: meta.Username, Pairs: make([]annex.Pair, 0, meta.Count)}
	prefix := pairsPrefix(meta.Version)
	err = s.queryPrefix(ctx, pk, prefix, func(av map[string]types.AttributeValue) error {
		var it pairItem
		if err := attributevalue.UnmarshalMap(av, &it); err != nil {
			return err
		}
		n, err := strconv.Atoi(strings.TrimPrefix(it.SK, prefix))
		if err != nil || n >= meta.Count {
			return nil // another version's, or left over from a larger earlier import
		}
		p.Pairs = append(p.Pairs, annex.Pair{Prompt: it.Prompt, Answer: it.Answer})
		return nil
	})
	if err != nil {
		return annex.PersonaData{}, fmt.Errorf("load persona %q pairs: %w", name, err)
	}
	return p, nil
}
