package dynamo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/duetbot/duet/shared/store/dynamo/dynamotest"
)

// bankTable returns a client and a fresh table of the DynamoDB at
// DYNAMODB_ENDPOINT, or skips the test.
func bankTable(t *testing.T) (*dynamodb.Client, string) {
	t.Helper()
	endpoint := dynamotest.Endpoint(t)
	ctx := context.Background()
	client, err := NewClient(ctx, endpoint)
	if err != nil {
		t.Fatal(err)
	}
	table := fmt.Sprintf("clariq-test-%d", time.Now().UnixNano())
	if err := CreateTable(ctx, client, table); err != nil {
		t.Fatalf("create table: %v", err)
	}
	return client, table
}

// bankFile returns a question bank file of about size bytes.
func bankFile(size int) []byte {
	var b bytes.Buffer
	b.WriteString("question_id\tquestion\nQ00001\t\n")
	for i := 2; b.Len() < size; i++ {
		fmt.Fprintf(&b, "Q%05d\tare you looking for information about topic number %d and its many facets\n", i, i)
	}
	return b.Bytes()
}

func TestClariqBankRoundTrip(t *testing.T) {
	client, table := bankTable(t)
	ctx := context.Background()
	if _, err := LoadClariqBank(ctx, client, table); !errors.Is(err, ErrNoClariqBank) {
		t.Fatalf("empty table: got %v, want ErrNoClariqBank", err)
	}
	tests := []struct {
		name string
		size int
	}{
		{name: "one part", size: 10 << 10},
		{name: "several parts, replacing the first", size: 700 << 10},
		{name: "back to one part", size: 2 << 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := bankFile(tt.size)
			if err := SaveClariqBank(ctx, client, table, want); err != nil {
				t.Fatal(err)
			}
			got, err := LoadClariqBank(ctx, client, table)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("got %d bytes, want the %d saved", len(got), len(want))
			}
			// The older generations' parts are gone.
			parts, _, err := queryBank(ctx, client, table)
			if err != nil {
				t.Fatal(err)
			}
			wantItems := 1 + (len(want)+bankPartBytes-1)/bankPartBytes
			if len(parts) > wantItems+1 {
				t.Errorf("got %d bank items, want about %d: old parts left behind", len(parts), wantItems)
			}
		})
	}
}

func TestClariqBankDetectsDamage(t *testing.T) {
	client, table := bankTable(t)
	ctx := context.Background()
	if err := SaveClariqBank(ctx, client, table, bankFile(4<<10)); err != nil {
		t.Fatal(err)
	}
	parts, meta, err := queryBank(ctx, client, table)
	if err != nil || meta == nil {
		t.Fatalf("query: %v, meta %v", err, meta)
	}
	for _, p := range parts {
		if strings.HasPrefix(p.SK, bankPartSK) {
			_, err := client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: map[string]types.AttributeValue{
				"pk": &types.AttributeValueMemberS{Value: bankPK}, "sk": &types.AttributeValueMemberS{Value: p.SK},
				"text": &types.AttributeValueMemberS{Value: "question_id\tquestion\nQ1\tchanged\n"}}})
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := LoadClariqBank(ctx, client, table); err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Fatalf("got %v, want a checksum error", err)
	}
}
