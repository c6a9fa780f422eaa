// Command annex is the hive/annex bot's Lambda: API Gateway (HTTP API,
// payload 2.0) POST /annex → the persona engine, exchanges and the imported
// persona in DynamoDB. It refuses to start without its caller key, read from
// the SSM parameter ANNEX_CALLER_KEY_PARAMETER names (or, in local runs,
// ANNEX_CALLER_KEY); its metrics leave as EMF lines on stdout.
package main

import (
	"context"
	"log/slog"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/duetbot/duet/shared/annex"
	"github.com/duetbot/duet/shared/app"
	"github.com/duetbot/duet/shared/app/brains"
	"github.com/duetbot/duet/shared/httpapi"
)

func main() {
	log := app.LambdaLogger()
	slog.SetDefault(log) // the AWS SDK's own lines too (awslog)
	h, err := newHandler(context.Background(), log)
	if err != nil {
		log.Error("cannot start", "err", err)
		os.Exit(1)
	}
	lambda.Start(h.Handle)
}

// newHandler builds the handler once per cold start: the persona is loaded
// here, not per request. httpapi.NewAnnex refuses to serve without
// ANNEX_CALLER_KEY.
func newHandler(ctx context.Context, log *slog.Logger) (*httpapi.Annex, error) {
	cfg, err := app.LambdaConfig(ctx)
	if err != nil {
		return nil, err
	}
	rec := app.LambdaMetrics("annex")
	store, err := app.DynamoStore(ctx, cfg)
	if err != nil {
		return nil, err
	}
	backends, err := brains.New(ctx, cfg, log, brains.WithMetrics(rec))
	if err != nil {
		return nil, err
	}
	engine, err := app.AnnexEngine(ctx, cfg, store, backends, log, annex.WithMetrics(rec))
	if err != nil {
		return nil, err
	}
	log.Info("annex bot ready", "person", engine.Persona().Name(), "pairs", len(engine.Persona().Data().Pairs))
	return httpapi.NewAnnex(cfg.AnnexCallerKey, engine, log)
}
