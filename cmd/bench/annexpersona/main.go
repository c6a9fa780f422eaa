// Command annexpersona writes the inputs of the annex load test
// (.ci/annex-loadtest): a generated transcript of the person the bot
// emulates, of any length (package annextest; the same for the same seed),
// for ANNEX_PERSONA_FILE, and annex request bodies, one JSON object per
// line, for .ci/bench/annex.lua.
//
//	go run ./cmd/bench/annexpersona -messages 30000 -persona p.json -requests r.jsonl
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/duetbot/duet/shared/annex/annextest"
)

func main() {
	messages := flag.Int("messages", 3000, "messages in the transcript")
	seed := flag.Uint64("seed", 1, "the transcript's seed")
	persona := flag.String("persona", "persona.json", "where to write the transcript")
	requests := flag.String("requests", "", "where to write request bodies, one per line (none when empty)")
	n := flag.Int("n", 1000, "how many request bodies")
	flag.Parse()
	if err := run(*messages, *seed, *persona, *requests, *n); err != nil {
		fmt.Fprintln(os.Stderr, "annexpersona:", err)
		os.Exit(1)
	}
}

func run(messages int, seed uint64, persona, requests string, n int) error {
	b, err := json.Marshal(annextest.Transcript(messages, seed))
	if err != nil {
		return fmt.Errorf("encode transcript: %w", err)
	}
	if err := os.WriteFile(persona, b, 0o644); err != nil {
		return fmt.Errorf("write transcript: %w", err)
	}
	if requests == "" {
		return nil
	}
	f, err := os.Create(requests)
	if err != nil {
		return fmt.Errorf("create requests: %w", err)
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w) // one object per line
	for _, r := range annextest.Requests(n, seed+1) {
		if err := enc.Encode(r); err != nil {
			f.Close()
			return fmt.Errorf("encode request: %w", err)
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("write requests: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write requests: %w", err)
	}
	return nil
}
