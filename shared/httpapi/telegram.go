package httpapi

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/duetbot/duet/shared/apigw"
	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/duet"
	"github.com/duetbot/duet/shared/telegram"
)

// SecretHeader carries the webhook's secret_token on every Telegram request.
const SecretHeader = "X-Telegram-Bot-Api-Secret-Token"

// Handler is what the webhook needs of the chat engine. Handle must be
// done by ctx's deadline, which the webhook sets early enough to answer
// after it; like convai.Engine, it works on when ctx's caller hangs up.
type Handler interface {
	Handle(ctx context.Context, u convai.Update) error
}

var _ Handler = (*convai.Engine)(nil)

// Telegram is the ConvAI bot's webhook. Telegram retries every non-2xx
// answer for hours, so it answers 200 for updates that can never succeed
// (malformed, not a message, for an unknown or ended chat) and 5xx only when
// a retry can help — a retry the engine makes safe.
type Telegram struct {
	engine Handler
	secret secret // nil: every request is accepted
	log    *slog.Logger
}

// NewTelegram returns the webhook handler. An empty secret accepts every
// request (for local runs); deployed, set TELEGRAM_WEBHOOK_SECRET.
func NewTelegram(engine Handler, secret string, log *slog.Logger) *Telegram {
	return &Telegram{engine: engine, secret: newSecret(secret), log: log}
}

// ok returns the answer to every update the webhook is done with.
func ok() events.APIGatewayV2HTTPResponse { return apigw.RawJSON(http.StatusOK, `{"ok":true}`) }

// Handle processes one webhook request.
func (t *Telegram) Handle(ctx context.Context, req events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
	if m := apigw.Method(req); m != "" && m != http.MethodPost {
		return apigw.Error(ctx, t.log, duet.Errorf(duet.EMETHOD, "method %s not allowed: POST updates here", m)), nil
	}
	if !t.authorized(req) {
		return apigw.Error(ctx, t.log, duet.Errorf(duet.EUNAUTHORIZED, "missing or wrong %s", SecretHeader)), nil
	}
	body, err := apigw.Body(req)
	if err != nil {
		return apigw.Error(ctx, t.log, err), nil
	}
	u, err := telegram.ParseUpdate(body)
	if err != nil {
		t.log.WarnContext(ctx, "dropped update that can never be processed", "err", err)
		return ok(), nil
	}
	// Stop early enough to record a failed delivery and answer 503 before
	// Lambda's own deadline kills the request.
	hctx, cancel := reserve(ctx)
	defer cancel()
	update := convai.Update{UpdateID: u.UpdateID, ChatID: u.Message.Chat.ID, Text: u.Message.Text}
	err = t.engine.Handle(hctx, update)
	switch duet.Code(err) {
	case "":
		return ok(), nil
	case duet.EINVALID, duet.ENOTFOUND:
		t.log.InfoContext(ctx, "dropped update", "chat", update.ChatID, "update_id", update.UpdateID, "reason", err)
		return ok(), nil
	case duet.EINTERNAL:
		// A bug: the same update would fail the same way on every one of
		// Telegram's retries, for hours.
		t.log.ErrorContext(ctx, "dropped update after an internal error", "chat", update.ChatID, "update_id", update.UpdateID, "err", err)
		return ok(), nil
	}
	return apigw.Error(ctx, t.log, err), nil
}

// answerReserve is the time kept after the engine's work to answer.
const answerReserve = 2 * time.Second

// reserve returns ctx with a deadline answerReserve before its own, if it
// has one.
func reserve(ctx context.Context) (context.Context, context.CancelFunc) {
	d, ok := ctx.Deadline()
	if !ok {
		return ctx, func() {}
	}
	return context.WithDeadline(ctx, d.Add(-answerReserve))
}

// authorized checks the secret header, when a secret is configured.
func (t *Telegram) authorized(req events.APIGatewayV2HTTPRequest) bool {
	return t.secret == nil || t.secret.matches(apigw.Header(req, SecretHeader))
}
