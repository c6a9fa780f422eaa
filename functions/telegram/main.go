// Command telegram is the ConvAI bot's webhook Lambda: API Gateway (HTTP
// API, payload 2.0) POST /telegram → the chat engine, sessions in DynamoDB.
// Its bot token and webhook secret come from SSM Parameter Store
// (TELEGRAM_BOT_TOKEN_PARAMETER, TELEGRAM_WEBHOOK_SECRET_PARAMETER) or, in
// local runs, from the plain variables; its metrics leave as EMF lines on
// stdout.
package main

import (
	"context"
	"log/slog"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/duetbot/duet/shared/app"
	"github.com/duetbot/duet/shared/app/brains"
	"github.com/duetbot/duet/shared/config"
	"github.com/duetbot/duet/shared/httpapi"
)

func main() {
	log := app.LambdaLogger()
	slog.SetDefault(log) // the AWS SDK's own lines too (awslog)
	ctx := context.Background()
	cfg, err := app.LambdaConfig(ctx)
	if err != nil {
		log.Error("refusing to start", "err", err)
		os.Exit(1)
	}
	if err := checkWebhookSecret(cfg, log); err != nil {
		log.Error("refusing to start", "err", err)
		os.Exit(1)
	}
	rec := app.LambdaMetrics("telegram")
	b, err := brains.New(ctx, cfg, log, brains.WithMetrics(rec))
	if err != nil {
		log.Error("cannot start", "err", err)
		os.Exit(1)
	}
	engine, err := app.ConvAI(ctx, cfg, b, log)
	if err != nil {
		log.Error("cannot start", "err", err)
		os.Exit(1)
	}
	engine.Metrics = rec
	lambda.Start(httpapi.NewTelegram(engine, cfg.TelegramWebhookSecret, log).Handle)
}

// checkWebhookSecret refuses a webhook without TELEGRAM_WEBHOOK_SECRET, which
// would take updates from anyone who finds its URL, unless the deployment
// opted out with TELEGRAM_WEBHOOK_INSECURE=1; that is logged as a warning
// at every cold start.
func checkWebhookSecret(cfg config.Config, log *slog.Logger) error {
	if err := cfg.RequireWebhookSecret(); err != nil {
		return err
	}
	if cfg.TelegramWebhookSecret == "" {
		log.Warn("TELEGRAM_WEBHOOK_INSECURE=1: running without TELEGRAM_WEBHOOK_SECRET; anyone who can reach the webhook can post updates")
	}
	return nil
}
