package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/duetbot/duet/shared/apigw"
	"github.com/duetbot/duet/shared/app"
	"github.com/duetbot/duet/shared/app/brains"
	"github.com/duetbot/duet/shared/config"
	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/convaisim"
	"github.com/duetbot/duet/shared/httpapi"
	"github.com/duetbot/duet/shared/poller"
	"github.com/duetbot/duet/shared/store/memstore"
	"github.com/duetbot/duet/shared/telegram"
)

// simBotAddr is where `duet sim -bot` serves the API by default: the
// address in localAPIURL.
const simBotAddr = "127.0.0.1:8081"

func init() {
	register("sim", "play scripted ConvAI partners against a bot and check every reply against the protocol", runSim)
}

func runSim(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("sim", stderr)
	dialect := fs.String("dialect", "telegram", "server to imitate: telegram, convai2017 or convai2018")
	chats := fs.Int("chats", convaisim.DefaultChats, "chats run at once")
	botURL := fs.String("bot", "", "an external bot: its webhook URL (with -mode poll, any value: the bot polls the simulator); empty: Duet's own bot in-process")
	mode := fs.String("mode", "", "how updates reach the bot: poll or webhook (default: webhook with -bot, else poll)")
	addr := fs.String("addr", "", "address the simulated server listens on (default: a free port; with -bot, "+simBotAddr+", where duet serve sends replies by default)")
	secret := fs.String("secret", "", "secret token sent in X-Telegram-Bot-Api-Secret-Token with webhook updates")
	timeout := fs.Duration("timeout", convaisim.DefaultReplyTimeout, "how long a partner waits for each reply")
	token := fs.String("token", "", "bot token the bot must use (default: a random one; with -bot, "+localToken+", the token of duet serve without TELEGRAM_BOT_TOKEN)")
	quiet := fs.Bool("q", false, "print only the summary, not the transcripts")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: duet sim takes no arguments, got %q", errUsage, fs.Args())
	}
	d, err := convaisim.ParseDialect(*dialect)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if *mode == "" {
		*mode = string(convaisim.ModePoll)
		if *botURL != "" {
			*mode = string(convaisim.ModeWebhook)
		}
	}
	if *botURL != "" {
		// An external bot: listen where `duet serve` and `duet poll` send
		// by default, so the two work together with no configuration.
		if *addr == "" {
			*addr = simBotAddr
		}
		if *token == "" {
			*token = localToken
		}
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	cfg := convaisim.Config{
		Dialect: d, Mode: convaisim.Mode(*mode), Chats: *chats, Addr: *addr, Secret: *secret,
		ReplyTimeout: *timeout, Token: *token, Out: stdout, Quiet: *quiet, Log: log,
	}
	if cfg.Mode != convaisim.ModePoll && cfg.Mode != convaisim.ModeWebhook {
		return fmt.Errorf("%w: -mode %q: want poll or webhook", errUsage, *mode)
	}

	var stopBot func()
	switch {
	case *botURL != "" && cfg.Mode == convaisim.ModeWebhook:
		cfg.WebhookURL = *botURL
	case *botURL != "":
		cfg.WaitForPoll = true
		cfg.Ready = func(_ context.Context, apiURL, token string) error {
			fmt.Fprintf(stdout, "duet sim: waiting for the bot to poll.\n  TELEGRAM_API_URL=%s\n  TELEGRAM_BOT_TOKEN=%s\n", apiURL, token)
			return nil
		}
	default:
		bot := &simBot{log: log, secret: *secret}
		if cfg.Mode == convaisim.ModeWebhook {
			url, stop, err := bot.serveWebhook()
			if err != nil {
				return err
			}
			cfg.WebhookURL, stopBot = url, stop
			cfg.Ready = bot.start
		} else {
			cfg.Ready = func(ctx context.Context, apiURL, token string) error {
				if err := bot.start(ctx, apiURL, token); err != nil {
					return err
				}
				stopBot = bot.poll()
				return nil
			}
		}
	}
	cfg.Stop = func() {
		if stopBot != nil {
			stopBot()
			stopBot = nil
		}
	}
	rep, err := convaisim.Run(ctx, cfg)
	cfg.Stop()
	if err != nil {
		return fmt.Errorf("simulation: %w", err)
	}
	if rep.Unreachable != "" {
		return fmt.Errorf("the bot was unreachable: %s", rep.Unreachable)
	}
	if !rep.OK() {
		return fmt.Errorf("the bot broke the protocol %d times", rep.ViolationCount())
	}
	return nil
}

// simBot is Duet's own ConvAI bot run in-process against the simulator,
// built from the same parts as `duet serve` and `duet poll`.
type simBot struct {
	log     *slog.Logger
	secret  string
	client  *telegram.Client
	engine  *convai.Engine
	webhook atomic.Pointer[httpapi.Telegram] // set by start, read by requests
}

// start builds the bot once the simulator's API URL and token are known.
func (b *simBot) start(ctx context.Context, apiURL, token string) error {
	cfg, err := config.Load(func(string) (string, bool) { return "", false })
	if err != nil {
		return err
	}
	cfg.TelegramAPIURL, cfg.TelegramBotToken = apiURL, token
	client, err := app.TelegramClient(cfg, b.log)
	if err != nil {
		return fmt.Errorf("telegram client: %w", err)
	}
	backends, err := brains.New(ctx, cfg, b.log)
	if err != nil {
		return err
	}
	engine := app.ConvAIEngine(cfg, memstore.New(), client, backends, b.log)
	b.client, b.engine = client, engine
	b.webhook.Store(httpapi.NewTelegram(engine, b.secret, b.log))
	return nil
}

// poll runs the bot over getUpdates until the returned stop is called.
func (b *simBot) poll() (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		p := &poller.Poller{Source: b.client, Engine: b.engine, Timeout: 10 * time.Second, Log: b.log}
		_ = p.Run(ctx)
	}()
	return func() { cancel(); <-done }
}

// serveWebhook serves the bot's webhook on a local port with the deployed
// webhook handler. The engine is built later, when the simulator is ready.
func (b *simBot) serveWebhook() (url string, stop func(), err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, fmt.Errorf("listen for the bot's webhook: %w", err)
	}
	handler := apigw.HTTP(func(ctx context.Context, req events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
		h := b.webhook.Load()
		if h == nil {
			return apigw.JSON(http.StatusServiceUnavailable, apigw.ErrorBody{Error: "not ready"}), nil
		}
		return h.Handle(ctx, req)
	}, b.log)
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	stop = func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	}
	return "http://" + ln.Addr().String() + "/telegram", stop, nil
}
