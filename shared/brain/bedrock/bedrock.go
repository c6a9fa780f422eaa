package bedrock

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime/types"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/duetbot/duet/shared/brain/llm"
	"github.com/duetbot/duet/shared/retry"
)

// API is the part of the Bedrock runtime client the package uses;
// *bedrockruntime.Client implements it.
type API interface {
	Converse(ctx context.Context, in *bedrockruntime.ConverseInput, opts ...func(*bedrockruntime.Options)) (*bedrockruntime.ConverseOutput, error)
}

var _ API = (*bedrockruntime.Client)(nil)

// Model is a Bedrock text model, named by a model or inference profile id.
type Model struct {
	client API
	model  string
}

var _ llm.Model = (*Model)(nil)

// New returns a Model calling model through client.
func New(client API, model string) (*Model, error) {
	if client == nil {
		return nil, errors.New("bedrock: a client is required")
	}
	if strings.TrimSpace(model) == "" {
		return nil, errors.New("bedrock: a model id is required")
	}
	return &Model{client: client, model: model}, nil
}

// noRetries turns off the SDK's retries for one call.
func noRetries(o *bedrockruntime.Options) { o.Retryer = aws.NopRetryer{} }

// Chat asks the model once. Converse has no JSON mode: req.JSON is served
// by the prompt alone.
func (m *Model) Chat(ctx context.Context, req llm.ChatRequest) (llm.ChatResponse, error) {
	in := &bedrockruntime.ConverseInput{ModelId: aws.String(m.model)}
	if req.System != "" {
		in.System = []types.SystemContentBlock{&types.SystemContentBlockMemberText{Value: req.System}}
	}
	for _, msg := range req.Messages {
		role := types.ConversationRoleUser
		if msg.Role == llm.RoleAssistant {
			role = types.ConversationRoleAssistant
		}
		in.Messages = append(in.Messages, types.Message{
			Role:    role,
			Content: []types.ContentBlock{&types.ContentBlockMemberText{Value: msg.Content}},
		})
	}
	cfg := &types.InferenceConfiguration{Temperature: aws.Float32(float32(req.Temperature))}
	if req.MaxTokens > 0 {
		cfg.MaxTokens = aws.Int32(int32(req.MaxTokens))
	}
	in.InferenceConfig = cfg

	res, err := m.client.Converse(ctx, in, noRetries)
	if err != nil {
		return llm.ChatResponse{}, classify(err)
	}
	out := llm.ChatResponse{StopReason: string(res.StopReason)}
	if u := res.Usage; u != nil {
		out.InputTokens = int(aws.ToInt32(u.InputTokens))
		out.OutputTokens = int(aws.ToInt32(u.OutputTokens))
	}
	switch res.StopReason {
	case types.StopReasonGuardrailIntervened, types.StopReasonContentFiltered:
		return out, fmt.Errorf("bedrock: %w (stop reason %q)", llm.ErrRefused, res.StopReason)
	}
	msg, ok := res.Output.(*types.ConverseOutputMemberMessage)
	if !ok {
		return out, fmt.Errorf("bedrock: the answer holds no message (%T)", res.Output)
	}
	var b strings.Builder
	for _, block := range msg.Value.Content {
		// Reasoning and other blocks are not part of the reply.
		if t, ok := block.(*types.ContentBlockMemberText); ok {
			b.WriteString(t.Value)
		}
	}
	out.Text = b.String()
	return out, nil
}

// classify turns service errors into *llm.Error, throttling marked.
func classify(err error) error {
	var apiErr smithy.APIError
	if !errors.As(err, &apiErr) {
		return fmt.Errorf("bedrock: %w", err)
	}
	e := &llm.Error{Code: apiErr.ErrorCode(), Err: err}
	var respErr *smithyhttp.ResponseError
	if errors.As(err, &respErr) {
		e.Status = respErr.HTTPStatusCode()
		if respErr.Response != nil {
			e.RetryAfter, _ = retry.After(respErr.Response.Header, time.Now())
		}
	}
	var throttling *types.ThrottlingException
	e.Throttled = errors.As(err, &throttling)
	return e
}
