package main

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/duetbot/duet/shared/config"
)

// mountAnnex is replaced when the annex bot lands.
func mountAnnex(context.Context, *http.ServeMux, config.Config, *slog.Logger) error { return nil }
