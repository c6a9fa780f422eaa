package telegram

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/retry"
)

// Defaults of the client's options.
const (
	DefaultMaxAttempts = 5
	DefaultBackoffBase = 500 * time.Millisecond
	DefaultBackoffMax  = 30 * time.Second
	// DefaultMaxRetryAfter is the longest 429 retry_after the client
	// sleeps when its context has no deadline; a longer one is returned
	// at once as a retryable error.
	DefaultMaxRetryAfter = 30 * time.Second
	// DefaultRequestTimeout bounds one HTTP attempt, on top of a
	// getUpdates long-poll timeout.
	DefaultRequestTimeout = 30 * time.Second
	// maxBody bounds an answer read into memory.
	maxBody = 8 << 20
)

// Client calls the Bot API of one bot. It is safe for concurrent use.
type Client struct {
	// prefix is the URL before "/<method>", token included: never print it.
	prefix string
	token  string

	hc             *http.Client
	log            *slog.Logger
	maxAttempts    int
	backoff        retry.Backoff
	requestTimeout time.Duration
	sleep          func(ctx context.Context, d time.Duration) error
}

var _ convai.Sender = (*Client)(nil)

// Option configures a Client.
type Option func(*Client)

// WithHTTPClient replaces the pooled HTTP client (an in-process transport,
// a proxy). It should have no Timeout shorter than the longest getUpdates
// long poll; the client bounds each attempt itself.
func WithHTTPClient(hc *http.Client) Option { return func(c *Client) { c.hc = hc } }

// WithLogger sets the logger for retries.
func WithLogger(l *slog.Logger) Option { return func(c *Client) { c.log = l } }

// WithMaxAttempts bounds how many times one call is tried (at least 1).
func WithMaxAttempts(n int) Option { return func(c *Client) { c.maxAttempts = max(n, 1) } }

// WithBackoff sets the exponential backoff between retries of 5xx answers
// and network failures: the first wait is about base, each next one doubles,
// none exceeds maxWait. Waits are jittered.
func WithBackoff(base, maxWait time.Duration) Option {
	return func(c *Client) { c.backoff = retry.Backoff{Base: base, Max: maxWait} }
}

// WithRequestTimeout bounds one HTTP attempt (a getUpdates attempt gets its
// long-poll timeout on top).
func WithRequestTimeout(d time.Duration) Option { return func(c *Client) { c.requestTimeout = d } }

// WithSleep replaces the wait between retries, for tests that must not wait
// the whole seconds a 429 asks for. sleep must return ctx.Err() when ctx
// ends first.
func WithSleep(sleep func(ctx context.Context, d time.Duration) error) Option {
	return func(c *Client) { c.sleep = sleep }
}

// New returns a client for the bot with token at the API base baseURL
// (https://api.telegram.org, a 2018 router's address, or a 2017 server's
// http://host/path/{token}). It makes no network call. Its HTTP client is
// the package's pooled keep-alive transport (DefaultMaxIdleConnsPerHost
// idle connections per host, closed after DefaultIdleConnTimeout), shared
// by every Client of the process.
func New(baseURL, token string, opts ...Option) (*Client, error) {
	if token == "" {
		return nil, errors.New("telegram client: empty bot token")
	}
	base := strings.TrimRight(strings.TrimSpace(baseURL), "/")
	u, err := url.Parse(strings.ReplaceAll(base, "{token}", "token"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("telegram client: API base %q: want an http(s) URL", baseURL)
	}
	c := &Client{
		token:          token,
		hc:             &http.Client{Transport: sharedTransport},
		log:            slog.Default(),
		maxAttempts:    DefaultMaxAttempts,
		backoff:        retry.Backoff{Base: DefaultBackoffBase, Max: DefaultBackoffMax},
		requestTimeout: DefaultRequestTimeout,
		sleep:          retry.Sleep,
	}
	if strings.Contains(base, "{token}") {
		c.prefix = strings.ReplaceAll(base, "{token}", url.PathEscape(token))
	} else {
		c.prefix = base + "/bot" + url.PathEscape(token)
	}
	for _, o := range opts {
		o(c)
	}
	return c, nil
}

// GetUpdates asks for message updates from offset on, long-polling up to
// timeout (at least one second: the 2018 router answers [] at once to 0).
func (c *Client) GetUpdates(ctx context.Context, offset int64, timeout time.Duration) ([]Update, error) {
	secs := max(int64(timeout/time.Second), 1)
	params := map[string]any{"offset": offset, "timeout": secs, "allowed_updates": []string{"message"}}
	var ups []Update
	if err := c.call(ctx, "getUpdates", params, idempotent, time.Duration(secs)*time.Second, &ups); err != nil {
		return nil, err
	}
	return ups, nil
}

// SendMessage sends text to a chat and returns the message the server made
// of it. A server whose answer is not a Message (some answer true) still
// counts as a success: the message is returned as sent.
//
// sendMessage is not idempotent, so SendMessage retries only what cannot
// have reached the server — a failed dial (connection refused, DNS),
// a request not written in full — and the answers that say it was not
// acted on: 429 and 5xx. A connection that fails after the request was
// written returns an error wrapping ErrMaybeSent, not retried.
func (c *Client) SendMessage(ctx context.Context, chatID int64, text string) (*Message, error) {
	var raw json.RawMessage
	if err := c.call(ctx, "sendMessage", sendParams{chatID, text}, notIdempotent, 0, &raw); err != nil {
		return nil, err
	}
	var m Message
	if err := json.Unmarshal(raw, &m); err != nil || m.Chat.ID == 0 {
		c.log.DebugContext(ctx, "sendMessage answered with no message", "chat", chatID)
		return &Message{Chat: Chat{ID: chatID}, Text: text}, nil
	}
	return &m, nil
}

// Send delivers text to a chat: it makes the client a convai.Sender. It
// is SendMessage without the message: the answer is checked, not decoded.
func (c *Client) Send(ctx context.Context, chatID int64, text string) error {
	return c.call(ctx, "sendMessage", sendParams{chatID, text}, notIdempotent, 0, nil)
}

// sendParams are sendMessage's parameters.
type sendParams struct {
	ChatID int64  `json:"chat_id"`
	Text   string `json:"text"`
}

// SetWebhook points the bot's updates at url, to be sent with secretToken
// (if not empty) in the X-Telegram-Bot-Api-Secret-Token header. Only message
// updates are asked for and pending updates are kept.
func (c *Client) SetWebhook(ctx context.Context, url, secretToken string) error {
	params := struct {
		URL                string   `json:"url"`
		SecretToken        string   `json:"secret_token,omitempty"`
		AllowedUpdates     []string `json:"allowed_updates"`
		DropPendingUpdates bool     `json:"drop_pending_updates"`
	}{url, secretToken, []string{"message"}, false}
	return c.call(ctx, "setWebhook", params, idempotent, 0, nil)
}

// GetWebhookInfo returns the bot's webhook state.
func (c *Client) GetWebhookInfo(ctx context.Context) (WebhookInfo, error) {
	var info WebhookInfo
	if err := c.call(ctx, "getWebhookInfo", struct{}{}, idempotent, 0, &info); err != nil {
		return WebhookInfo{}, err
	}
	return info, nil
}

// DeleteWebhook removes the bot's webhook, keeping pending updates.
func (c *Client) DeleteWebhook(ctx context.Context) error {
	return c.call(ctx, "deleteWebhook", map[string]bool{"drop_pending_updates": false}, idempotent, 0, nil)
}
