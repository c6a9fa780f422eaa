package openai

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/duetbot/duet/shared/embed"
)

// Defaults of a Client.
const (
	DefaultBaseURL    = "https://api.openai.com/v1"
	DefaultModel      = "text-embedding-3-small"
	DefaultMaxRetries = 4
	// MaxBatch is the most inputs the API takes in one request.
	MaxBatch = 2048
)

// maxRetryWait caps how long one retry waits, whatever Retry-After says.
const maxRetryWait = time.Minute

// Client embeds texts through an OpenAI-compatible /v1/embeddings endpoint.
type Client struct {
	base       string // ends in /v1
	model      string
	http       *http.Client
	maxRetries int
	sleep      func(context.Context, time.Duration) error
	api        sdk.EmbeddingService
}

var _ embed.Embedder = (*Client)(nil)

// Option configures a Client.
type Option func(*Client)

// WithHTTPClient sets the HTTP client (timeouts, proxies, tests).
func WithHTTPClient(h *http.Client) Option { return func(c *Client) { c.http = h } }

// WithMaxRetries sets how many times a rate-limited or failed request is retried.
func WithMaxRetries(n int) Option { return func(c *Client) { c.maxRetries = max(n, 0) } }

// WithSleep replaces the wait between retries, for tests.
func WithSleep(sleep func(context.Context, time.Duration) error) Option {
	return func(c *Client) { c.sleep = sleep }
}

// New returns a Client. baseURL may end in /v1 (as OPENAI_BASE_URL usually
// does) or not; empty means DefaultBaseURL, and an empty model DefaultModel.
// The key may be empty for local servers that want none.
func New(baseURL, key, model string, opts ...Option) *Client {
	if baseURL == "" {
		baseURL = DefaultBaseURL
	}
	baseURL = strings.TrimRight(baseURL, "/")
	if !strings.HasSuffix(baseURL, "/v1") {
		baseURL += "/v1"
	}
	if model == "" {
		model = DefaultModel
	}
	c := &Client{
		base:       baseURL,
		model:      model,
		http:       &http.Client{Timeout: 60 * time.Second},
		maxRetries: DefaultMaxRetries,
		sleep:      sleepCtx,
	}
	for _, o := range opts {
		o(c)
	}
	// The SDK's retries are off: Embed retries itself, with WithSleep's wait.
	sdkOpts := []option.RequestOption{
		option.WithBaseURL(c.base),
		option.WithHTTPClient(c.http),
		option.WithMaxRetries(0),
	}
	if key != "" {
		sdkOpts = append(sdkOpts, option.WithAPIKey(key))
	}
	c.api = sdk.NewClient(sdkOpts...).Embeddings
	return c
}

// APIError is an error answer of the API.
type APIError struct {
	Status  int    // HTTP status
	Message string // error.message
	Type    string // error.type
	Code    string // error.code
}

func (e *APIError) Error() string {
	msg := e.Message
	if msg == "" {
		msg = http.StatusText(e.Status)
	}
	if e.Code != "" {
		return fmt.Sprintf("embeddings API: %d %s (%s)", e.Status, msg, e.Code)
	}
	return fmt.Sprintf("embeddings API: %d %s", e.Status, msg)
}

// Temporary reports whether a retry may succeed (rate limits, server errors).
func (e *APIError) Temporary() bool {
	return e.Status == http.StatusTooManyRequests || e.Status >= 500
}

// Embed returns the vectors of texts, MaxBatch texts per request.
func (c *Client) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += MaxBatch {
		part := texts[start:min(start+MaxBatch, len(texts))]
		vecs, err := c.embedBatch(ctx, part)
		if err != nil {
			return nil, err
		}
		out = append(out, vecs...)
	}
	return out, nil
}

func (c *Client) embedBatch(ctx context.Context, texts []string) ([][]float32, error) {
	// The API rejects empty strings; a single space embeds as "nothing".
	in := make([]string, len(texts))
	for i, t := range texts {
		if strings.TrimSpace(t) == "" {
			t = " "
		}
		in[i] = t
	}
	params := sdk.EmbeddingNewParams{
		Model: sdk.EmbeddingModel(c.model),
		Input: sdk.EmbeddingNewParamsInputUnion{OfArrayOfStrings: in},
	}
	for attempt := 0; ; attempt++ {
		vecs, wait, err := c.post(ctx, params, len(texts))
		if err == nil {
			return vecs, nil
		}
		var apiErr *APIError
		if attempt >= c.maxRetries || !errors.As(err, &apiErr) || !apiErr.Temporary() {
			return nil, err
		}
		if wait <= 0 {
			wait = time.Duration(1<<attempt) * time.Second
		}
		if err := c.sleep(ctx, min(wait, maxRetryWait)); err != nil {
			return nil, fmt.Errorf("embeddings API: waiting to retry: %w", err)
		}
	}
}

// post sends one request; on a retryable answer it returns how long the
// server asked to wait (0 when it did not say).
func (c *Client) post(ctx context.Context, params sdk.EmbeddingNewParams, n int) ([][]float32, time.Duration, error) {
	r, err := c.api.New(ctx, params)
	if err != nil {
		var sdkErr *sdk.Error
		if !errors.As(err, &sdkErr) {
			return nil, 0, fmt.Errorf("embeddings request: %w", err)
		}
		var wait time.Duration
		if sdkErr.Response != nil {
			wait = retryAfter(sdkErr.Response.Header.Get("Retry-After"))
		}
		return nil, wait, apiError(sdkErr)
	}
	if len(r.Data) != n {
		return nil, 0, fmt.Errorf("embeddings API: got %d embeddings for %d inputs", len(r.Data), n)
	}
	sort.Slice(r.Data, func(i, j int) bool { return r.Data[i].Index < r.Data[j].Index })
	out := make([][]float32, n)
	for i, d := range r.Data {
		if d.Index != int64(i) || len(d.Embedding) == 0 {
			return nil, 0, fmt.Errorf("embeddings API: missing or empty embedding for input %d", i)
		}
		v := make([]float32, len(d.Embedding))
		for j, x := range d.Embedding {
			v[j] = float32(x)
		}
		out[i] = v
	}
	return out, 0, nil
}

// apiError keeps what the SDK read of an error answer. The SDK decodes the
// body's error object (code may be a string, a number or null elsewhere
// than at OpenAI) into its fields.
func apiError(e *sdk.Error) *APIError {
	out := &APIError{Status: e.StatusCode, Message: e.Message, Type: e.Type, Code: e.Code}
	if raw := e.JSON.Code.Raw(); out.Code == "" && raw != "" && raw != "null" {
		out.Code = strings.Trim(raw, `"`)
	}
	return out
}

// retryAfter parses a Retry-After header: seconds or an HTTP date.
func retryAfter(v string) time.Duration {
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(time.Until(t), 0)
	}
	return 0
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
