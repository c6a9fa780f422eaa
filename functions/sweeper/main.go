// Command sweeper is the scheduled Lambda that ends idle ConvAI chats and
// delivers replies that were stored but never sent. Its bot token comes
// from the SSM parameter TELEGRAM_BOT_TOKEN_PARAMETER names (or, in local
// runs, TELEGRAM_BOT_TOKEN); its metrics leave as EMF lines on stdout.
package main

import (
	"context"
	"log/slog"
	"os"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/duetbot/duet/shared/app"
	"github.com/duetbot/duet/shared/convai"
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
	// The sweeper writes no reply but the finals of idle chats: the offline
	// evaluator gives them, and the function links no model SDK.
	engine, err := app.ConvAI(ctx, cfg, app.OfflineBrains(), log)
	if err != nil {
		log.Error("cannot start", "err", err)
		os.Exit(1)
	}
	engine.Metrics = app.LambdaMetrics("sweeper")
	lambda.Start(sweeper{engine: engine, log: log}.Handle)
}

// sweeper runs one sweep per scheduled event.
type sweeper struct {
	engine *convai.Engine
	log    *slog.Logger
}

// Handle ignores the event's content: the schedule is the trigger.
func (s sweeper) Handle(ctx context.Context, _ events.EventBridgeEvent) (convai.SweepResult, error) {
	res, err := s.engine.Sweep(ctx)
	s.log.InfoContext(ctx, "sweep done", "ended", res.Ended, "delivered", res.Delivered, "failed", res.Failed)
	return res, err
}
