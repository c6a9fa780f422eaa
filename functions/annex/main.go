// Command annex is the hive/annex bot's Lambda: API Gateway (HTTP API,
// payload 2.0) POST /annex → the persona engine, exchanges and the imported
// persona in DynamoDB. It refuses to start without ANNEX_CALLER_KEY.
package main

import (
	"context"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/duetbot/duet/shared/app"
	"github.com/duetbot/duet/shared/config"
	"github.com/duetbot/duet/shared/httpapi"
)

func main() {
	log := app.LambdaLogger()
	cfg, err := config.FromEnv()
	if err != nil {
		log.Error("bad configuration", "err", err)
		os.Exit(1)
	}
	if cfg.AnnexCallerKey == "" {
		log.Error("cannot start: ANNEX_CALLER_KEY is not set; the annex endpoint is never open without a caller key")
		os.Exit(1)
	}
	ctx := context.Background()
	store, err := app.DynamoStore(ctx, cfg)
	if err != nil {
		log.Error("cannot start", "err", err)
		os.Exit(1)
	}
	// The persona is loaded once per cold start.
	engine, err := app.AnnexEngine(ctx, cfg, store, log)
	if err != nil {
		log.Error("cannot start", "err", err)
		os.Exit(1)
	}
	h, err := httpapi.NewAnnex(cfg.AnnexCallerKey, engine, log)
	if err != nil {
		log.Error("cannot start", "err", err)
		os.Exit(1)
	}
	log.Info("annex bot ready", "person", engine.Persona().Name(), "pairs", len(engine.Persona().Data().Pairs))
	lambda.Start(h.Handle)
}
