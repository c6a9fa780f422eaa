package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/duetbot/duet/shared/app"
	"github.com/duetbot/duet/shared/app/brains"
	"github.com/duetbot/duet/shared/chat"
	"github.com/duetbot/duet/shared/convaisim"
	"github.com/duetbot/duet/shared/store/memstore"
	"github.com/duetbot/duet/shared/transcript"
)

func init() {
	register("chat", "talk to the ConvAI bot as its partner (or to the annex bot: -annex), in-process or at -bot URL", runChat)
}

// chatFlags are the flags of duet chat.
type chatFlags struct {
	dialect, context, profile, options, save, bot, apiAddr, token, secret string
	json, annex                                                           bool
	timeout                                                               time.Duration
}

func runChat(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return runChatWith(ctx, args, os.Stdin, isTerminal(os.Stdin), stdout, stderr)
}

// isTerminal (eval.go) reports whether stdin is a terminal.

const chatUsage = `usage: duet chat [-dialect D] [-context TEXT | -profile FILE] [-options FILE] [-json] [-save FILE] [-bot URL]
       duet chat -annex [-json] [-bot URL]

Talk to the ConvAI bot as its partner: one message a line. The first line of
a chat is its context unless -context or -profile opens it; /begin makes the
bot speak first, /end ends the chat (the bot answers with its final scores),
/new starts a fresh one, Ctrl-D quits. On a terminal each reply shows the
bot's rating of your line; piped, -json prints each bot message as the
server receives it, one JSON a line.

By default the bot runs in-process, as duet serve builds it (BRAIN and the
rest from the environment, the embedded store). With -bot URL duet chat
posts each update to a running bot's webhook and serves the Bot API on
-api-addr (default ` + simBotAddr + `, where duet serve replies by default):
  duet serve &                      # replies to http://` + simBotAddr + `, token local
  duet chat -bot http://127.0.0.1:8080/telegram
For another address, start the bot with the TELEGRAM_API_URL duet chat
prints (the convai2017 dialect puts the token in the URL: .../{token}).

-annex talks to the annex bot instead: each line is a message to the person
(ANNEX_PERSON_NAME, ANNEX_PERSONA_FILE; else the repository's sample
persona), sent as the hive sends it; with -bot URL, to a running bot's
/annex with the key in ANNEX_CALLER_KEY.

flags:`

func runChatWith(ctx context.Context, args []string, stdin io.Reader, terminal bool, stdout, stderr io.Writer) error {
	fs := newFlags("chat", stderr)
	var f chatFlags
	fs.StringVar(&f.dialect, "dialect", "telegram", "server to imitate: telegram, convai2017 or convai2018")
	fs.StringVar(&f.context, "context", "", "open each chat with /start TEXT (default: the first line typed is the context)")
	fs.StringVar(&f.profile, "profile", "", "open each chat with the bot's profile from this FILE, one sentence a line, as /start and the profile in one message")
	fs.StringVar(&f.options, "options", "", "candidate profiles of the partner for the convai2018 evaluation request: a FILE of profiles, one sentence a line, a blank line between profiles (default: two at random)")
	fs.BoolVar(&f.json, "json", false, "print each bot message exactly as the server receives it, one JSON a line (with -annex: each response body)")
	fs.StringVar(&f.save, "save", "", "write the transcripts to this FILE in the ConvAI2 release format (duet rate -dialogs FILE reads it)")
	fs.StringVar(&f.bot, "bot", "", "a running bot's webhook URL (e.g. http://127.0.0.1:8080/telegram of duet serve; with -annex its /annex URL); empty: Duet's bot in-process")
	fs.StringVar(&f.apiAddr, "api-addr", simBotAddr, "with -bot: the address where duet chat serves the Bot API the bot replies through")
	fs.StringVar(&f.token, "token", localToken, "with -bot: the bot token the bot uses")
	fs.StringVar(&f.secret, "secret", "", "with -bot: secret token sent in X-Telegram-Bot-Api-Secret-Token with each update")
	fs.DurationVar(&f.timeout, "timeout", convaisim.DefaultReplyTimeout, "how long to wait for each reply")
	fs.BoolVar(&f.annex, "annex", false, "talk to the annex bot: each line is a message to the person")
	fs.Usage = func() { fmt.Fprintln(fs.Output(), chatUsage); fs.PrintDefaults() }
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: duet chat takes no arguments, got %q", errUsage, fs.Args())
	}
	if f.annex {
		return chatAnnex(ctx, f, stdin, terminal, stdout, stderr)
	}
	return chatConvAI(ctx, f, stdin, terminal, stdout, stderr)
}

func chatConvAI(ctx context.Context, f chatFlags, stdin io.Reader, terminal bool, stdout, stderr io.Writer) error {
	d, err := convaisim.ParseDialect(f.dialect)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	opts := chat.Options{Dialect: d, Context: f.context, JSON: f.json, Terminal: terminal && !f.json, Out: stdout, Info: stderr}
	if f.profile != "" {
		if f.context != "" {
			return fmt.Errorf("%w: -context and -profile both open the chat: give one", errUsage)
		}
		if opts.Profile, err = readFile(f.profile, chat.MaxProfileBytes, chat.ReadProfile); err != nil {
			return fmt.Errorf("-profile: %w", err)
		}
	}
	if f.options != "" {
		if d != convaisim.Dialect2018 {
			return fmt.Errorf("%w: -options is for the convai2018 dialect's evaluation request", errUsage)
		}
		if opts.Options, err = readFile(f.options, chat.MaxProfileBytes, chat.ReadProfiles); err != nil {
			return fmt.Errorf("-options: %w", err)
		}
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	cfg := convaisim.Config{Dialect: d, Chats: 1, ReplyTimeout: f.timeout, Log: log}
	if f.bot != "" {
		cfg.Mode, cfg.WebhookURL, cfg.Addr, cfg.Token, cfg.Secret = convaisim.ModeWebhook, f.bot, f.apiAddr, f.token, f.secret
	}
	server, err := convaisim.NewServer(cfg)
	if err != nil {
		return err
	}
	apiURL, stopServer, err := server.Listen()
	if err != nil {
		return err
	}
	defer stopServer()
	if f.bot != "" {
		fmt.Fprintf(stderr, "duet chat: talking to the bot at %s (dialect %s); it must reply through this Bot API:\n  TELEGRAM_API_URL=%s TELEGRAM_BOT_TOKEN=%s\n",
			f.bot, d, apiURL, server.Token())
	} else {
		stopBot, brain, err := startChatBot(ctx, apiURL, server.Token(), log)
		if err != nil {
			return err
		}
		defer stopBot()
		fmt.Fprintf(stderr, "duet chat: Duet's ConvAI bot in-process (brain %s, embedded store), dialect %s\n", brain, d)
	}
	if terminal && !f.json {
		fmt.Fprintln(stderr, "duet chat: one message a line; /begin: the bot speaks first; /end: end the chat; /new: a fresh chat; Ctrl-D: quit")
	}
	s := chat.NewSession(server, opts)
	runErr := s.Run(ctx, stdin)
	if f.save != "" {
		if err := saveChats(f.save, s.Chats()); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "duet chat: wrote %d chat(s) to %s\n", len(s.Chats()), f.save)
	}
	if runErr != nil {
		return runErr
	}
	if n := s.Violations(); n > 0 {
		return fmt.Errorf("the bot broke the protocol %d times (PROTOCOL lines above)", n)
	}
	return nil
}

// startChatBot runs Duet's ConvAI bot in-process as duet serve builds it
// (the environment's BRAIN and settings), on the embedded store, polling
// the API at apiURL.
func startChatBot(ctx context.Context, apiURL, token string, log *slog.Logger) (stop func(), brain string, err error) {
	cfg, err := localConfig()
	if err != nil {
		return nil, "", err
	}
	cfg.TelegramAPIURL, cfg.TelegramBotToken = apiURL, token
	client, err := app.TelegramClient(cfg, log)
	if err != nil {
		return nil, "", fmt.Errorf("telegram client: %w", err)
	}
	backends, err := brains.New(ctx, cfg, log)
	if err != nil {
		return nil, "", err
	}
	bot := &simBot{log: log, client: client, engine: app.ConvAIEngine(cfg, memstore.New(), client, backends, log)}
	return bot.poll(), cfg.Brain, nil
}

// saveChats writes chats to path in the ConvAI2 release format, as duet
// chats export does.
func saveChats(path string, chats []transcript.Chat) error {
	out, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("-save: %w", err)
	}
	if err := transcript.WriteConvAI2(out, chats); err != nil {
		out.Close()
		return fmt.Errorf("-save %s: %w", path, err)
	}
	if err := out.Close(); err != nil {
		return fmt.Errorf("-save %s: %w", path, err)
	}
	return nil
}
