package openai

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	sdk "github.com/openai/openai-go/v3"

	"github.com/duetbot/duet/shared/embed"
	"github.com/duetbot/duet/shared/openaicompat"
	"github.com/duetbot/duet/shared/retry"
)

// Defaults of a Client.
const (
	DefaultBaseURL    = openaicompat.DefaultBaseURL
	DefaultModel      = "text-embedding-3-small"
	DefaultMaxRetries = 4
	// MaxBatch is the most inputs the API takes in one request.
	MaxBatch = 2048
)

// maxRetryWait is the longest wait between two attempts: an answer asking
// for longer is not slept, it fails the call at once (retry.Check).
const maxRetryWait = time.Minute

// backoff spaces retries of answers that did not say how long to wait.
var backoff = retry.Backoff{Base: 2 * time.Second, Max: 30 * time.Second}

// Client embeds texts through an OpenAI-compatible embeddings endpoint.
type Client struct {
	model      string
	maxRetries int
	sleep      func(context.Context, time.Duration) error
	api        sdk.EmbeddingService
}

var _ embed.Embedder = (*Client)(nil)

// Option configures a Client.
type Option func(*Client)

// WithMaxRetries sets how many times a rate-limited or failed request is retried.
func WithMaxRetries(n int) Option { return func(c *Client) { c.maxRetries = max(n, 0) } }

// WithSleep replaces the wait between retries, for tests.
func WithSleep(sleep func(context.Context, time.Duration) error) Option {
	return func(c *Client) { c.sleep = sleep }
}

// New returns a Client calling POST <base>/embeddings, where base is
// baseURL (OPENAI_BASE_URL) resolved by openaicompat.BaseURL, the rule chat
// uses too: empty means DefaultBaseURL, a URL without a path gets /v1, any
// other path is the base. An empty model means DefaultModel; the key may
// be empty for local servers that want none. It makes no network call.
func New(baseURL, key, model string, opts ...Option) (*Client, error) {
	if model == "" {
		model = DefaultModel
	}
	api, err := openaicompat.New(openaicompat.Config{BaseURL: baseURL, APIKey: key})
	if err != nil {
		return nil, fmt.Errorf("embeddings: %w", err)
	}
	c := &Client{
		model:      model,
		maxRetries: DefaultMaxRetries,
		sleep:      retry.Sleep,
		api:        api.Embeddings,
	}
	for _, o := range opts {
		o(c)
	}
	return c, nil
}

// APIError is an error answer of the API.
type APIError struct {
	Status  int    // HTTP status
	Message string // error.message
	Type    string // error.type
	Code    string // error.code, else error.type
	quota   bool   // a 429 for an exhausted quota
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

// Temporary reports whether a retry may succeed: rate limits (not an
// exhausted quota) and server errors.
func (e *APIError) Temporary() bool {
	return e.Status == http.StatusTooManyRequests && !e.quota || e.Status >= 500
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
			wait = backoff.Delay(attempt + 1)
		}
		if werr := retry.Check(ctx, wait, maxRetryWait); werr != nil {
			return nil, fmt.Errorf("%w (not retried: %v)", err, werr)
		}
		if err := c.sleep(ctx, wait); err != nil {
			return nil, fmt.Errorf("embeddings API: waiting to retry: %w", err)
		}
	}
}

// post sends one request; on a retryable answer it returns how long the
// server asked to wait (0 when it did not say).
func (c *Client) post(ctx context.Context, params sdk.EmbeddingNewParams, n int) ([][]float32, time.Duration, error) {
	r, err := c.api.New(ctx, params)
	if err != nil {
		sdkErr, ok := openaicompat.APIError(err)
		if !ok {
			return nil, 0, fmt.Errorf("embeddings request: %w", err)
		}
		wait, _ := openaicompat.RetryAfter(sdkErr)
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

// apiError keeps what the SDK read of an error answer.
func apiError(e *sdk.Error) *APIError {
	return &APIError{
		Status:  e.StatusCode,
		Message: e.Message,
		Type:    e.Type,
		Code:    openaicompat.Code(e),
		quota:   e.StatusCode == http.StatusTooManyRequests && !openaicompat.Throttled(e),
	}
}
