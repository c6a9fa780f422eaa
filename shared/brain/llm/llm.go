package llm

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/metrics"
	"github.com/duetbot/duet/shared/retry"
)

// Defaults of Options.
const (
	DefaultTimeout     = 10 * time.Second
	DefaultReserve     = time.Second
	DefaultMaxAttempts = 3
)

// backoff spaces the retries of a throttled call when the API did not say
// how long to wait: about 250 ms, doubling with each retry.
var backoff = retry.Backoff{Base: 250 * time.Millisecond, Max: 4 * time.Second}

// Options configure a Brain.
type Options struct {
	// Fallback writes ConvAI replies when the model cannot (offline.New()).
	Fallback brain.Replier
	// FallbackPersona writes persona replies when the model cannot (annex.Offline{}).
	FallbackPersona brain.Replier
	// FallbackEvaluator rates when the model cannot (offline.New()).
	FallbackEvaluator brain.Evaluator
	// A nil fallback makes the model's failure the caller's error.

	// Timeout bounds each model call, retries included (DefaultTimeout when 0).
	Timeout time.Duration
	// Reserve is kept free before the caller's deadline, for the fallback
	// and the caller's own work after the model call (DefaultReserve when 0).
	Reserve time.Duration
	// MaxAttempts bounds the tries of a throttled call (DefaultMaxAttempts when 0).
	MaxAttempts int
	// Log receives one record per call (slog.Default() when nil).
	Log *slog.Logger
	// Backend and ModelID name the back end and model in the logs
	// ("bedrock", "anthropic.claude-…").
	Backend, ModelID string
	// Metrics counts the calls whose answer was used (ModelReplies) and
	// those a fallback answered (ModelFallbacks, by reason); nil: none.
	Metrics metrics.Recorder
}

// Brain replies and evaluates with a Model, falling back to the offline
// back ends. It is safe for concurrent use if its Model and fallbacks are.
type Brain struct {
	model Model
	opt   Options
	sleep func(context.Context, time.Duration) error
}

var (
	_ brain.Replier   = (*Brain)(nil)
	_ brain.Evaluator = (*Brain)(nil)
)

// New returns a Brain over model.
func New(model Model, opt Options) (*Brain, error) {
	if model == nil {
		return nil, errors.New("llm: a model is required")
	}
	if opt.Timeout <= 0 {
		opt.Timeout = DefaultTimeout
	}
	if opt.Reserve <= 0 {
		opt.Reserve = DefaultReserve
	}
	if opt.MaxAttempts <= 0 {
		opt.MaxAttempts = DefaultMaxAttempts
	}
	if opt.Log == nil {
		opt.Log = slog.Default()
	}
	return &Brain{model: model, opt: opt, sleep: retry.Sleep}, nil
}

// Reply writes the bot's next message: in the voice of req.Persona when it
// is set, as a ConvAI participant otherwise.
func (b *Brain) Reply(ctx context.Context, req brain.Request) (string, error) {
	op, fallback := "reply", b.opt.Fallback
	var cr ChatRequest
	persona := req.Persona != nil
	if persona {
		op, fallback = "persona", b.opt.FallbackPersona
		cr = personaPrompt(req)
	} else {
		cr = replyPrompt(req)
	}
	if _, ok := req.LastPartner(); persona && !ok {
		// Nothing to answer: the fallback says so in its own way.
		if fallback == nil {
			return "", fmt.Errorf("llm %s: no message to answer", op)
		}
		return fallback.Reply(ctx, req)
	}
	var text string
	err := b.call(ctx, op, cr, fallback != nil, func(r ChatResponse) error {
		var err error
		if persona {
			text, err = cleanPersonaReply(r.Text, req)
		} else {
			text, err = cleanReply(r.Text, false)
			if err == nil && isProfile(req.Context) && brain.ProfileTrigrams(req.Context).Refuses(text) {
				// The ConvAI2 router would drop it: the fallback says it
				// in words of its own.
				err = fmt.Errorf("%w: the reply repeats three words of the profile in a row, which the router refuses", ErrInvalid)
			}
		}
		return err
	})
	if err == nil {
		return text, nil
	}
	if fallback == nil {
		return "", fmt.Errorf("llm %s: %w", op, err)
	}
	return fallback.Reply(ctx, req)
}

// Rate scores the partner's last message with the model.
func (b *Brain) Rate(ctx context.Context, req brain.Request) (int, error) {
	last, ok := req.LastPartner()
	if !ok && b.opt.FallbackEvaluator != nil {
		return b.opt.FallbackEvaluator.Rate(ctx, req)
	}
	var n int
	err := b.call(ctx, "rate", ratePrompt(req, last), b.opt.FallbackEvaluator != nil, func(r ChatResponse) error {
		m, err := parseScores(r.Text, "evaluation")
		n = m["evaluation"]
		return err
	})
	if err == nil {
		return n, nil
	}
	if b.opt.FallbackEvaluator == nil {
		return 0, fmt.Errorf("llm rate: %w", err)
	}
	return b.opt.FallbackEvaluator.Rate(ctx, req)
}

// Final scores the partner over the whole chat with the model, and answers
// the router's evaluation request req.Judge when there is one: an answer
// out of its range or naming no listed profile is invalid, and the offline
// evaluator answers instead.
func (b *Brain) Final(ctx context.Context, req brain.Request) (brain.Scores, error) {
	var s brain.Scores
	err := b.call(ctx, "final", finalPrompt(req), b.opt.FallbackEvaluator != nil, func(r ChatResponse) error {
		var err error
		s, err = parseFinal(r.Text, req.Judge)
		return err
	})
	if err == nil {
		return s, nil
	}
	if b.opt.FallbackEvaluator == nil {
		return brain.Scores{}, fmt.Errorf("llm final: %w", err)
	}
	return b.opt.FallbackEvaluator.Final(ctx, req)
}

// errNoTime says the caller's deadline left no room for a model call.
var errNoTime = errors.New("no time left for a model call")

// call asks the model within the budget, retrying throttled calls while the
// budget lasts, and hands the answer to accept, which validates and keeps
// it. It logs the call and returns why the answer is unusable, if it is.
func (b *Brain) call(ctx context.Context, op string, cr ChatRequest, hasFallback bool, accept func(ChatResponse) error) (err error) {
	start := time.Now()
	var (
		resp     ChatResponse
		attempts int
		in, out  int
	)
	defer func() {
		attrs := []slog.Attr{
			slog.String("op", op),
			slog.String("backend", b.opt.Backend),
			slog.String("model", b.opt.ModelID),
			slog.Int64("latency_ms", time.Since(start).Milliseconds()),
			slog.Int("tokens_in", in),
			slog.Int("tokens_out", out),
			slog.Int("attempts", attempts),
			slog.Bool("fallback", err != nil && hasFallback),
		}
		if resp.StopReason != "" {
			attrs = append(attrs, slog.String("stop_reason", resp.StopReason))
		}
		level := slog.LevelInfo
		if err != nil {
			level = slog.LevelWarn
			attrs = append(attrs, slog.String("reason", reason(err)), slog.String("error", err.Error()))
		}
		b.opt.Log.LogAttrs(ctx, level, "llm call", attrs...)
		switch {
		case err == nil:
			metrics.Add(b.opt.Metrics, metrics.ModelReplies, 1)
		case hasFallback:
			metrics.Add(b.opt.Metrics, metrics.ModelFallbacks, 1, metrics.Reason(reason(err)))
		}
	}()

	budget := b.opt.Timeout
	if dl, ok := ctx.Deadline(); ok {
		budget = min(budget, time.Until(dl)-b.opt.Reserve)
	}
	if budget <= 0 {
		return errNoTime
	}
	cctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()

	for {
		attempts++
		resp, err = b.model.Chat(cctx, cr)
		in += resp.InputTokens
		out += resp.OutputTokens
		if err == nil {
			return accept(resp)
		}
		if cerr := cctx.Err(); cerr != nil {
			return fmt.Errorf("%w (%v)", cerr, err)
		}
		if !IsThrottle(err) || attempts >= b.opt.MaxAttempts {
			return err
		}
		wait := RetryAfter(err)
		if wait <= 0 {
			wait = backoff.Delay(attempts)
		}
		// No limit but the budget: it is at most Timeout.
		if werr := retry.Check(cctx, wait, 0); werr != nil {
			return fmt.Errorf("throttled, and the budget ends before the retry: %w", err)
		}
		if err := b.sleep(cctx, wait); err != nil {
			return fmt.Errorf("throttled: %w", err)
		}
	}
}

// reason names the class of a failure for the logs and the ModelFallbacks
// metric's Reason dimension: a small fixed set.
func reason(err error) string {
	switch {
	case errors.Is(err, errNoTime):
		return "budget"
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.Is(err, context.Canceled):
		return "canceled"
	case IsThrottle(err):
		return "throttled"
	case errors.Is(err, ErrRefused):
		return "refused"
	case errors.Is(err, ErrInvalid):
		return "invalid_output"
	}
	return "error"
}
