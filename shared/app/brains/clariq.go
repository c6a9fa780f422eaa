package brains

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/duetbot/duet/shared/app"
	"github.com/duetbot/duet/shared/bounded"
	"github.com/duetbot/duet/shared/brain/offline"
	"github.com/duetbot/duet/shared/clariq"
	"github.com/duetbot/duet/shared/config"
	"github.com/duetbot/duet/shared/store/dynamo"
)

// Clariq builds BRAIN=clariq: the ConvAI bot becomes a ClariQ
// system asking from the question bank, rated by the offline evaluator. The
// bank is CLARIQ_BANK (a question_bank.tsv) when set, else the one `duet
// clariq import` stored in SESSIONS_TABLE; it is read once, here, per cold
// start.
func Clariq(ctx context.Context, cfg config.Config, log *slog.Logger) (app.Brains, error) {
	start := time.Now()
	var (
		tsv    []byte
		source string
		err    error
	)
	switch {
	case cfg.ClariqBank != "":
		source = cfg.ClariqBank
		tsv, err = bounded.ReadFile(cfg.ClariqBank, clariq.MaxFileBytes)
	case cfg.SessionsTable != "":
		source = "table " + cfg.SessionsTable
		var client dynamo.QueryAPI
		client, err = dynamo.NewClient(ctx, cfg.DynamoDBEndpoint)
		if err == nil {
			tsv, err = dynamo.LoadClariqBank(ctx, client, cfg.SessionsTable)
		}
	default:
		return app.Brains{}, errors.New("BRAIN=clariq: set CLARIQ_BANK to a question_bank.tsv, or SESSIONS_TABLE to a table `duet clariq import` filled")
	}
	if err != nil {
		return app.Brains{}, fmt.Errorf("BRAIN=clariq: read the question bank from %s: %w", source, err)
	}
	bank, err := clariq.ReadBank(bytes.NewReader(tsv))
	if err != nil {
		return app.Brains{}, fmt.Errorf("BRAIN=clariq: %s: %w", source, err)
	}
	off := app.OfflineBrains()
	b := clariq.NewBrain(clariq.NewRanker(bank, nil), offline.New())
	log.Info("clariq bank loaded", "source", source, "questions", len(bank), "took", time.Since(start).Round(time.Millisecond))
	return app.Brains{Replier: b, Evaluator: b, Persona: off.Persona}, nil
}
