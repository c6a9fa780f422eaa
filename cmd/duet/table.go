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
		return fmt.Errorf("%w: duet table create [-name NAME]", errUsage)
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
	if err := dynamo.CreateTable(ctx, client, table); err != nil {
		return fmt.Errorf("create table %s: %w", table, err)
	}
	fmt.Fprintf(stdout, "table %s is ready (TTL on %s, index %s)\n", table, dynamo.TTLAttribute, dynamo.IndexName)
	return nil
}
