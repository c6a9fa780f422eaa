package openai

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/duetbot/duet/shared/brain/llm"
)

// DefaultBaseURL is OpenAI's API.
const DefaultBaseURL = "https://api.openai.com/v1"

// Model is a chat model behind an OpenAI-compatible API.
type Model struct {
	client sdk.Client
	model  string
	// maxCompletionTokens says the server wants max_completion_tokens
	// (OpenAI, whose reasoning models reject max_tokens) rather than the
	// max_tokens every compatible server knows.
	maxCompletionTokens bool
	// noJSONMode is set once the server has rejected response_format
	// json_object; from then on JSON is asked for in the prompt only.
	noJSONMode atomic.Bool
}

var _ llm.Model = (*Model)(nil)

// Option configures a Model.
type Option func(*config)

type config struct {
	http *http.Client
	opts []option.RequestOption
}

// WithHTTPClient sets the HTTP client (proxies, tests). Its timeout is a
// backstop only: each call is bounded by its context.
func WithHTTPClient(h *http.Client) Option { return func(c *config) { c.http = h } }

// WithRequestOptions adds SDK options (organization, project, headers…).
func WithRequestOptions(opts ...option.RequestOption) Option {
	return func(c *config) { c.opts = append(c.opts, opts...) }
}

// New returns a Model calling model at baseURL (empty: DefaultBaseURL) with
// key, which may be empty for local servers that want none. A base URL
// without a path gets /v1, as OPENAI_BASE_URL values of local servers often
// lack it; any other path is used as given.
func New(baseURL, key, model string, opts ...Option) (*Model, error) {
	if strings.TrimSpace(model) == "" {
		return nil, errors.New("openai: a model is required")
	}
	base, err := BaseURL(baseURL)
	if err != nil {
		return nil, err
	}
	c := config{http: &http.Client{Timeout: 60 * time.Second}}
	for _, o := range opts {
		o(&c)
	}
	sdkOpts := []option.RequestOption{
		option.WithBaseURL(base),
		option.WithHTTPClient(c.http),
		option.WithMaxRetries(0),
	}
	if key != "" {
		sdkOpts = append(sdkOpts, option.WithAPIKey(key))
	}
	u, _ := url.Parse(base)
	return &Model{
		client:              sdk.NewClient(append(sdkOpts, c.opts...)...),
		model:               model,
		maxCompletionTokens: u.Hostname() == "api.openai.com",
	}, nil
}

// BaseURL returns the API base URL to use for raw: DefaultBaseURL when it
// is empty, /v1 added when it has no path.
func BaseURL(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return DefaultBaseURL, nil
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return "", fmt.Errorf("openai: base URL %q is not an absolute URL", raw)
	}
	if strings.Trim(u.Path, "/") == "" {
		u.Path = "/v1"
	}
	u.Path = strings.TrimRight(u.Path, "/")
	return u.String(), nil
}

// Chat asks the model once.
func (m *Model) Chat(ctx context.Context, req llm.ChatRequest) (llm.ChatResponse, error) {
	p := sdk.ChatCompletionNewParams{Model: m.model}
	if req.System != "" {
		p.Messages = append(p.Messages, sdk.SystemMessage(req.System))
	}
	for _, msg := range req.Messages {
		if msg.Role == llm.RoleAssistant {
			p.Messages = append(p.Messages, sdk.AssistantMessage(msg.Content))
		} else {
			p.Messages = append(p.Messages, sdk.UserMessage(msg.Content))
		}
	}
	if req.MaxTokens > 0 {
		if m.maxCompletionTokens {
			p.MaxCompletionTokens = sdk.Int(int64(req.MaxTokens))
		} else {
			p.MaxTokens = sdk.Int(int64(req.MaxTokens))
		}
	}
	p.Temperature = sdk.Float(req.Temperature)
	jsonMode := req.JSON && !m.noJSONMode.Load()
	if jsonMode {
		p.ResponseFormat.OfJSONObject = &sdk.ResponseFormatJSONObjectParam{}
	}
	res, err := m.client.Chat.Completions.New(ctx, p)
	if err != nil && jsonMode && rejectsJSONMode(err) {
		// Some compatible servers know only response_format "text" or
		// "json_schema": ask again without it, and do not try it again.
		m.noJSONMode.Store(true)
		p.ResponseFormat = sdk.ChatCompletionNewParamsResponseFormatUnion{}
		res, err = m.client.Chat.Completions.New(ctx, p)
	}
	if err != nil {
		return llm.ChatResponse{}, classify(err)
	}
	out := llm.ChatResponse{
		InputTokens:  int(res.Usage.PromptTokens),
		OutputTokens: int(res.Usage.CompletionTokens),
	}
	if len(res.Choices) == 0 {
		return out, errors.New("openai: the answer has no choices")
	}
	c := res.Choices[0]
	out.Text, out.StopReason = c.Message.Content, c.FinishReason
	if c.Message.Refusal != "" || c.FinishReason == "content_filter" {
		return out, fmt.Errorf("openai: %w (finish reason %q)", llm.ErrRefused, c.FinishReason)
	}
	return out, nil
}

// rejectsJSONMode reports whether err is a 400 about response_format.
func rejectsJSONMode(err error) bool {
	var apiErr *sdk.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusBadRequest {
		return false
	}
	return strings.Contains(apiErr.Param+" "+apiErr.Message+" "+apiErr.RawJSON(), "response_format")
}

// classify turns the SDK's API errors into *llm.Error, throttling marked.
func classify(err error) error {
	var apiErr *sdk.Error
	if !errors.As(err, &apiErr) {
		return fmt.Errorf("openai: %w", err)
	}
	e := &llm.Error{Status: apiErr.StatusCode, Code: apiErr.Code, Err: err}
	if e.Code == "" {
		e.Code = apiErr.Type
	}
	// A 429 for an exhausted quota will not pass on retry.
	e.Throttled = apiErr.StatusCode == http.StatusTooManyRequests && apiErr.Code != "insufficient_quota"
	if apiErr.Response != nil {
		e.RetryAfter = retryAfter(apiErr.Response.Header)
	}
	return e
}

// retryAfter reads retry-after-ms (OpenAI's) or Retry-After (seconds or an
// HTTP date); 0 when neither says.
func retryAfter(h http.Header) time.Duration {
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := h.Get("Retry-After")
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
