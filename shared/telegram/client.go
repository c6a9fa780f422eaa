package telegram

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

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

// Settings of the pooled HTTP transport every Client uses unless
// WithHTTPClient replaces it.
const (
	// DefaultMaxIdleConnsPerHost is how many idle keep-alive connections
	// to the Bot API are kept: as many as replies are sent at once by a
	// busy `duet serve` (and the poller's workers), so that a burst does
	// not close what the next burst would reuse (net/http keeps 2).
	DefaultMaxIdleConnsPerHost = 128
	// DefaultIdleConnTimeout closes a connection idle this long. It is
	// below the keep-alive timeouts of common servers and proxies (60–75 s),
	// so that the client, not the server, closes an idle connection, and a
	// connection left idle across a frozen Lambda is dropped, not reused.
	DefaultIdleConnTimeout = 30 * time.Second
	// DefaultDialTimeout bounds opening a TCP connection.
	DefaultDialTimeout = 10 * time.Second
	// DefaultTLSHandshakeTimeout bounds a TLS handshake.
	DefaultTLSHandshakeTimeout = 10 * time.Second
)

// ErrMaybeSent is in the chain of a sendMessage error when the request was
// written in full and the connection then failed (dropped, reset, timed
// out) before an answer: the server may have recorded the message. The
// client does not retry it, since a retry could make a second copy; the
// chat engine decides, under its lease, whether to send it again.
var ErrMaybeSent = errors.New("request sent but no answer: the server may have recorded it")

// sharedTransport is the pooled, keep-alive HTTP/1.1 transport of every
// Client made without WithHTTPClient: one pool per process, so all clients
// of one host share their idle connections.
var sharedTransport = newTransport()

func newTransport() *http.Transport {
	d := &net.Dialer{Timeout: DefaultDialTimeout, KeepAlive: 30 * time.Second}
	return &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           d.DialContext,
		MaxIdleConns:          4 * DefaultMaxIdleConnsPerHost,
		MaxIdleConnsPerHost:   DefaultMaxIdleConnsPerHost,
		IdleConnTimeout:       DefaultIdleConnTimeout,
		TLSHandshakeTimeout:   DefaultTLSHandshakeTimeout,
		ExpectContinueTimeout: time.Second,
		// HTTP/1.1: a custom DialContext turns off HTTP/2 unless
		// ForceAttemptHTTP2 is set. Many keep-alive connections spread the
		// replies; one multiplexed connection would carry every long poll
		// and reply behind one TCP window.
		ForceAttemptHTTP2: false,
	}
}

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

// Whether a method may be sent twice: getUpdates and the webhook methods
// may (a second getUpdates asks for the same offset), sendMessage may not.
const (
	idempotent    = true
	notIdempotent = false
)

// call posts params as JSON to method and decodes the result into out
// (ignored when nil), retrying what a retry can help and cannot duplicate.
func (c *Client) call(ctx context.Context, method string, params any, idem bool, longPoll time.Duration, out any) error {
	body, err := json.Marshal(params)
	if err != nil {
		return fmt.Errorf("telegram %s: encode request: %w", method, err)
	}
	for attempt := 1; ; attempt++ {
		result, again, err := c.attempt(ctx, method, body, idem, longPoll, out != nil)
		if err == nil {
			if out == nil {
				return nil
			}
			if err := json.Unmarshal(result, out); err != nil {
				return fmt.Errorf("telegram %s: decode result: %w", method, err)
			}
			return nil
		}
		if !again || ctx.Err() != nil || attempt >= c.maxAttempts {
			return fmt.Errorf("telegram %s: %w", method, err)
		}
		wait, limit := c.backoff.Delay(attempt), time.Duration(0)
		if apiErr, ok := errors.AsType[*APIError](err); ok && apiErr.RetryAfter > 0 {
			wait, limit = apiErr.RetryAfter, DefaultMaxRetryAfter
		}
		if werr := retry.Check(ctx, wait, limit); werr != nil {
			return fmt.Errorf("telegram %s: %w (not retried: %v)", method, err, werr)
		}
		c.log.WarnContext(ctx, "telegram call failed, retrying", "method", method, "attempt", attempt, "wait", wait, "err", err)
		if serr := c.sleep(ctx, wait); serr != nil {
			return fmt.Errorf("telegram %s: %w", method, err)
		}
	}
}

// attempt makes one HTTP request and returns the raw result (when
// wantResult), or an error and whether a retry may help. A request that is
// not idem is retried after a network failure only if it was not written
// in full.
func (c *Client) attempt(ctx context.Context, method string, body []byte, idem bool, longPoll time.Duration, wantResult bool) (json.RawMessage, bool, error) {
	// A context ending sooner (the chat engine's budget) needs no second
	// deadline: one timer less on every reply's path.
	if limit := c.requestTimeout + longPoll; c.requestTimeout > 0 && !endsWithin(ctx, limit) {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, limit)
		defer cancel()
	}
	var written atomic.Bool // set on the transport's goroutine
	if !idem {
		ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
			WroteRequest: func(i httptrace.WroteRequestInfo) {
				if i.Err == nil {
					written.Store(true)
				}
			},
		})
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.prefix+"/"+method, bytes.NewReader(body))
	if err != nil {
		return nil, false, c.redact(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.hc.Do(req)
	if err != nil {
		if written.Load() {
			return nil, false, fmt.Errorf("%w: %w", ErrMaybeSent, c.redact(err))
		}
		return nil, true, c.redact(err)
	}
	defer resp.Body.Close()
	answer, err := readAnswer(resp.Body)
	if err != nil {
		// The server answered: an idem request is safe to send again, any
		// other may have been acted on.
		err = fmt.Errorf("read answer: %w", err)
		if !idem {
			return nil, false, fmt.Errorf("%w: %w", ErrMaybeSent, c.redact(err))
		}
		return nil, true, c.redact(err)
	}
	if !wantResult && answeredOK(resp.StatusCode, answer) {
		return nil, false, nil
	}
	result, err := decodeAnswer(resp, []byte(answer))
	if apiErr, ok := errors.AsType[*APIError](err); ok {
		apiErr.Description = redactToken(apiErr.Description, c.token)
		return nil, apiErr.retryable(), err
	}
	if err != nil {
		// A 2xx answer that is not JSON will not become JSON on a retry.
		return nil, false, c.redact(err)
	}
	return result, false, nil
}

// endsWithin reports whether ctx has a deadline d or less from now.
func endsWithin(ctx context.Context, d time.Duration) bool {
	deadline, ok := ctx.Deadline()
	return ok && time.Until(deadline) <= d
}

// answerBuffers are the buffers answers are read into, not a buffer grown
// from nothing for each: an answer Send only checks costs one allocation
// (its text); one whose result is decoded (SendMessage, getUpdates) is
// copied once more into the decoder's bytes.
var answerBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// readAnswer reads an answer of at most maxBody bytes.
func readAnswer(body io.Reader) (string, error) {
	buf := answerBuffers.Get().(*bytes.Buffer)
	buf.Reset()
	_, err := buf.ReadFrom(io.LimitReader(body, maxBody))
	answer := buf.String()
	if buf.Cap() <= 64<<10 { // a large getUpdates answer is not kept
		answerBuffers.Put(buf)
	}
	return answer, err
}

// answeredOK reports, without allocating, whether an answer of the usual
// shape says the call succeeded: a 2xx status and {"ok":true,…} whose
// other envelope fields are of the types decodeAnswer reads. It is false
// for anything else, which decodeAnswer then decides (it accepts what
// answeredOK does; FuzzSendMessage checks that both agree).
func answeredOK(status int, body string) bool {
	if status < 200 || status > 299 || !json.Valid([]byte(body)) {
		return false
	}
	ok := false
	return eachMember(body, func(key, val string) bool {
		if key == "ok" {
			ok = val == "true"
			return ok
		}
		return fits(envelopeFields, key, val)
	}) && ok
}

// envelopeFields are the fields of envelope as answeredOK checks them:
// "ok" itself is read before, so its entry (never) sends an "OK" of
// another case, which encoding/json would match, to decodeAnswer; so does
// "parameters", which only an error carries.
var envelopeFields = []field{{"ok", never}, {"result", isAny}, {"error_code", isInt}, {"description", isString}, {"parameters", never}}

// envelope is the wrapped answer shape; OK is nil when the answer is bare.
type envelope struct {
	OK          *bool           `json:"ok"`
	Result      json.RawMessage `json:"result"`
	ErrorCode   int             `json:"error_code"`
	Description string          `json:"description"`
	Parameters  struct {
		RetryAfter int `json:"retry_after"`
	} `json:"parameters"`
}

// decodeAnswer accepts {"ok":true,"result":…}, a bare result and
// {"ok":false,…}, whatever the Content-Type.
func decodeAnswer(resp *http.Response, data []byte) (json.RawMessage, error) {
	trimmed := bytes.TrimSpace(data)
	success := resp.StatusCode >= 200 && resp.StatusCode < 300
	var env envelope
	isObject := len(trimmed) > 0 && trimmed[0] == '{' && json.Unmarshal(trimmed, &env) == nil
	switch {
	case isObject && env.OK != nil && *env.OK && success:
		if len(env.Result) == 0 {
			return json.RawMessage("true"), nil
		}
		return env.Result, nil
	case isObject && env.OK != nil && !*env.OK, isObject && !success:
		e := &APIError{Code: env.ErrorCode, Description: env.Description}
		if e.Code == 0 {
			e.Code = resp.StatusCode
		}
		if e.Description == "" {
			e.Description = snippet(trimmed)
		}
		e.RetryAfter = retryAfter(env.Parameters.RetryAfter, resp.Header)
		return nil, e
	case !success:
		return nil, &APIError{Code: resp.StatusCode, Description: snippet(trimmed), RetryAfter: retryAfter(0, resp.Header)}
	case len(trimmed) > 0 && json.Valid(trimmed):
		return json.RawMessage(trimmed), nil // a bare answer (2017 server)
	}
	return nil, fmt.Errorf("answer with status %d is not JSON: %q", resp.StatusCode, snippet(trimmed))
}

// retryAfter is the body's parameters.retry_after when positive, else the
// wait the headers ask for (see retry.After).
func retryAfter(secs int, h http.Header) time.Duration {
	if secs > 0 {
		return time.Duration(secs) * time.Second
	}
	d, _ := retry.After(h, time.Now())
	return d
}

// snippetBytes bounds the part of an answer quoted in an error.
const snippetBytes = 200

// snippet quotes the start of an answer, cut on a character boundary.
func snippet(b []byte) string {
	s := strings.TrimSpace(string(b))
	if s == "" {
		return "(empty answer)"
	}
	if len(s) > snippetBytes {
		n := snippetBytes
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		s = s[:n] + "…"
	}
	return s
}

// redact drops the URL (which holds the token) from network errors and
// masks the token in whatever text is left.
func (c *Client) redact(err error) error {
	var uerr *url.Error
	if errors.As(err, &uerr) {
		err = uerr.Err
	}
	return &redactedError{err: err, token: c.token}
}

// redactedError hides the token in the text of the error it wraps.
type redactedError struct {
	err   error
	token string
}

func (e *redactedError) Error() string {
	return redactToken(e.err.Error(), e.token)
}

func (e *redactedError) Unwrap() error { return e.err }
