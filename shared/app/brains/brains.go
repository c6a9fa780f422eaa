// Package brains builds the back ends that BRAIN names — offline, bedrock,
// openai, clariq — for the functions and commands that write replies. It
// is apart from package app so that a function that writes none (the
// sweeper) links none of the model SDKs.
package brains

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime"

	"github.com/duetbot/duet/shared/app"
	"github.com/duetbot/duet/shared/awslog"
	"github.com/duetbot/duet/shared/brain/bedrock"
	"github.com/duetbot/duet/shared/brain/llm"
	brainopenai "github.com/duetbot/duet/shared/brain/openai"
	"github.com/duetbot/duet/shared/config"
	"github.com/duetbot/duet/shared/metrics"
	"github.com/duetbot/duet/shared/paramstore"
)

// brainReserve is the time every model call leaves before the request's
// deadline for the offline fallback, the session writes and the delivery.
const brainReserve = 4 * time.Second

// Option configures New.
type Option func(*options)

type options struct{ metrics metrics.Recorder }

// WithMetrics has model back ends count their answers and fallbacks
// (ModelReplies, ModelFallbacks) through rec.
func WithMetrics(rec metrics.Recorder) Option { return func(o *options) { o.metrics = rec } }

// New builds the back ends cfg.Brain names, once (per cold start, on
// Lambda). Model back ends fall back to the offline ones whenever the model
// fails, within BRAIN_TIMEOUT.
func New(ctx context.Context, cfg config.Config, log *slog.Logger, opts ...Option) (app.Brains, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	offline := app.OfflineBrains()
	var model llm.Model
	switch cfg.Brain {
	case "", "offline":
		return offline, nil
	case "clariq":
		return Clariq(ctx, cfg, log)
	case "openai":
		key, err := openAIKey(ctx, cfg)
		if err != nil {
			return app.Brains{}, err
		}
		if key == "" && strings.Contains(cfg.OpenAIBaseURL, "api.openai.com") {
			return app.Brains{}, errors.New("BRAIN=openai: api.openai.com needs a key: set OPENAI_API_KEY, or OPENAI_API_KEY_PARAMETER to an SSM SecureString")
		}
		if model, err = brainopenai.New(cfg.OpenAIBaseURL, key, cfg.BrainModel); err != nil {
			return app.Brains{}, fmt.Errorf("BRAIN=openai: %w", err)
		}
	case "bedrock":
		awsCfg, err := awsconfig.LoadDefaultConfig(ctx, awsconfig.WithLogger(awslog.Logger()))
		if err != nil {
			return app.Brains{}, fmt.Errorf("BRAIN=bedrock: AWS configuration: %w", err)
		}
		if model, err = bedrock.New(bedrockruntime.NewFromConfig(awsCfg), cfg.BrainModel); err != nil {
			return app.Brains{}, fmt.Errorf("BRAIN=bedrock: %w", err)
		}
	default:
		return app.Brains{}, fmt.Errorf("BRAIN=%q: want offline, bedrock, openai or clariq", cfg.Brain)
	}
	b, err := llm.New(model, llm.Options{
		Fallback:          offline.Replier,
		FallbackPersona:   offline.Persona,
		FallbackEvaluator: offline.Evaluator,
		Timeout:           cfg.BrainTimeout,
		Reserve:           brainReserve,
		Log:               log,
		Backend:           cfg.Brain,
		ModelID:           cfg.BrainModel,
		Metrics:           o.metrics,
	})
	if err != nil {
		return app.Brains{}, err
	}
	return app.Brains{Replier: b, Evaluator: b, Persona: b}, nil
}

// openAIKey returns OPENAI_API_KEY, or else reads the SSM SecureString
// named by OPENAI_API_KEY_PARAMETER through package paramstore (the
// deployed functions' way: the key is never in the template or the
// environment). Local servers may need no key.
func openAIKey(ctx context.Context, cfg config.Config) (string, error) {
	if err := paramstore.Resolve(ctx, &cfg, paramstore.NewClient, "OPENAI_API_KEY"); err != nil {
		return "", err
	}
	return cfg.OpenAIAPIKey, nil
}
