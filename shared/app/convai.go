package app

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"github.com/aws/aws-lambda-go/lambdacontext"

	"github.com/duetbot/duet/shared/annex"
	"github.com/duetbot/duet/shared/brain/offline"
	"github.com/duetbot/duet/shared/config"
	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/store/dynamo"
	"github.com/duetbot/duet/shared/store/memstore"
	"github.com/duetbot/duet/shared/telegram"
)

// LambdaLogger returns the JSON logger of the Lambda functions: every record
// carries the request id.
func LambdaLogger() *slog.Logger { return lambdacontext.NewLogger() }

// CLILogger returns the text logger of the duet CLI, writing to w (the
// command's stderr).
func CLILogger(w io.Writer, level slog.Level) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level}))
}

// DynamoStore returns the DynamoDB session store on cfg.SessionsTable.
func DynamoStore(ctx context.Context, cfg config.Config) (*dynamo.Store, error) {
	if cfg.SessionsTable == "" {
		return nil, fmt.Errorf("SESSIONS_TABLE is not set")
	}
	client, err := dynamo.NewClient(ctx, cfg.DynamoDBEndpoint)
	if err != nil {
		return nil, fmt.Errorf("dynamodb client: %w", err)
	}
	return dynamo.New(client, cfg.SessionsTable, dynamo.WithTTL(cfg.SessionTTL)), nil
}

// Stores returns the stores of both bots: one DynamoDB store (one client)
// when SESSIONS_TABLE is set, else the embedded in-process ones, bounded
// by LOCAL_MAX_CHATS and LOCAL_MAX_BYTES and logging their evictions to log.
func Stores(ctx context.Context, cfg config.Config, log *slog.Logger) (convai.Store, annex.Store, error) {
	if cfg.SessionsTable == "" {
		opts := []memstore.Option{memstore.WithTTL(cfg.SessionTTL), memstore.WithMaxChats(cfg.LocalMaxChats),
			memstore.WithMaxBytes(cfg.LocalMaxBytes), memstore.WithLogger(log)}
		return memstore.New(opts...), memstore.NewAnnex(opts...), nil
	}
	s, err := DynamoStore(ctx, cfg)
	if err != nil {
		return nil, nil, err
	}
	return s, s, nil
}

// ConvAIEngine returns the ConvAI chat engine on store, delivering through
// sender, with the back ends brains.
func ConvAIEngine(cfg config.Config, store convai.Store, sender convai.Sender, brains Brains, log *slog.Logger) *convai.Engine {
	e := &convai.Engine{
		Store:           store,
		Sender:          sender,
		Replier:         brains.Replier,
		Evaluator:       brains.Evaluator,
		MaxTurns:        cfg.ChatMaxTurns,
		IdleTimeout:     cfg.ChatIdleTimeout,
		DeliveryTimeout: cfg.DeliveryTimeout,
		Log:             log,
	}
	if _, ok := brains.Replier.(*offline.Brain); !ok {
		// A model may answer with a protocol command ("/end"): the
		// offline brain then writes the reply.
		e.Fallback = offline.New()
	}
	return e
}

// TelegramClient returns the Bot API client for cfg's API URL and token.
func TelegramClient(cfg config.Config, log *slog.Logger) (*telegram.Client, error) {
	if err := cfg.RequireTelegram(); err != nil {
		return nil, err
	}
	return telegram.New(cfg.TelegramAPIURL, cfg.TelegramBotToken, telegram.WithLogger(log))
}

// ConvAI builds the ConvAI engine of a deployed function on brains:
// DynamoDB sessions and the Telegram client, both required.
func ConvAI(ctx context.Context, cfg config.Config, brains Brains, log *slog.Logger) (*convai.Engine, error) {
	store, err := DynamoStore(ctx, cfg)
	if err != nil {
		return nil, err
	}
	tg, err := TelegramClient(cfg, log)
	if err != nil {
		return nil, err
	}
	return ConvAIEngine(cfg, store, tg, brains, log), nil
}
