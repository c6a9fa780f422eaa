package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/duetbot/duet/shared/app"
	"github.com/duetbot/duet/shared/app/brains"
	"github.com/duetbot/duet/shared/poller"
)

func init() {
	register("poll", "run the ConvAI bot over getUpdates from TELEGRAM_API_URL (no webhook needed)", runPoll)
}

func runPoll(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("poll", stderr)
	timeout := fs.Duration("timeout", 25*time.Second, "long-poll timeout sent to getUpdates (at least 1s)")
	workers := fs.Int("workers", 16, "chats processed at once")
	if err := fs.Parse(args); err != nil {
		return err
	}
	log := app.CLILogger(stderr, slog.LevelInfo)
	cfg, err := localConfig()
	if err != nil {
		return err
	}
	store, _, err := app.Stores(ctx, cfg, log)
	if err != nil {
		return err
	}
	backends, err := brains.New(ctx, cfg, log)
	if err != nil {
		return err
	}
	engine, tg, err := localEngine(cfg, store, backends, log)
	if err != nil {
		return err
	}
	go sweepEvery(ctx, engine, cfg.SweepInterval, log)
	fmt.Fprintf(stdout, "duet poll: polling %s (store: %s, brain: %s)\n", cfg.TelegramAPIURL, storeName(cfg), cfg.Brain)
	p := &poller.Poller{Source: tg, Engine: engine, Timeout: *timeout, Workers: *workers, Log: log}
	if err := p.Run(ctx); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}
