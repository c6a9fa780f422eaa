package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/duetbot/duet/shared/annex"
	"github.com/duetbot/duet/shared/apigw"
	"github.com/duetbot/duet/shared/app"
	"github.com/duetbot/duet/shared/app/brains"
	"github.com/duetbot/duet/shared/config"
	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/httpapi"
	"github.com/duetbot/duet/shared/metrics"
	"github.com/duetbot/duet/shared/telegram"
)

func init() {
	register("serve", "run both bots on one local HTTP server (POST /telegram, POST /annex, GET /healthz)", runServe)
}

// Local defaults of `duet serve` without TELEGRAM_BOT_TOKEN: the ConvAI bot
// talks to `duet sim` on its default address, so nothing leaves the machine.
const (
	localToken  = "local"
	localAPIURL = "http://127.0.0.1:8081"
)

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("serve", stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "listen address")
	verbose := fs.Bool("v", false, "log every request (method, path, status, duration; never bodies or headers) and debug lines")
	withMetrics := fs.Bool("metrics", false, "write the bots' metrics to the log, as the Lambda functions do: one CloudWatch Embedded Metric Format line each")
	if err := fs.Parse(args); err != nil {
		return err
	}
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	log := app.CLILogger(stderr, level)
	cfg, err := localConfig()
	if err != nil {
		return err
	}
	log.Debug("configuration", "config", cfg.String()) // secrets masked
	if cfg.TelegramWebhookSecret == "" {
		log.Warn("TELEGRAM_WEBHOOK_SECRET is not set: POST /telegram accepts updates from anyone who can reach it; set it before exposing this server")
	}
	// One store client and one set of back ends serve both bots.
	chats, exchanges, err := app.Stores(ctx, cfg, log)
	if err != nil {
		return err
	}
	// Off by default: the lines are for CloudWatch, and a local log reads
	// better without them.
	var rec metrics.Recorder
	if *withMetrics {
		rec = metrics.NewEMF(stderr, "serve")
	}
	backends, err := brains.New(ctx, cfg, log, brains.WithMetrics(rec))
	if err != nil {
		return err
	}
	engine, _, err := localEngine(cfg, chats, backends, log)
	if err != nil {
		return err
	}
	engine.Metrics = rec
	mux := http.NewServeMux()
	mux.Handle("/telegram", apigw.HTTP(httpapi.NewTelegram(engine, cfg.TelegramWebhookSecret, log).Handle, log))
	annexState, err := mountAnnex(ctx, mux, cfg, exchanges, backends, log, annex.WithMetrics(rec))
	if err != nil {
		return fmt.Errorf("annex bot: %w", err)
	}
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintln(w, `{"ok":true}`)
	})

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	var handler http.Handler = mux
	if *verbose {
		handler = logRequests(mux, log)
	}
	srv := newServer(handler, defaultServerLimits)
	go sweepEvery(ctx, engine, cfg.SweepInterval, log)
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	fmt.Fprintf(stdout, "duet serve: listening on http://%s (store: %s, brain: %s)\n", ln.Addr(), storeName(cfg), cfg.Brain)
	fmt.Fprintf(stdout, "  POST /telegram  ConvAI bot, replies via %s\n", cfg.TelegramAPIURL)
	fmt.Fprintf(stdout, "  POST /annex     annex bot, %s\n", annexState)
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// serverLimits bounds what one connection of `duet serve` may hold: slow
// clients and idle keep-alives are cut off instead of piling up.
type serverLimits struct {
	// ReadHeader and Read bound reading the headers, and the whole request
	// body included, from the start of the request.
	ReadHeader, Read time.Duration
	// Write bounds the handler and the answer, from the end of the headers.
	Write time.Duration
	// Idle bounds how long a keep-alive connection waits for its next request.
	Idle time.Duration
	// MaxHeaderBytes bounds the request line and headers.
	MaxHeaderBytes int
}

// defaultServerLimits fit the handlers: each runs under apigw.RequestTimeout
// (28 s; the webhook may take up to ~25 s to deliver a reply), so Write
// leaves room past it to send the answer. Read also exceeds it, because Go
// cancels a request's context when the connection's read deadline passes
// while its handler still runs; bodies are at most 1 MiB, which any live
// client sends in far less.
var defaultServerLimits = serverLimits{
	ReadHeader:     10 * time.Second,
	Read:           apigw.RequestTimeout + 5*time.Second,
	Write:          apigw.RequestTimeout + 10*time.Second,
	Idle:           60 * time.Second,
	MaxHeaderBytes: 64 << 10,
}

// newServer returns the HTTP server of `duet serve` for h, with limits.
func newServer(h http.Handler, limits serverLimits) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: limits.ReadHeader,
		ReadTimeout:       limits.Read,
		WriteTimeout:      limits.Write,
		IdleTimeout:       limits.Idle,
		MaxHeaderBytes:    limits.MaxHeaderBytes,
	}
}

// localConfig reads the environment, filling in the local defaults of the CLI.
func localConfig() (config.Config, error) {
	cfg, err := config.FromEnv()
	if err != nil {
		return cfg, err
	}
	if cfg.TelegramBotToken == "" {
		cfg.TelegramBotToken = localToken
		if cfg.TelegramAPIURL == config.DefaultTelegramAPIURL {
			cfg.TelegramAPIURL = localAPIURL
		}
	}
	return cfg, nil
}

// localEngine builds the ConvAI engine of the CLI on store, with the Bot API
// client it delivers through.
func localEngine(cfg config.Config, store convai.Store, brains app.Brains, log *slog.Logger) (*convai.Engine, *telegram.Client, error) {
	tg, err := app.TelegramClient(cfg, log)
	if err != nil {
		return nil, nil, err
	}
	return app.ConvAIEngine(cfg, store, tg, brains, log), tg, nil
}

func storeName(cfg config.Config) string {
	if cfg.SessionsTable == "" {
		return "embedded"
	}
	return "dynamodb:" + cfg.SessionsTable
}

// sweepEvery runs the idle-chat sweeper until ctx is done, as the scheduled
// function does when deployed.
func sweepEvery(ctx context.Context, engine *convai.Engine, every time.Duration, log *slog.Logger) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			res, err := engine.Sweep(ctx)
			if err != nil {
				log.Warn("sweep failed", "err", err)
				continue
			}
			if res != (convai.SweepResult{}) {
				log.Info("sweep", "ended", res.Ended, "delivered", res.Delivered, "failed", res.Failed)
			}
		}
	}
}

// logRequests logs each request's method, path, status and duration at
// info level: what `serve -v` shows. Bodies and headers (secrets) are
// never logged.
func logRequests(h http.Handler, log *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		h.ServeHTTP(rec, r)
		log.InfoContext(r.Context(), "request", "method", r.Method, "path", r.URL.Path,
			"status", rec.status, "took", time.Since(start).Round(time.Microsecond))
	})
}

// statusRecorder remembers the status a handler wrote.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}
