package bedrock

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime"

	"github.com/duetbot/duet/shared/embed"
)

// DefaultModel is Titan Text Embeddings V2.
const DefaultModel = "amazon.titan-embed-text-v2:0"

// API is the part of the Bedrock runtime client the package uses;
// *bedrockruntime.Client implements it.
type API interface {
	InvokeModel(ctx context.Context, in *bedrockruntime.InvokeModelInput, opts ...func(*bedrockruntime.Options)) (*bedrockruntime.InvokeModelOutput, error)
}

var _ API = (*bedrockruntime.Client)(nil)

// Titan embeds texts with a Titan text embeddings model.
type Titan struct {
	client API
	model  string
}

var _ embed.Embedder = (*Titan)(nil)

// New returns a Titan embedder using model (empty means DefaultModel).
func New(client API, model string) *Titan {
	if model == "" {
		model = DefaultModel
	}
	return &Titan{client: client, model: model}
}

type titanRequest struct {
	InputText string `json:"inputText"`
}

type titanResponse struct {
	Embedding           []float32 `json:"embedding"`
	InputTextTokenCount int       `json:"inputTextTokenCount"`
}

// Embed returns the vectors of texts, one InvokeModel call per text.
func (t *Titan) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, text := range texts {
		if text == "" {
			text = " " // Titan rejects empty input
		}
		body, err := json.Marshal(titanRequest{InputText: text})
		if err != nil {
			return nil, fmt.Errorf("encode titan request: %w", err)
		}
		resp, err := t.client.InvokeModel(ctx, &bedrockruntime.InvokeModelInput{
			ModelId:     aws.String(t.model),
			ContentType: aws.String("application/json"),
			Accept:      aws.String("application/json"),
			Body:        body,
		})
		if err != nil {
			return nil, fmt.Errorf("titan embed (model %s): %w", t.model, err)
		}
		var r titanResponse
		if err := json.Unmarshal(resp.Body, &r); err != nil {
			return nil, fmt.Errorf("decode titan answer: %w", err)
		}
		if len(r.Embedding) == 0 {
			return nil, fmt.Errorf("titan embed (model %s): empty embedding", t.model)
		}
		out[i] = r.Embedding
	}
	return out, nil
}
