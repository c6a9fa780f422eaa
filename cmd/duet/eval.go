package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime"

	"github.com/duetbot/duet/shared/annex"
	"github.com/duetbot/duet/shared/annex/endpoint"
	"github.com/duetbot/duet/shared/annex/replay"
	"github.com/duetbot/duet/shared/awslog"
	"github.com/duetbot/duet/shared/embed"
	"github.com/duetbot/duet/shared/embed/bedrock"
	"github.com/duetbot/duet/shared/embed/openai"
)

func init() {
	register("eval", "replay a transcript against annex bots and score the replies by embedding similarity", runEval)
}

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// secretFlag is a repeatable flag whose values are never printed.
type secretFlag []string

func (l *secretFlag) String() string     { return strings.Repeat("***,", len(*l)) }
func (l *secretFlag) Set(v string) error { *l = append(*l, v); return nil }

func runEval(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("eval", stderr)
	var endpoints listFlag
	var keys secretFlag
	fs.Var(&endpoints, "endpoint", "URL of an annex bot (repeatable: bots side by side)")
	fs.Var(&keys, "key", "X-CALLER-KEY of the bot (repeatable, paired with --endpoint in order; once for all; default $ANNEX_CALLER_KEY)")
	transcript := fs.String("transcript", "", "transcript JSON file to replay (required)")
	echo := fs.Bool("echo", false, "also score the echo baseline, which answers \"echo: \" + message.text")
	embedder := fs.String("embed", "offline", "embeddings: offline, openai or bedrock")
	baseURL := fs.String("openai-base-url", os.Getenv("OPENAI_BASE_URL"), "OpenAI-compatible API base URL (default $OPENAI_BASE_URL, else "+openai.DefaultBaseURL+")")
	apiKey := fs.String("openai-key", "", "OpenAI API key (default $OPENAI_API_KEY)")
	model := fs.String("embed-model", os.Getenv("EMBED_MODEL"), "embedding model (default $EMBED_MODEL, else "+openai.DefaultModel+" — "+replay.EmevalModel+", the original scorer's, under --compat emeval — or "+bedrock.DefaultModel+")")
	compat := fs.String("compat", "", "emeval: score like the original hive/annex scorer (question + \" \" + answer, points 0..100 across bots)")
	asJSON := fs.Bool("json", false, "print the result as JSON instead of a table")
	htmlFile := fs.String("html", "", "also write a self-contained HTML report to this file")
	concurrency := fs.Int("concurrency", 4, "requests in flight at most")
	timeout := fs.Duration("timeout", endpoint.DefaultTimeout, "time limit of one request to a bot")
	if err := fs.Parse(args); err != nil {
		return err
	}
	usage := func(msg string) error { return fmt.Errorf("%w: duet eval: %s (see duet eval -h)", errUsage, msg) }
	if *transcript == "" {
		return usage("--transcript is required")
	}
	if len(endpoints) == 0 && !*echo {
		return usage("give at least one --endpoint (or --echo)")
	}
	if *compat != "" && *compat != replay.CompatEmeval {
		return usage(fmt.Sprintf("--compat %q: the only one is %q", *compat, replay.CompatEmeval))
	}
	if len(keys) == 0 {
		if k := os.Getenv("ANNEX_CALLER_KEY"); k != "" {
			keys = secretFlag{k}
		}
	}
	if len(endpoints) > 0 && len(keys) != 1 && len(keys) != len(endpoints) {
		return usage(fmt.Sprintf("%d --key for %d --endpoint: give one key for all, or one per endpoint", len(keys), len(endpoints)))
	}

	t, err := annex.ReadTranscript(*transcript)
	if err != nil {
		return err
	}
	if *compat == replay.CompatEmeval && *embedder == "openai" && *model == "" {
		// Similarities depend on the model: score with the original's.
		*model = replay.EmevalModel
		fmt.Fprintf(stderr, "--compat emeval: embedding with %s, the original scorer's model\n", *model)
	}
	emb, embName, err := newEmbedder(ctx, *embedder, *baseURL, *apiKey, *model)
	if err != nil {
		return err
	}
	httpClient := &http.Client{Timeout: *timeout}
	cands := evalCandidates(endpoints, keys, *echo, httpClient)

	bar := &progress{w: stderr, tty: isTerminal(stderr)}
	res, err := replay.Run(ctx, t, cands, replay.Options{
		Embedder: emb, EmbedderName: embName, Concurrency: *concurrency, Compat: *compat,
		Baseline: baseline(cands, *echo), Progress: bar.update,
	})
	bar.done()
	if err != nil {
		return err
	}
	res.Transcript = filepath.Base(*transcript)
	for _, tr := range res.Turns {
		for _, r := range tr.Replies {
			if !r.Scored() {
				fmt.Fprintf(stderr, "turn %d (%s): %s\n", tr.Turn, r.Candidate, r.Error)
			}
		}
	}
	if *asJSON {
		err = replay.WriteJSON(stdout, res)
	} else {
		err = replay.WriteTable(stdout, res)
	}
	if err != nil {
		return err
	}
	if *htmlFile != "" {
		if err := writeHTML(*htmlFile, res); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "report written to %s\n", *htmlFile)
	}
	if bad := res.Unscored(); len(bad) > 0 {
		return fmt.Errorf("nothing could be scored for %s", strings.Join(bad, ", "))
	}
	return nil
}

// evalCandidates names the bots to score: "bot" for a lone endpoint, "#1",
// "#2"… for several (their URLs are their sources), then echo.
func evalCandidates(endpoints, keys []string, echo bool, client *http.Client) []replay.Candidate {
	var cands []replay.Candidate
	for i, u := range endpoints {
		key := ""
		if len(keys) > 0 {
			key = keys[min(i, len(keys)-1)]
		}
		name := "bot"
		if len(endpoints) > 1 {
			name = fmt.Sprintf("#%d", i+1)
		}
		cands = append(cands, replay.Candidate{Name: name, Source: u, Bot: endpoint.New(u, key, client)})
	}
	if echo {
		cands = append(cands, replay.Candidate{Name: "echo", Source: `echo baseline: "echo: " + message.text, the original sample endpoint`, Bot: replay.Echo})
	}
	return cands
}

// baseline is the bot the others are compared with: echo when it is
// scored (the sample endpoint every persona must beat), else the first
// endpoint when there are several (the one the others are meant to
// improve on), else none.
func baseline(cands []replay.Candidate, echo bool) string {
	switch {
	case echo:
		return "echo"
	case len(cands) > 1:
		return cands[0].Name
	}
	return ""
}

func writeHTML(path string, res *replay.Result) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("html report: %w", err)
	}
	if err := replay.WriteHTML(f, res); err != nil {
		f.Close()
		return fmt.Errorf("html report: %w", err)
	}
	return f.Close()
}

// newEmbedder returns the embeddings back end kind names, behind a cache
// that embeds each text once and batches what the API allows, and its name
// for the reports (back end and model).
func newEmbedder(ctx context.Context, kind, baseURL, apiKey, model string) (embed.Embedder, string, error) {
	switch kind {
	case "", "offline":
		return embed.Lexical{}, replay.LexicalName, nil
	case "openai":
		if apiKey == "" {
			apiKey = os.Getenv("OPENAI_API_KEY")
		}
		c, err := openai.New(baseURL, apiKey, model)
		if err != nil {
			return nil, "", fmt.Errorf("%w: duet eval: --openai-base-url: %w", errUsage, err)
		}
		return embed.NewCache(c, 256), "openai " + cmp.Or(model, openai.DefaultModel), nil
	case "bedrock":
		cfg, err := awsconfig.LoadDefaultConfig(ctx, awsconfig.WithLogger(awslog.Logger()))
		if err != nil {
			return nil, "", fmt.Errorf("bedrock: load AWS config: %w", err)
		}
		// Titan embeds one text per call.
		return embed.NewCache(bedrock.New(bedrockruntime.NewFromConfig(cfg), model), 1), "bedrock " + cmp.Or(model, bedrock.DefaultModel), nil
	}
	return nil, "", fmt.Errorf("%w: duet eval: --embed %q: use offline, openai or bedrock", errUsage, kind)
}

// progress draws a progress bar on stderr for runs of more than a few
// requests, when stderr is a terminal: elsewhere (a log, a pipe) its \r
// frames would be noise, so a long run prints a line every few seconds.
type progress struct {
	w     io.Writer
	tty   bool
	mu    sync.Mutex
	drawn bool
	last  time.Time
}

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	if t, ok := w.(*trackedStderr); ok {
		w = t.Writer
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// lineEvery spaces the progress lines of a run whose stderr is no terminal.
const lineEvery = 5 * time.Second

func (p *progress) update(done, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.tty {
		if p.last.IsZero() {
			p.last = time.Now()
		}
		if done < total && time.Since(p.last) >= lineEvery {
			p.last = time.Now()
			fmt.Fprintf(p.w, "duet eval: %d/%d requests\n", done, total)
		}
		return
	}
	if total < 5 {
		return
	}
	if done < total && time.Since(p.last) < 100*time.Millisecond {
		return
	}
	p.last = time.Now()
	const width = 30
	n := done * width / total
	fmt.Fprintf(p.w, "\r[%s%s] %d/%d", strings.Repeat("#", n), strings.Repeat(".", width-n), done, total)
	p.drawn = true
}

func (p *progress) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn {
		fmt.Fprintln(p.w)
	}
}
