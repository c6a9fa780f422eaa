package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"

	"github.com/duetbot/duet/shared/bounded"
	"github.com/duetbot/duet/shared/clariq"
	"github.com/duetbot/duet/shared/config"
	"github.com/duetbot/duet/shared/store/dynamo"
)

// clariqImport stores a question bank in SESSIONS_TABLE, where a deployed
// BRAIN=clariq function reads it once per cold start.
func clariqImport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("clariq import", stderr)
	bankPath := fs.String("bank", os.Getenv("CLARIQ_BANK"), "question_bank.tsv to store (default $CLARIQ_BANK)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *bankPath == "" || fs.NArg() > 0 {
		return fmt.Errorf("%w: usage: duet clariq import -bank question_bank.tsv   (with SESSIONS_TABLE, and DYNAMODB_ENDPOINT for a local table)", errUsage)
	}
	tsv, err := bounded.ReadFile(*bankPath, clariq.MaxFileBytes)
	if err != nil {
		return err
	}
	bank, err := clariq.ReadBank(bytes.NewReader(tsv))
	if err != nil {
		return fmt.Errorf("%s: %w", *bankPath, err)
	}
	cfg, err := config.FromEnv()
	if err != nil {
		return err
	}
	if cfg.SessionsTable == "" {
		return fmt.Errorf("SESSIONS_TABLE is not set: say which table to import into (and DYNAMODB_ENDPOINT for a local one)")
	}
	client, err := dynamo.NewClient(ctx, cfg.DynamoDBEndpoint)
	if err != nil {
		return err
	}
	if err := dynamo.SaveClariqBank(ctx, client, cfg.SessionsTable, tsv); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "imported %d questions (%d bytes) into %s; deploy with Brain=clariq\n", len(bank), len(tsv), cfg.SessionsTable)
	return nil
}
