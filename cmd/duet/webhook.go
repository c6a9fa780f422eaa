package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"

	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/cloudformation"

	"github.com/duetbot/duet/shared/awslog"
	"github.com/duetbot/duet/shared/config"
	"github.com/duetbot/duet/shared/paramstore"
	"github.com/duetbot/duet/shared/telegram"
)

// webhookOutput is the stack output holding the bot's webhook URL.
const webhookOutput = "TelegramWebhookUrl"

func init() {
	register("webhook", "manage the bot's Telegram webhook: webhook set [-url URL | -stack NAME] [-secret S] | info | delete", runWebhook)
}

const webhookUsage = "usage: duet webhook set [-url URL | -stack NAME] [-secret S] | info | delete"

func runWebhook(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: %s", errUsage, webhookUsage)
	}
	sub, args := args[0], args[1:]
	cfg, err := config.FromEnv()
	if err != nil {
		return err
	}
	fs := newFlags("webhook "+sub, stderr)
	var urlFlag, stack, secret *string
	var noSecret *bool
	switch sub {
	case "set":
		urlFlag = fs.String("url", "", "the webhook URL (https)")
		stack = fs.String("stack", "", "read the URL from the "+webhookOutput+" output of this CloudFormation stack, and the secrets from the SSM parameters it names")
		// The default is filled in after parsing, so that -h never prints it.
		secret = fs.String("secret", "", "secret token Telegram sends in X-Telegram-Bot-Api-Secret-Token (default: $TELEGRAM_WEBHOOK_SECRET, or the SSM parameter $TELEGRAM_WEBHOOK_SECRET_PARAMETER)")
		noSecret = fs.Bool("no-secret", false, "set the webhook without a secret token (the deployed function refuses such updates)")
	case "info", "delete":
	default:
		return fmt.Errorf("%w: unknown webhook command %q\n%s", errUsage, sub, webhookUsage)
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected arguments %q\n%s", errUsage, fs.Args(), webhookUsage)
	}
	var url string
	if sub == "set" {
		url = strings.TrimSpace(*urlFlag)
		switch {
		case url != "" && *stack != "":
			return fmt.Errorf("%w: give -url or -stack, not both", errUsage)
		case url == "" && *stack == "":
			return fmt.Errorf("%w: give -url URL or -stack NAME", errUsage)
		case *stack != "":
			awsCfg, err := awsconfig.LoadDefaultConfig(ctx, awsconfig.WithLogger(awslog.Logger()))
			if err != nil {
				return fmt.Errorf("load AWS configuration: %w", err)
			}
			if url, err = fromStack(ctx, cloudformation.NewFromConfig(awsCfg), *stack, &cfg); err != nil {
				return err
			}
		}
	}
	// As deployed, the token and the secret may be SSM parameters
	// (TELEGRAM_BOT_TOKEN_PARAMETER, TELEGRAM_WEBHOOK_SECRET_PARAMETER, or
	// the stack's): read them when the plain variables are absent.
	only := []string{"TELEGRAM_BOT_TOKEN"}
	if sub == "set" && *secret == "" && !*noSecret {
		only = append(only, "TELEGRAM_WEBHOOK_SECRET")
	}
	if err := paramstore.Resolve(ctx, &cfg, paramstore.NewClient, only...); err != nil {
		return err
	}
	if sub == "set" {
		if *secret == "" {
			*secret = cfg.TelegramWebhookSecret
		}
		if *secret == "" && !*noSecret {
			return fmt.Errorf("%w: no secret token: set TELEGRAM_WEBHOOK_SECRET_PARAMETER (the parameter you deployed with) or TELEGRAM_WEBHOOK_SECRET, or pass -secret; -no-secret sets none", errUsage)
		}
	}
	if err := cfg.RequireTelegram(); err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	client, err := telegram.New(cfg.TelegramAPIURL, cfg.TelegramBotToken, telegram.WithLogger(log))
	if err != nil {
		return err
	}
	switch sub {
	case "set":
		if err := client.SetWebhook(ctx, url, *secret); err != nil {
			return fmt.Errorf("set webhook: %w", err)
		}
		state := "without a secret token"
		if *secret != "" {
			state = "with the secret token"
		}
		fmt.Fprintf(stdout, "webhook set to %s %s\n", url, state)
	case "info":
		info, err := client.GetWebhookInfo(ctx)
		if err != nil {
			return fmt.Errorf("get webhook info: %w", err)
		}
		url := info.URL
		if url == "" {
			url = "(none: the bot gets updates by getUpdates)"
		}
		fmt.Fprintf(stdout, "url: %s\npending updates: %d\n", url, info.PendingUpdateCount)
		if len(info.AllowedUpdates) > 0 {
			fmt.Fprintf(stdout, "allowed updates: %s\n", strings.Join(info.AllowedUpdates, ", "))
		}
		if info.LastErrorMessage != "" {
			fmt.Fprintf(stdout, "last error: %s (at unix time %d)\n", info.LastErrorMessage, info.LastErrorDate)
		}
	case "delete":
		if err := client.DeleteWebhook(ctx); err != nil {
			return fmt.Errorf("delete webhook: %w", err)
		}
		fmt.Fprintln(stdout, "webhook deleted; pending updates kept")
	}
	return nil
}

// fromStack returns the webhook URL of stack, and names the SSM parameters
// of the bot token and the webhook secret the stack was deployed with in
// cfg, unless the environment named others.
func fromStack(ctx context.Context, api stackDescriber, stack string, cfg *config.Config) (string, error) {
	url, err := stackOutput(ctx, api, stack, webhookOutput)
	if err != nil {
		return "", err
	}
	params, err := stackParameters(ctx, api, stack)
	if err != nil {
		return "", err
	}
	if cfg.TelegramBotTokenParameter == "" {
		cfg.TelegramBotTokenParameter = params["TelegramBotTokenParameter"]
	}
	if cfg.TelegramWebhookSecretParameter == "" {
		cfg.TelegramWebhookSecretParameter = params["TelegramWebhookSecretParameter"]
	}
	return url, nil
}

// stackParameters returns the parameters stack was deployed with (NoEcho
// ones read "****"; the template has none).
func stackParameters(ctx context.Context, api stackDescriber, stack string) (map[string]string, error) {
	out, err := api.DescribeStacks(ctx, &cloudformation.DescribeStacksInput{StackName: &stack})
	if err != nil {
		return nil, fmt.Errorf("describe stack %s: %w", stack, err)
	}
	params := map[string]string{}
	for _, st := range out.Stacks {
		for _, p := range st.Parameters {
			if p.ParameterKey != nil && p.ParameterValue != nil {
				params[*p.ParameterKey] = *p.ParameterValue
			}
		}
	}
	return params, nil
}

// stackDescriber is the part of the CloudFormation client stackOutput uses.
type stackDescriber interface {
	DescribeStacks(ctx context.Context, in *cloudformation.DescribeStacksInput, opts ...func(*cloudformation.Options)) (*cloudformation.DescribeStacksOutput, error)
}

// stackOutput returns the value of output key of stack.
func stackOutput(ctx context.Context, api stackDescriber, stack, key string) (string, error) {
	out, err := api.DescribeStacks(ctx, &cloudformation.DescribeStacksInput{StackName: &stack})
	if err != nil {
		return "", fmt.Errorf("describe stack %s: %w", stack, err)
	}
	if len(out.Stacks) == 0 {
		return "", fmt.Errorf("describe stack %s: no such stack", stack)
	}
	for _, o := range out.Stacks[0].Outputs {
		if o.OutputKey != nil && *o.OutputKey == key && o.OutputValue != nil && *o.OutputValue != "" {
			return *o.OutputValue, nil
		}
	}
	return "", errors.New("stack " + stack + " has no output " + key + ": is it deployed from this template?")
}
