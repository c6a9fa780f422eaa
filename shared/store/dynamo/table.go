package dynamo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/duetbot/duet/shared/awslog"
)

// The table's schema. The SAM template must declare the same names.
const (
	// PartitionKey and SortKey are the table's key attributes, both strings.
	PartitionKey = "pk"
	SortKey      = "sk"
	// TTLAttribute is the table's TimeToLive attribute: a number, Unix seconds.
	TTLAttribute = "expires_at"
	// VersionAttribute holds the number every conditional write checks.
	VersionAttribute = "version"
	// IndexName is the sparse global secondary index the sweeper queries.
	// It projects the keys and TTLAttribute (projection INCLUDE).
	IndexName = "by_activity"
	// IndexPartitionKey and IndexSortKey are the index's key attributes,
	// both strings, present only on items the sweeper may need.
	IndexPartitionKey = "gsi1pk"
	IndexSortKey      = "gsi1sk"
)

// tableWait bounds how long CreateTable waits for a new table to be ACTIVE.
const tableWait = 5 * time.Minute

// CreateTable creates the sessions table (on-demand capacity, keys pk/sk,
// the by_activity index), waits until it is ACTIVE, and enables TTL on
// expires_at. An existing table is fine: CreateTable then only waits for it
// and makes sure TTL is on, and reports an error if it lacks the index.
// An endpoint that cannot enable TTL at all (dynalite has no
// UpdateTimeToLive) is not an error: every read already treats expired
// items as absent. EnsureTable tells that case apart.
// It is what the tests run.
func CreateTable(ctx context.Context, client API, table string) error {
	_, err := EnsureTable(ctx, client, table)
	return err
}

// EnsureTable is CreateTable, reporting whether TTL is on: false, with a
// nil error, when the endpoint does not implement TTL. It is what
// `duet table create` runs.
func EnsureTable(ctx context.Context, client API, table string) (ttl bool, err error) {
	str := types.ScalarAttributeTypeS
	_, err = client.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:   aws.String(table),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String(PartitionKey), AttributeType: str},
			{AttributeName: aws.String(SortKey), AttributeType: str},
			{AttributeName: aws.String(IndexPartitionKey), AttributeType: str},
			{AttributeName: aws.String(IndexSortKey), AttributeType: str},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String(PartitionKey), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String(SortKey), KeyType: types.KeyTypeRange},
		},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName: aws.String(IndexName),
			KeySchema: []types.KeySchemaElement{
				{AttributeName: aws.String(IndexPartitionKey), KeyType: types.KeyTypeHash},
				{AttributeName: aws.String(IndexSortKey), KeyType: types.KeyTypeRange},
			},
			// Keys only: no attribute that changes with every message.
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
		}},
	})
	var inUse *types.ResourceInUseException
	if err != nil && !errors.As(err, &inUse) {
		return false, fmt.Errorf("create table %s: %w", table, err)
	}

	waiter := dynamodb.NewTableExistsWaiter(client, func(o *dynamodb.TableExistsWaiterOptions) {
		o.MinDelay = time.Second
		o.MaxDelay = 10 * time.Second
	})
	desc, err := waiter.WaitForOutput(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)}, tableWait)
	if err != nil {
		return false, fmt.Errorf("wait for table %s: %w", table, err)
	}
	if !hasIndex(desc.Table) {
		return false, fmt.Errorf("table %s exists without the %s index", table, IndexName)
	}

	current, err := client.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(table)})
	if unsupported(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("describe TTL of table %s: %w", table, err)
	}
	if d := current.TimeToLiveDescription; d != nil && aws.ToString(d.AttributeName) == TTLAttribute &&
		(d.TimeToLiveStatus == types.TimeToLiveStatusEnabled || d.TimeToLiveStatus == types.TimeToLiveStatusEnabling) {
		return true, nil
	}
	_, err = client.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{
		TableName: aws.String(table),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{
			AttributeName: aws.String(TTLAttribute),
			Enabled:       aws.Bool(true),
		},
	})
	if unsupported(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("enable TTL on table %s: %w", table, err)
	}
	return true, nil
}

// unsupported reports an error saying that the endpoint does not implement
// the operation at all, as local stand-ins answer (dynalite:
// UnknownOperationException), as opposed to refusing this request.
func unsupported(err error) bool {
	var apiErr smithy.APIError
	if !errors.As(err, &apiErr) {
		return false
	}
	switch apiErr.ErrorCode() {
	case "UnknownOperationException", "UnsupportedOperationException", "NotImplementedException", "NotImplemented":
		return true
	}
	return false
}

func hasIndex(t *types.TableDescription) bool {
	if t == nil {
		return false
	}
	for _, ix := range t.GlobalSecondaryIndexes {
		if aws.ToString(ix.IndexName) == IndexName {
			return true
		}
	}
	return false
}

// NewClient returns a DynamoDB client from the default AWS configuration
// (environment, shared files, the Lambda role). A non-empty endpoint
// overrides the service's (moto server, DynamoDB Local); for such an endpoint,
// with no credentials in the environment, it uses dummy static credentials,
// and region us-east-1 when none is configured, so local runs need no AWS
// account.
func NewClient(ctx context.Context, endpoint string) (*dynamodb.Client, error) {
	var opts []func(*config.LoadOptions) error
	if endpoint != "" && os.Getenv("AWS_ACCESS_KEY_ID") == "" && os.Getenv("AWS_PROFILE") == "" {
		opts = append(opts, config.WithCredentialsProvider(
			credentials.NewStaticCredentialsProvider("local", "local", "")))
	}
	cfg, err := config.LoadDefaultConfig(ctx, append(opts, config.WithLogger(awslog.Logger()))...)
	if err != nil {
		return nil, fmt.Errorf("load AWS config: %w", err)
	}
	if endpoint == "" {
		return dynamodb.NewFromConfig(cfg), nil
	}
	if cfg.Region == "" {
		cfg.Region = "us-east-1"
	}
	return dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) {
		o.BaseEndpoint = aws.String(endpoint)
	}), nil
}
