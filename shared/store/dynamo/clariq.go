package dynamo

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The ClariQ question bank in the sessions table, for BRAIN=clariq on
// Lambda: `duet clariq import` stores the user's question_bank.tsv as it is,
// cut at line ends into parts of at most bankPartBytes, one item each,
// pk "CLARIQ#BANK", sk "PART#<generation>#<n>"; then a "META" item names the
// generation, the part count and the SHA-256 of the whole. A function reads
// the partition once per cold start with one consistent Query. Writing META
// last makes an import atomic for readers; the previous generation's parts
// are deleted after it. Bank items never expire.
const (
	bankPK        = "CLARIQ#BANK"
	bankMetaSK    = "META"
	bankPartSK    = "PART#"
	bankPartBytes = 300 << 10 // well under DynamoDB's 400 KB item limit
)

// BankAPI is the part of the DynamoDB client that storing the bank uses;
// reading it needs Query only.
type BankAPI interface {
	PutItem(ctx context.Context, in *dynamodb.PutItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error)
	Query(ctx context.Context, in *dynamodb.QueryInput, opts ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error)
	DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error)
}

// QueryAPI is the part of the DynamoDB client that loading the bank uses.
type QueryAPI interface {
	Query(ctx context.Context, in *dynamodb.QueryInput, opts ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error)
}

var _ BankAPI = (*dynamodb.Client)(nil)

type bankMeta struct {
	PK         string `dynamodbav:"pk"`
	SK         string `dynamodbav:"sk"`
	Generation string `dynamodbav:"gen"`
	Parts      int    `dynamodbav:"parts"`
	Bytes      int    `dynamodbav:"bytes"`
	SHA256     string `dynamodbav:"sha256"`
	Imported   string `dynamodbav:"imported"`
}

type bankPart struct {
	PK   string `dynamodbav:"pk"`
	SK   string `dynamodbav:"sk"`
	Text string `dynamodbav:"text"`
}

func partSK(gen string, n int) string { return fmt.Sprintf("%s%s#%05d", bankPartSK, gen, n) }

// SaveClariqBank stores a question bank file's bytes in table, replacing
// any bank stored before. The caller validates the file first.
func SaveClariqBank(ctx context.Context, client BankAPI, table string, tsv []byte) error {
	if len(tsv) == 0 {
		return errors.New("save ClariQ bank: empty file")
	}
	sum := sha256.Sum256(tsv)
	meta := bankMeta{PK: bankPK, SK: bankMetaSK, Generation: hex.EncodeToString(sum[:8]), Bytes: len(tsv),
		SHA256: hex.EncodeToString(sum[:]), Imported: time.Now().UTC().Format(time.RFC3339)}
	old, _, err := queryBank(ctx, client, table)
	if err != nil {
		return fmt.Errorf("save ClariQ bank: %w", err)
	}
	for rest := tsv; len(rest) > 0; meta.Parts++ {
		n := len(rest)
		if n > bankPartBytes {
			n = bytes.LastIndexByte(rest[:bankPartBytes], '\n') + 1
			if n == 0 {
				return fmt.Errorf("save ClariQ bank: a line longer than %d bytes", bankPartBytes)
			}
		}
		if err := putItem(ctx, client, table, bankPart{PK: bankPK, SK: partSK(meta.Generation, meta.Parts), Text: string(rest[:n])}); err != nil {
			return fmt.Errorf("save ClariQ bank part %d: %w", meta.Parts, err)
		}
		rest = rest[n:]
	}
	if err := putItem(ctx, client, table, meta); err != nil {
		return fmt.Errorf("save ClariQ bank: %w", err)
	}
	for _, it := range old {
		if it.SK == bankMetaSK || strings.HasPrefix(it.SK, bankPartSK+meta.Generation+"#") {
			continue
		}
		if _, err := client.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(table), Key: key(bankPK, it.SK)}); err != nil {
			return fmt.Errorf("save ClariQ bank: delete the old part %s: %w", it.SK, err)
		}
	}
	return nil
}

func putItem(ctx context.Context, client BankAPI, table string, v any) error {
	item, err := attributevalue.MarshalMap(v)
	if err != nil {
		return err
	}
	_, err = client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: item})
	return err
}

// ErrNoClariqBank means the table holds no ClariQ bank: run `duet clariq import`.
var ErrNoClariqBank = errors.New("no ClariQ question bank in the table: run `duet clariq import -bank question_bank.tsv` with SESSIONS_TABLE set")

// LoadClariqBank returns the question bank file stored by SaveClariqBank,
// checked against its SHA-256.
func LoadClariqBank(ctx context.Context, client QueryAPI, table string) ([]byte, error) {
	items, meta, err := queryBank(ctx, client, table)
	if err != nil {
		return nil, fmt.Errorf("load ClariQ bank: %w", err)
	}
	if meta == nil {
		return nil, ErrNoClariqBank
	}
	parts := map[string]string{}
	for _, it := range items {
		parts[it.SK] = it.Text
	}
	var buf bytes.Buffer
	buf.Grow(meta.Bytes)
	for n := range meta.Parts {
		text, ok := parts[partSK(meta.Generation, n)]
		if !ok {
			return nil, fmt.Errorf("load ClariQ bank: part %d of %d is missing (an import in progress? retry)", n, meta.Parts)
		}
		buf.WriteString(text)
	}
	sum := sha256.Sum256(buf.Bytes())
	if hex.EncodeToString(sum[:]) != meta.SHA256 {
		return nil, errors.New("load ClariQ bank: checksum mismatch (an import in progress? retry)")
	}
	return buf.Bytes(), nil
}

// queryBank reads the whole bank partition with consistent reads.
func queryBank(ctx context.Context, client QueryAPI, table string) ([]bankPart, *bankMeta, error) {
	var parts []bankPart
	var meta *bankMeta
	in := &dynamodb.QueryInput{
		TableName:                 aws.String(table),
		KeyConditionExpression:    aws.String("pk = :pk"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: bankPK}},
		ConsistentRead:            aws.Bool(true),
	}
	for pages := dynamodb.NewQueryPaginator(client, in); pages.HasMorePages(); {
		out, err := pages.NextPage(ctx)
		if err != nil {
			return nil, nil, err
		}
		for _, item := range out.Items {
			var p bankPart
			if err := attributevalue.UnmarshalMap(item, &p); err != nil {
				return nil, nil, fmt.Errorf("decode %s: %w", bankPK, err)
			}
			if p.SK == bankMetaSK {
				var m bankMeta
				if err := attributevalue.UnmarshalMap(item, &m); err != nil {
					return nil, nil, fmt.Errorf("decode the bank's META: %w", err)
				}
				if m.Parts < 0 || m.Parts > 10_000 {
					return nil, nil, fmt.Errorf("the bank's META: %s parts", strconv.Itoa(m.Parts))
				}
				meta = &m
			}
			parts = append(parts, p)
		}
	}
	return parts, meta, nil
}
