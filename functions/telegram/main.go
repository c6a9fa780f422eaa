// Command telegram is the ConvAI bot's webhook Lambda: API Gateway (HTTP
// API, payload 2.0) POST /telegram → the chat engine, sessions in DynamoDB.
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
	engine, err := app.ConvAI(context.Background(), cfg, log)
	if err != nil {
		log.Error("cannot start", "err", err)
		os.Exit(1)
	}
	lambda.Start(httpapi.NewTelegram(engine, cfg.TelegramWebhookSecret, log).Handle)
}
