// Command sweeper is the scheduled Lambda that ends idle ConvAI chats and
// delivers replies that were stored but never sent.
package main

import (
	"context"
	"log/slog"
	"os"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/duetbot/duet/shared/app"
	"github.com/duetbot/duet/shared/config"
	"github.com/duetbot/duet/shared/convai"
)

func main() {
	log := app.LambdaLogger()
	cfg, err := config.FromEnv()
	if err != nil {
		log.Error("bad configuration", "err", err)
		os.Exit(1)
	}
	// The sweeper writes no reply but the finals of idle chats: the offline
	// evaluator gives them, and the function links no model SDK.
	engine, err := app.ConvAI(context.Background(), cfg, app.OfflineBrains(), log)
	if err != nil {
		log.Error("cannot start", "err", err)
		os.Exit(1)
	}
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
