package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/duetbot/duet/shared/annex"
	"github.com/duetbot/duet/shared/app"
	"github.com/duetbot/duet/shared/config"
	"github.com/duetbot/duet/shared/duet"
)

func init() {
	register("persona", "import a person's transcripts into the table (import), or show what they teach (show)", runPersona)
}

func runPersona(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	usage := fmt.Errorf("%w: usage: duet persona import --file F [--file F2] [--person NAME] [-replace]\n       duet persona show --file F", errUsage)
	if len(args) == 0 {
		return usage
	}
	fs := newFlags("persona "+args[0], stderr)
	var files listFlag
	fs.Var(&files, "file", "transcript JSON file (repeatable)")
	person := fs.String("person", os.Getenv("ANNEX_PERSON_NAME"), "name to store the persona under (default $ANNEX_PERSON_NAME, else the transcript's username)")
	replace := fs.Bool("replace", false, "import: replace the persona already stored under that name (it is kept until the new one is complete)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if len(files) == 0 {
		return usage
	}
	data, err := app.AddTranscripts(annex.PersonaData{Name: *person}, files)
	if err != nil {
		return err
	}
	switch args[0] {
	case "show":
		return showPersona(stdout, data)
	case "import":
		if len(data.Pairs) == 0 {
			return fmt.Errorf("%s: nothing to learn: person %q never says anything in it; nothing was imported (check the transcript's \"person\")", strings.Join(files, ", "), data.ID)
		}
		env, err := config.FromEnv()
		if err != nil {
			return err
		}
		if env.SessionsTable == "" {
			return fmt.Errorf("SESSIONS_TABLE is not set: say which table to import into (and DYNAMODB_ENDPOINT for a local one)")
		}
		store, err := app.DynamoStore(ctx, env)
		if err != nil {
			return err
		}
		stored, err := store.LoadPersona(ctx, data.Name)
		switch {
		case err == nil && !*replace:
			return fmt.Errorf("a persona %q (%d pairs) is already stored in %s: give -replace to replace it", stored.Name, len(stored.Pairs), env.SessionsTable)
		case err != nil && !errors.Is(err, duet.ErrNotFound):
			return err
		}
		if err := store.SavePersona(ctx, data); err != nil {
			return fmt.Errorf("import persona %q: %w", data.Name, err)
		}
		fmt.Fprintf(stdout, "imported %d pairs of %s into %s\n", len(data.Pairs), data.Name, env.SessionsTable)
		// The bot finds the persona by this name (case aside): say exactly
		// what to set, since a bot whose name matches nothing answers
		// with its stock reply only.
		fmt.Fprintf(stdout, "set ANNEX_PERSON_NAME=%s for the annex bot\n", shellQuote(data.Name))
		return nil
	}
	return usage
}

func showPersona(w io.Writer, d annex.PersonaData) error {
	var prompted int
	answers := make([]string, len(d.Pairs))
	for i, p := range d.Pairs {
		if p.Prompt != "" {
			prompted++
		}
		answers[i] = p.Answer
	}
	m := annex.MannerOf(answers)
	fmt.Fprintf(w, "person:      %s (id %q, username %q)\n", d.Name, d.ID, d.Username)
	fmt.Fprintf(w, "pairs:       %d (%d answering a prompt)\n", len(d.Pairs), prompted)
	fmt.Fprintf(w, "length:      %d words typically\n", m.Words)
	fmt.Fprintf(w, "openers:     %s\n", quoteAll(m.Openers))
	fmt.Fprintf(w, "closers:     %s (%.0f%% of messages)\n", quoteAll(m.Closers), m.CloserRate*100)
	fmt.Fprintf(w, "vocabulary:  %s\n", strings.Join(m.Vocabulary, ", "))
	fmt.Fprintf(w, "lower case:  %v\n", m.Lowercase)
	return nil
}

func quoteAll(ss []string) string {
	if len(ss) == 0 {
		return "-"
	}
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, " ")
}

// shellQuote quotes s for a POSIX shell when it holds anything but letters,
// digits and a few safe punctuation marks.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_.,:/@+=", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
