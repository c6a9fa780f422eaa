package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"

	"github.com/duetbot/duet/shared/annex/endpoint"
	"github.com/duetbot/duet/shared/app"
	"github.com/duetbot/duet/shared/app/brains"
	"github.com/duetbot/duet/shared/chat"
	"github.com/duetbot/duet/shared/store/memstore"
)

// samplePersona is the persona duet chat -annex plays when none is
// configured, relative to the repository's root.
const samplePersona = "shared/annex/testdata/ada.json"

func chatAnnex(ctx context.Context, f chatFlags, stdin io.Reader, terminal bool, stdout, stderr io.Writer) error {
	if f.context != "" || f.profile != "" || f.options != "" || f.save != "" {
		return fmt.Errorf("%w: -context, -profile, -options and -save are for the ConvAI bot, not -annex", errUsage)
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	var bot chat.AnnexBot
	person := "person"
	if f.bot != "" {
		key := os.Getenv("ANNEX_CALLER_KEY")
		if key == "" {
			return errors.New("ANNEX_CALLER_KEY is not set: the annex bot at -bot wants its caller key")
		}
		bot = endpoint.New(f.bot, key, &http.Client{Timeout: f.timeout})
		fmt.Fprintf(stderr, "duet chat: talking to the annex bot at %s\n", f.bot)
	} else {
		cfg, err := localConfig()
		if err != nil {
			return err
		}
		source := "ANNEX_PERSON_NAME/ANNEX_PERSONA_FILE"
		if cfg.AnnexPersonName == "" && cfg.AnnexPersonaFile == "" {
			if _, err := os.Stat(samplePersona); err != nil {
				return fmt.Errorf("no persona: set ANNEX_PERSONA_FILE to a transcript (or run from the repository, whose sample %s is the default)", samplePersona)
			}
			cfg.AnnexPersonaFile, source = samplePersona, "the sample "+samplePersona+"; set ANNEX_PERSONA_FILE for another"
		}
		backends, err := brains.New(ctx, cfg, log)
		if err != nil {
			return err
		}
		engine, err := app.AnnexEngine(ctx, cfg, memstore.NewAnnex(), backends, log)
		if err != nil {
			return err
		}
		bot, person = chat.AnnexAsker{Engine: engine}, engine.Persona().Name()
		fmt.Fprintf(stderr, "duet chat: Duet's annex bot in-process as %s (brain %s), persona from %s\n", person, cfg.Brain, source)
	}
	if terminal && !f.json {
		fmt.Fprintf(stderr, "duet chat: each line is a message to %s; /new: a fresh conversation; Ctrl-D: quit\n", person)
	}
	s := chat.NewAnnexSession(bot, chat.AnnexOptions{Person: person, JSON: f.json, Terminal: terminal && !f.json, Out: stdout, Info: stderr})
	return s.Run(ctx, stdin)
}
