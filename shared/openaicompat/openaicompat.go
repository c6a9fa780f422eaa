package openaicompat

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/duetbot/duet/shared/retry"
)

// DefaultBaseURL is OpenAI's API, used when OPENAI_BASE_URL is empty.
const DefaultBaseURL = "https://api.openai.com/v1"

// Settings of the default HTTP client.
const (
	// DefaultTimeout is a backstop for one request: callers bound their
	// calls with their context, which is shorter.
	DefaultTimeout = 60 * time.Second
	// DefaultMaxIdleConnsPerHost keeps a connection per concurrent model
	// call (net/http keeps 2), so that busy chats do not reconnect.
	DefaultMaxIdleConnsPerHost = 64
)

// BaseURL turns an OPENAI_BASE_URL value into the API base that both
// endpoints are appended to, by one rule:
//
//   - empty: DefaultBaseURL;
//   - a URL with no path (http://localhost:11434): /v1 is added, as local
//     servers' addresses are often given without it;
//   - any other path is used as given, trailing slashes dropped: it is the
//     base, as in the official SDKs (https://api.groq.com/openai/v1,
//     https://openrouter.ai/api/v1, http://host/api for Open WebUI).
//
// So http://host/api means http://host/api/chat/completions and
// http://host/api/embeddings. It must be an absolute http(s) URL without
// query or fragment, and not an endpoint (…/chat/completions, …/embeddings).
func BaseURL(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return DefaultBaseURL, nil
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("OpenAI base URL %q: want an absolute http(s) URL such as %s", raw, DefaultBaseURL)
	}
	if u.RawQuery != "" || u.Fragment != "" || u.ForceQuery {
		return "", fmt.Errorf("OpenAI base URL %q: want no query or fragment", raw)
	}
	p := strings.TrimRight(u.Path, "/")
	for _, endpoint := range []string{"/chat/completions", "/embeddings", "/completions"} {
		if strings.HasSuffix(p, endpoint) {
			u.Path, u.RawPath = strings.TrimSuffix(p, endpoint), ""
			return "", fmt.Errorf("OpenAI base URL %q: give the API base (%s), not the %s endpoint", raw, u, endpoint)
		}
	}
	if p == "" {
		p = "/v1"
	}
	u.Path, u.RawPath = p, ""
	return u.String(), nil
}

// IsOpenAI reports whether base is OpenAI's own API (not a compatible
// server), whose quirks (max_completion_tokens) callers may need.
func IsOpenAI(base string) bool {
	u, err := url.Parse(base)
	return err == nil && u.Hostname() == "api.openai.com"
}

// Config is a connection to an OpenAI-compatible API.
type Config struct {
	// BaseURL is OPENAI_BASE_URL, resolved by BaseURL.
	BaseURL string
	// APIKey may be empty for local servers that want none.
	APIKey string
	// HTTPClient replaces the default pooled client (nil: HTTPClient()).
	HTTPClient *http.Client
}

// Client is an SDK client for one API base.
type Client struct {
	sdk.Client
	// Base is the resolved API base URL.
	Base string
}

// New returns the SDK client for cfg, its own retries off: callers retry
// with package retry's rules, inside their time budget. It makes no
// network call.
func New(cfg Config) (*Client, error) {
	base, err := BaseURL(cfg.BaseURL)
	if err != nil {
		return nil, err
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = defaultHTTPClient
	}
	opts := []option.RequestOption{
		option.WithBaseURL(base),
		option.WithHTTPClient(hc),
		option.WithMaxRetries(0),
	}
	if cfg.APIKey != "" {
		opts = append(opts, option.WithAPIKey(cfg.APIKey))
	}
	return &Client{Client: sdk.NewClient(opts...), Base: base}, nil
}

// defaultHTTPClient is shared by every Client made without an HTTPClient.
var defaultHTTPClient = HTTPClient()

// HTTPClient returns an HTTP client for model APIs: pooled keep-alive
// connections (DefaultMaxIdleConnsPerHost per host), HTTP/2 where the
// server offers it, DefaultTimeout per request.
func HTTPClient() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = 4 * DefaultMaxIdleConnsPerHost
	t.MaxIdleConnsPerHost = DefaultMaxIdleConnsPerHost
	return &http.Client{Transport: t, Timeout: DefaultTimeout}
}

// APIError returns the error answer in err's chain, if any.
func APIError(err error) (*sdk.Error, bool) {
	return errors.AsType[*sdk.Error](err)
}

// Code returns an error answer's code: error.code (a string, or a number
// as some compatible servers send), else error.type; "" when neither.
func Code(e *sdk.Error) string {
	if e.Code != "" {
		return e.Code
	}
	if raw := e.JSON.Code.Raw(); raw != "" && raw != "null" {
		return strings.Trim(raw, `"`)
	}
	return e.Type
}

// RetryAfter returns how long an error answer asks to wait before a retry
// (retry-after-ms, else Retry-After; see retry.After), and whether it said.
func RetryAfter(e *sdk.Error) (time.Duration, bool) {
	if e.Response == nil {
		return 0, false
	}
	return retry.After(e.Response.Header, time.Now())
}

// Throttled reports whether an error answer is a rate limit that a later
// retry may pass: a 429 other than an exhausted quota.
func Throttled(e *sdk.Error) bool {
	return e.StatusCode == http.StatusTooManyRequests && Code(e) != "insufficient_quota"
}
