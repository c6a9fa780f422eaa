package main

import (
	"context"
	"fmt"
	"io"

	"github.com/duetbot/duet/shared/config"
	"github.com/duetbot/duet/shared/store/dynamo"
)

func init() {
	register("table", "create the sessions table (TTL and index included) on DYNAMODB_ENDPOINT: table create", runTable)
}

func runTable(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("table create", stderr)
	name := fs.String("name", "", "table name (default: SESSIONS_TABLE)")
	if len(args) == 0 || args[0] != "create" {
		return fmt.Errorf("%w: usage: duet table create [-name NAME]", errUsage)
	}
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	cfg, err := config.FromEnv()
	if err != nil {
		return err
	}
	table := *name
	if table == "" {
		table = cfg.SessionsTable
	}
	if table == "" {
		return fmt.Errorf("%w: no table name: set SESSIONS_TABLE or pass -name", errUsage)
	}
	client, err := dynamo.NewClient(ctx, cfg.DynamoDBEndpoint)
	if err != nil {
		return err
	}
	ttl, err := dynamo.EnsureTable(ctx, client, table)
	if err != nil {
		return fmt.Errorf("create table %s: %w", table, err)
	}
	if !ttl {
		// dynalite, for one, has no UpdateTimeToLive. Expired items are
		// ignored on every read anyway; they are only never deleted.
		fmt.Fprintf(stderr, "duet table create: WARNING: %s cannot enable TTL; expired items stay in the table (reads ignore them)\n", endpointName(cfg.DynamoDBEndpoint))
		fmt.Fprintf(stdout, "table %s is ready (index %s; TTL not enabled)\n", table, dynamo.IndexName)
		return nil
	}
	fmt.Fprintf(stdout, "table %s is ready (TTL on %s, index %s)\n", table, dynamo.TTLAttribute, dynamo.IndexName)
	return nil
}

func endpointName(endpoint string) string {
	if endpoint == "" {
		return "DynamoDB"
	}
	return "the DynamoDB endpoint " + endpoint
}
