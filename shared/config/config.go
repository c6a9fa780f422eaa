// Package config reads Duet's configuration from environment variables, the
// same names for the Lambda functions and for `duet serve`. Secrets are
// read here and nowhere else, and String never prints them.
package config

import (
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"time"
)

// Config is Duet's configuration. See the configuration table in docs/operations.md.
type Config struct {
	TelegramAPIURL        string        // TELEGRAM_API_URL
	TelegramBotToken      string        // TELEGRAM_BOT_TOKEN (secret)
	TelegramWebhookSecret string        // TELEGRAM_WEBHOOK_SECRET (secret)
	ChatIdleTimeout       time.Duration // CHAT_IDLE_TIMEOUT
	ChatMaxTurns          int           // CHAT_MAX_TURNS
	SweepInterval         time.Duration // SWEEP_INTERVAL
	SessionsTable         string        // SESSIONS_TABLE
	DynamoDBEndpoint      string        // DYNAMODB_ENDPOINT
	SessionTTL            time.Duration // SESSION_TTL
	DeliveryTimeout       time.Duration // DELIVERY_TIMEOUT
	LocalMaxChats         int           // LOCAL_MAX_CHATS
	LocalMaxBytes         int64         // LOCAL_MAX_BYTES
	AnnexCallerKey        string        // ANNEX_CALLER_KEY (secret)
	AnnexPersonName       string        // ANNEX_PERSON_NAME
	AnnexPersonaFile      string        // ANNEX_PERSONA_FILE
	Brain                 string        // BRAIN: offline, bedrock, openai or clariq
	BrainModel            string        // BRAIN_MODEL
	BrainTimeout          time.Duration // BRAIN_TIMEOUT
	OpenAIBaseURL         string        // OPENAI_BASE_URL
	OpenAIAPIKey          string        // OPENAI_API_KEY (secret)
	// The *Parameter fields name SSM SecureString parameters holding the
	// secrets above (<VAR>_PARAMETER): deployed functions read them once per
	// cold start (package paramstore), so that no secret sits in the
	// template or the function's environment. A plain variable that is set
	// wins over its parameter (local runs).
	TelegramBotTokenParameter      string // TELEGRAM_BOT_TOKEN_PARAMETER
	TelegramWebhookSecretParameter string // TELEGRAM_WEBHOOK_SECRET_PARAMETER
	AnnexCallerKeyParameter        string // ANNEX_CALLER_KEY_PARAMETER
	OpenAIAPIKeyParameter          string // OPENAI_API_KEY_PARAMETER
	// ClariqBank is the ClariQ question bank (CLARIQ_BANK, a
	// question_bank.tsv) for BRAIN=clariq; unset, a deployed function reads
	// the bank `duet clariq import` stored in SESSIONS_TABLE.
	ClariqBank string

	// TelegramWebhookInsecure (TELEGRAM_WEBHOOK_INSECURE=1) lets the
	// webhook Lambda start without TelegramWebhookSecret.
	TelegramWebhookInsecure bool
}

// Defaults of the optional variables.
const (
	DefaultTelegramAPIURL  = "https://api.telegram.org"
	DefaultChatIdleTimeout = 5 * time.Minute
	DefaultChatMaxTurns    = 20
	DefaultSweepInterval   = time.Minute
	DefaultSessionTTL      = 168 * time.Hour
	// DefaultDeliveryTimeout bounds the handling of one update, reply and
	// delivery included, whether or not the caller still waits.
	DefaultDeliveryTimeout = 20 * time.Second
	// DefaultLocalMaxChats caps the chats the embedded store keeps.
	DefaultLocalMaxChats = 10_000
	// DefaultLocalMaxBytes caps the bytes each embedded store keeps (the
	// chats; the annex exchanges).
	DefaultLocalMaxBytes = 128 << 20
	DefaultBrain         = "offline"
	DefaultBrainTimeout  = 10 * time.Second
	DefaultOpenAIBaseURL = "https://api.openai.com/v1"
)

// FromEnv reads the configuration from the process environment.
func FromEnv() (Config, error) { return Load(os.LookupEnv) }

// Load reads the configuration through lookup (os.LookupEnv in production).
// It reports every malformed variable at once.
func Load(lookup func(string) (string, bool)) (Config, error) {
	get := func(k, def string) string {
		if v, ok := lookup(k); ok && strings.TrimSpace(v) != "" {
			return strings.TrimSpace(v)
		}
		return def
	}
	var errs []error
	dur := func(k string, def time.Duration) time.Duration {
		v := get(k, "")
		if v == "" {
			return def
		}
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			errs = append(errs, fmt.Errorf("%s=%q: want a positive Go duration such as 5m or 168h", k, v))
			return def
		}
		return d
	}
	c := Config{
		TelegramAPIURL:                 strings.TrimRight(get("TELEGRAM_API_URL", DefaultTelegramAPIURL), "/"),
		TelegramBotToken:               get("TELEGRAM_BOT_TOKEN", ""),
		TelegramWebhookSecret:          get("TELEGRAM_WEBHOOK_SECRET", ""),
		ChatIdleTimeout:                dur("CHAT_IDLE_TIMEOUT", DefaultChatIdleTimeout),
		SweepInterval:                  dur("SWEEP_INTERVAL", DefaultSweepInterval),
		SessionsTable:                  get("SESSIONS_TABLE", ""),
		DynamoDBEndpoint:               get("DYNAMODB_ENDPOINT", ""),
		SessionTTL:                     dur("SESSION_TTL", DefaultSessionTTL),
		DeliveryTimeout:                dur("DELIVERY_TIMEOUT", DefaultDeliveryTimeout),
		LocalMaxChats:                  DefaultLocalMaxChats,
		LocalMaxBytes:                  DefaultLocalMaxBytes,
		AnnexCallerKey:                 get("ANNEX_CALLER_KEY", ""),
		AnnexPersonName:                get("ANNEX_PERSON_NAME", ""),
		AnnexPersonaFile:               get("ANNEX_PERSONA_FILE", ""),
		Brain:                          strings.ToLower(get("BRAIN", DefaultBrain)),
		BrainModel:                     get("BRAIN_MODEL", ""),
		BrainTimeout:                   dur("BRAIN_TIMEOUT", DefaultBrainTimeout),
		OpenAIBaseURL:                  strings.TrimRight(get("OPENAI_BASE_URL", DefaultOpenAIBaseURL), "/"),
		OpenAIAPIKey:                   get("OPENAI_API_KEY", ""),
		OpenAIAPIKeyParameter:          get("OPENAI_API_KEY_PARAMETER", ""),
		TelegramBotTokenParameter:      get("TELEGRAM_BOT_TOKEN_PARAMETER", ""),
		TelegramWebhookSecretParameter: get("TELEGRAM_WEBHOOK_SECRET_PARAMETER", ""),
		AnnexCallerKeyParameter:        get("ANNEX_CALLER_KEY_PARAMETER", ""),
		ClariqBank:                     get("CLARIQ_BANK", ""),
		ChatMaxTurns:                   DefaultChatMaxTurns,
	}
	if v := get("TELEGRAM_WEBHOOK_INSECURE", ""); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			errs = append(errs, fmt.Errorf("TELEGRAM_WEBHOOK_INSECURE=%q: want 1 or 0", v))
		}
		c.TelegramWebhookInsecure = b
	}
	if v := get("LOCAL_MAX_CHATS", ""); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			errs = append(errs, fmt.Errorf("LOCAL_MAX_CHATS=%q: want a whole number of at least 1", v))
		} else {
			c.LocalMaxChats = n
		}
	}
	if v := get("LOCAL_MAX_BYTES", ""); v != "" {
		n, err := parseBytes(v)
		if err != nil || n < 1<<20 {
			errs = append(errs, fmt.Errorf("LOCAL_MAX_BYTES=%q: want a size of at least 1MiB, such as 256MiB or 1GiB", v))
		} else {
			c.LocalMaxBytes = n
		}
	}
	if v := get("CHAT_MAX_TURNS", ""); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			errs = append(errs, fmt.Errorf("CHAT_MAX_TURNS=%q: want a whole number of at least 1", v))
		} else {
			c.ChatMaxTurns = n
		}
	}
	switch c.Brain {
	case "offline", "bedrock", "openai", "clariq":
	default:
		errs = append(errs, fmt.Errorf("BRAIN=%q: want offline, bedrock, openai or clariq", c.Brain))
	}
	return c, errors.Join(errs...)
}

// RequireTelegram reports a missing bot token, which the ConvAI bot cannot run without.
func (c Config) RequireTelegram() error {
	if c.TelegramBotToken == "" {
		return errors.New("TELEGRAM_BOT_TOKEN is not set (nor TELEGRAM_BOT_TOKEN_PARAMETER, an SSM parameter holding it): the ConvAI bot needs its bot token")
	}
	return nil
}

// RequireWebhookSecret reports a webhook that would accept updates from
// anyone: no TELEGRAM_WEBHOOK_SECRET, and no explicit
// TELEGRAM_WEBHOOK_INSECURE=1 opt-out.
func (c Config) RequireWebhookSecret() error {
	if c.TelegramWebhookSecret == "" && !c.TelegramWebhookInsecure {
		return errors.New("TELEGRAM_WEBHOOK_SECRET is not set: the webhook would accept updates from anyone; set it (and give it to setWebhook), or set TELEGRAM_WEBHOOK_INSECURE=1 to run without it")
	}
	return nil
}

// Secret is one secret of the configuration: its plain variable, the
// SSM parameter that may hold it instead, and where its value goes.
type Secret struct {
	Var       string  // TELEGRAM_BOT_TOKEN
	Parameter string  // the SSM parameter's name, from <Var>_PARAMETER; "" for none
	Value     *string // the Config field holding the value
}

// ParameterVar returns the variable naming s's parameter: <Var>_PARAMETER.
func (s Secret) ParameterVar() string { return s.Var + "_PARAMETER" }

// Unresolved returns the secrets that name an SSM parameter and have no
// plain value: those package paramstore reads.
func (c *Config) Unresolved() []Secret {
	var out []Secret
	for _, s := range []Secret{
		{"TELEGRAM_BOT_TOKEN", c.TelegramBotTokenParameter, &c.TelegramBotToken},
		{"TELEGRAM_WEBHOOK_SECRET", c.TelegramWebhookSecretParameter, &c.TelegramWebhookSecret},
		{"ANNEX_CALLER_KEY", c.AnnexCallerKeyParameter, &c.AnnexCallerKey},
		{"OPENAI_API_KEY", c.OpenAIAPIKeyParameter, &c.OpenAIAPIKey},
	} {
		if s.Parameter != "" && *s.Value == "" {
			out = append(out, s)
		}
	}
	return out
}

// String describes the configuration with every secret masked, for logs.
// Parameter names are not secret and are shown.
func (c Config) String() string {
	return fmt.Sprintf("api=%s token=%s webhook_secret=%s idle=%s max_turns=%d sweep=%s table=%q endpoint=%q ttl=%s annex_key=%s person=%q persona_file=%q brain=%s model=%q brain_timeout=%s openai_base=%s openai_key=%s parameters=%q",
		c.TelegramAPIURL, mask(c.TelegramBotToken), mask(c.TelegramWebhookSecret), c.ChatIdleTimeout, c.ChatMaxTurns,
		c.SweepInterval, c.SessionsTable, c.DynamoDBEndpoint, c.SessionTTL, mask(c.AnnexCallerKey),
		c.AnnexPersonName, c.AnnexPersonaFile, c.Brain, c.BrainModel, c.BrainTimeout, c.OpenAIBaseURL,
		mask(c.OpenAIAPIKey), []string{c.TelegramBotTokenParameter, c.TelegramWebhookSecretParameter, c.AnnexCallerKeyParameter, c.OpenAIAPIKeyParameter})
}

// parseBytes reads a size: a whole number of bytes, or of KiB, MiB or
// GiB ("256MiB").
func parseBytes(v string) (int64, error) {
	unit := int64(1)
	for suffix, u := range map[string]int64{"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30} {
		if n, ok := strings.CutSuffix(v, suffix); ok {
			v, unit = strings.TrimSpace(n), u
			break
		}
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 || n > math.MaxInt64/unit {
		return 0, fmt.Errorf("size %q: want a whole number of bytes, KiB, MiB or GiB", v)
	}
	return n * unit, nil
}

func mask(s string) string {
	if s == "" {
		return "unset"
	}
	return "set"
}
