package openai

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"

	sdk "github.com/openai/openai-go/v3"

	"github.com/duetbot/duet/shared/brain/llm"
	"github.com/duetbot/duet/shared/openaicompat"
)

// DefaultBaseURL is OpenAI's API.
const DefaultBaseURL = openaicompat.DefaultBaseURL

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

// New returns a Model calling model at baseURL (OPENAI_BASE_URL, resolved
// by openaicompat.BaseURL: empty means DefaultBaseURL, a URL without a
// path gets /v1, any other path is the base) with key, which may be empty
// for local servers that want none. It makes no network call.
func New(baseURL, key, model string) (*Model, error) {
	if strings.TrimSpace(model) == "" {
		return nil, errors.New("openai: a model is required")
	}
	c, err := openaicompat.New(openaicompat.Config{BaseURL: baseURL, APIKey: key})
	if err != nil {
		return nil, fmt.Errorf("openai: %w", err)
	}
	return &Model{
		client:              c.Client,
		model:               model,
		maxCompletionTokens: openaicompat.IsOpenAI(c.Base),
	}, nil
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
	apiErr, ok := openaicompat.APIError(err)
	if !ok || apiErr.StatusCode != http.StatusBadRequest {
		return false
	}
	return strings.Contains(apiErr.Param+" "+apiErr.Message+" "+apiErr.RawJSON(), "response_format")
}

// classify turns the SDK's API errors into *llm.Error, throttling marked.
func classify(err error) error {
	apiErr, ok := openaicompat.APIError(err)
	if !ok {
		return fmt.Errorf("openai: %w", err)
	}
	e := &llm.Error{Status: apiErr.StatusCode, Code: openaicompat.Code(apiErr), Err: err}
	e.Throttled = openaicompat.Throttled(apiErr)
	e.RetryAfter, _ = openaicompat.RetryAfter(apiErr)
	return e
}
