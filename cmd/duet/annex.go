package main

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/duetbot/duet/shared/annex"
	"github.com/duetbot/duet/shared/apigw"
	"github.com/duetbot/duet/shared/app"
	"github.com/duetbot/duet/shared/config"
	"github.com/duetbot/duet/shared/duet"
	"github.com/duetbot/duet/shared/httpapi"
)

// mountAnnex serves the annex bot on /annex. Without ANNEX_CALLER_KEY the
// route answers 503 and says why: the endpoint is never open by default.
func mountAnnex(ctx context.Context, mux *http.ServeMux, cfg config.Config, store annex.Store, brains app.Brains, log *slog.Logger, opts ...annex.EngineOption) (string, error) {
	if cfg.AnnexCallerKey == "" {
		off := duet.Errorf(duet.EUNAVAILABLE, "the annex bot is off: set ANNEX_CALLER_KEY and ANNEX_PERSON_NAME or ANNEX_PERSONA_FILE")
		mux.Handle("/annex", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			apigw.Write(w, apigw.JSON(apigw.Status(off), apigw.ErrorBody{Error: duet.Message(off)}))
		}))
		return "off (ANNEX_CALLER_KEY is not set)", nil
	}
	engine, err := app.AnnexEngine(ctx, cfg, store, brains, log, opts...)
	if err != nil {
		return "", err
	}
	h, err := httpapi.NewAnnex(cfg.AnnexCallerKey, engine, log)
	if err != nil {
		return "", err
	}
	mux.Handle("/annex", apigw.HTTP(h.Handle, log))
	return "answering as " + engine.Persona().Name(), nil
}
