package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/duetbot/duet/shared/annex"
	"github.com/duetbot/duet/shared/config"
	"github.com/duetbot/duet/shared/duet"
	"github.com/duetbot/duet/shared/embed"
)

// AnnexPersona returns what the bot knows of ANNEX_PERSON_NAME: the persona
// imported into store (`duet persona import`), plus the transcripts listed
// in ANNEX_PERSONA_FILE (comma-separated). Without a name, the first
// transcript's person names the bot.
func AnnexPersona(ctx context.Context, cfg config.Config, store annex.Store) (annex.PersonaData, error) {
	d := annex.PersonaData{Name: cfg.AnnexPersonName}
	if d.Name != "" && store != nil {
		stored, err := store.LoadPersona(ctx, d.Name)
		switch {
		case err == nil:
			d = stored
		case !errors.Is(err, duet.ErrNotFound):
			return annex.PersonaData{}, fmt.Errorf("load persona %q: %w", d.Name, err)
		}
	}
	d, err := AddTranscripts(d, strings.Split(cfg.AnnexPersonaFile, ","))
	if err != nil {
		return annex.PersonaData{}, fmt.Errorf("ANNEX_PERSONA_FILE: %w", err)
	}
	if d.Name == "" {
		return annex.PersonaData{}, errors.New("ANNEX_PERSON_NAME is not set: the annex bot needs the name of the person it emulates")
	}
	return d, nil
}

// AddTranscripts adds to d what the transcript files at paths teach about
// their person (blank paths skipped); without a name, d takes the first
// transcript's person's. Its errors name the file.
func AddTranscripts(d annex.PersonaData, paths []string) (annex.PersonaData, error) {
	for _, path := range paths {
		if path = strings.TrimSpace(path); path == "" {
			continue
		}
		t, err := annex.ReadTranscriptText(path)
		if err != nil {
			return annex.PersonaData{}, err
		}
		if d.Name == "" {
			d.Name = t.Username()
			if d.Name == "" {
				d.Name = t.Person
			}
		}
		if d.ID == "" {
			d.ID = t.Person
		}
		if d.Username == "" {
			d.Username = t.Username()
		}
		d.Pairs = append(d.Pairs, t.Pairs()...)
	}
	return d, nil
}

// AnnexEngine returns the annex engine: the persona from store and/or
// ANNEX_PERSONA_FILE (loaded once, at the call), brains.Persona writing the
// replies, exchanges recorded in store, and opts. functions/annex and
// `duet serve` both call it.
func AnnexEngine(ctx context.Context, cfg config.Config, store annex.Store, brains Brains, log *slog.Logger, opts ...annex.EngineOption) (*annex.Engine, error) {
	if store == nil {
		return nil, errors.New("annex: a store is required")
	}
	data, err := AnnexPersona(ctx, cfg, store)
	if err != nil {
		return nil, err
	}
	if len(data.Pairs) == 0 {
		log.WarnContext(ctx, "the annex bot knows nothing of the person yet: it can only learn from each request's messages. Import a transcript (duet persona import --file F --person NAME) or set ANNEX_PERSONA_FILE",
			"person", data.Name)
	}
	persona, err := annex.NewPersona(ctx, data, embed.Lexical{})
	if err != nil {
		return nil, err
	}
	return annex.NewEngine(persona, store, append([]annex.EngineOption{annex.WithReplier(brains.Persona), annex.WithLogger(log)}, opts...)...)
}
