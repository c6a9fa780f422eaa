package httpapi

import (
	"context"
	"errors"
	"log/slog"
	"net/http"

	"github.com/aws/aws-lambda-go/events"

	"github.com/duetbot/duet/shared/annex"
	"github.com/duetbot/duet/shared/apigw"
	"github.com/duetbot/duet/shared/duet"
)

// CallerKeyHeader carries the shared secret of the hive platform.
const CallerKeyHeader = "X-CALLER-KEY"

// Annex serves the hive/annex bot endpoint: POST with the caller key and a
// JSON request, answered {"message": "..."}.
type Annex struct {
	key    secret
	engine *annex.Engine
	log    *slog.Logger
}

// NewAnnex returns the annex handler. It refuses an empty key: the endpoint
// is never open by default.
func NewAnnex(key string, engine *annex.Engine, log *slog.Logger) (*Annex, error) {
	if key == "" {
		return nil, errors.New("annex: ANNEX_CALLER_KEY is not set: refusing to serve an unauthenticated endpoint")
	}
	if engine == nil {
		return nil, errors.New("annex: an engine is required")
	}
	if log == nil {
		log = slog.Default()
	}
	return &Annex{key: newSecret(key), engine: engine, log: log}, nil
}

// Handle answers one API Gateway request. Every outcome, errors included,
// is a response; the returned error is always nil so that API Gateway never
// turns a failure into its own opaque 500.
func (a *Annex) Handle(ctx context.Context, req events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
	if m := apigw.Method(req); m != http.MethodPost {
		resp := apigw.Error(ctx, a.log, duet.Errorf(duet.EMETHOD, "method %s not allowed; use POST", m))
		resp.Headers["Allow"] = http.MethodPost
		return resp, nil
	}
	if !a.key.matches(apigw.Header(req, CallerKeyHeader)) {
		return apigw.Error(ctx, a.log, duet.Errorf(duet.EUNAUTHORIZED, "missing or wrong %s", CallerKeyHeader)), nil
	}
	body, err := apigw.Body(req)
	if err != nil {
		return apigw.Error(ctx, a.log, err), nil
	}
	areq, err := annex.ParseRequest(body)
	if err != nil {
		return apigw.Error(ctx, a.log, err), nil
	}
	resp, err := a.engine.Answer(ctx, areq)
	if err != nil {
		return apigw.Error(ctx, a.log, err), nil
	}
	a.log.DebugContext(ctx, "annex reply", "conversation", areq.ConversationID(), "message_id", areq.Message.ID, "reply_chars", len(resp.Message))
	return apigw.JSON(http.StatusOK, resp), nil
}
