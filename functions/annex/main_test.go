package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/duetbot/duet/shared/annex"
	"github.com/duetbot/duet/shared/app"
	"github.com/duetbot/duet/shared/config"
	"github.com/duetbot/duet/shared/httpapi"
	"github.com/duetbot/duet/shared/store/dynamo"
	"github.com/duetbot/duet/shared/store/dynamo/dynamotest"
	"github.com/duetbot/duet/shared/store/memstore"
)

func loadEvent(t *testing.T, name string) events.APIGatewayV2HTTPRequest {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "events", name))
	if err != nil {
		t.Fatal(err)
	}
	var ev events.APIGatewayV2HTTPRequest
	if err := json.Unmarshal(b, &ev); err != nil {
		t.Fatalf("decode %s: %v", name, err)
	}
	return ev
}

// TestSampleEvents invokes the handler with each annex file of events/ the
// way `sam local invoke -e` does, with the key of events/env.json.
func TestSampleEvents(t *testing.T) {
	env := map[string]string{
		"ANNEX_CALLER_KEY":   "sample-caller-key-0001",
		"ANNEX_PERSON_NAME":  "Ada",
		"ANNEX_PERSONA_FILE": filepath.Join("..", "..", "shared", "annex", "testdata", "ada.json"),
	}
	cfg, err := config.Load(func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	if err != nil {
		t.Fatal(err)
	}
	store := memstore.NewAnnex()
	engine, err := app.AnnexEngine(context.Background(), cfg, store, app.OfflineBrains(), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	h, err := httpapi.NewAnnex(cfg.AnnexCallerKey, engine, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		file   string
		status int
		stored int // exchanges in the store afterwards
	}{
		{"annex-wrong-key.json", http.StatusUnauthorized, 0},
		{"annex-malformed.json", http.StatusBadRequest, 0},
		{"annex-message.json", http.StatusOK, 1},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			resp, err := h.Handle(context.Background(), loadEvent(t, tt.file))
			if err != nil {
				t.Fatalf("Handle: %v", err)
			}
			if resp.StatusCode != tt.status {
				t.Fatalf("status: got %d, want %d (body %s)", resp.StatusCode, tt.status, resp.Body)
			}
			if got := resp.Headers["Content-Type"]; got != "application/json" {
				t.Errorf("Content-Type: got %q, want application/json", got)
			}
			var body map[string]string
			if err := json.Unmarshal([]byte(resp.Body), &body); err != nil {
				t.Fatalf("body %q is not a JSON object of strings: %v", resp.Body, err)
			}
			if tt.status == http.StatusOK {
				if strings.TrimSpace(body["message"]) == "" || strings.Contains(body["message"], "@") {
					t.Errorf("message: got %q, want non-empty text without @mentions", body["message"])
				}
			} else if body["error"] == "" {
				t.Errorf("body: got %s, want an error message", resp.Body)
			}
			if got := store.Count(); got != tt.stored {
				t.Errorf("stored exchanges: got %d, want %d", got, tt.stored)
			}
		})
	}
	ex, err := store.Exchanges(context.Background(), "conv-42")
	if err != nil || len(ex) != 1 || ex[0].Request.ID != "m103" || ex[0].Reply.From != annex.BotFrom {
		t.Errorf("conversation conv-42: got %+v, %v; want the exchange of m103", ex, err)
	}
}

// TestImportedPersonaFoundAnyCase checks the persona `duet persona import`
// stored as "Ada" answers when ANNEX_PERSON_NAME says "ada", and that the
// person's own mentions come back defused.
func TestImportedPersonaFoundAnyCase(t *testing.T) {
	ctx := context.Background()
	store := memstore.NewAnnex()
	err := store.SavePersona(ctx, annex.PersonaData{Name: "Ada", ID: "U01ADA", Username: "ada", Pairs: []annex.Pair{
		{Prompt: "Can we deploy the export API on Friday afternoon?", Answer: "No. Friday deploys mean weekend pages: ask <@U02BEN>, cc:@chloe."},
	}})
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"ANNEX_CALLER_KEY": "sample-caller-key-0001", "ANNEX_PERSON_NAME": "ada"}
	cfg, err := config.Load(func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	if err != nil {
		t.Fatal(err)
	}
	engine, err := app.AnnexEngine(ctx, cfg, store, app.OfflineBrains(), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if got := engine.Persona().Name(); got != "Ada" {
		t.Errorf("persona: got %q, want the imported Ada", got)
	}
	h, err := httpapi.NewAnnex(cfg.AnnexCallerKey, engine, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := h.Handle(ctx, loadEvent(t, "annex-message.json"))
	if err != nil {
		t.Fatal(err)
	}
	var body map[string]string
	if err := json.Unmarshal([]byte(resp.Body), &body); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("got %d %s, want 200 and a JSON message", resp.StatusCode, resp.Body)
	}
	if want := "No. Friday deploys mean weekend pages: ask U02BEN, cc:chloe."; body["message"] != want {
		t.Errorf("message: got %q, want the imported answer %q", body["message"], want)
	}
}

// TestNewHandlerOnDynamo is the deployed function's cold start against
// DynamoDB (DYNAMODB_ENDPOINT: moto or dynalite): the persona imported
// into the table answers through the handler newHandler builds, and
// without ANNEX_CALLER_KEY the function refuses to start.
func TestNewHandlerOnDynamo(t *testing.T) {
	endpoint := dynamotest.Endpoint(t)
	ctx := context.Background()
	client, err := dynamo.NewClient(ctx, endpoint)
	if err != nil {
		t.Fatal(err)
	}
	table := fmt.Sprintf("annex-fn-%d", time.Now().UnixNano())
	if err := dynamo.CreateTable(ctx, client, table); err != nil {
		t.Fatal(err)
	}
	err = dynamo.New(client, table).SavePersona(ctx, annex.PersonaData{Name: "Ada", ID: "U01ADA", Pairs: []annex.Pair{
		{Prompt: "Can we deploy the export API on Friday afternoon?", Answer: "No. Friday deploys mean weekend pages."},
	}})
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{"SESSIONS_TABLE": table, "DYNAMODB_ENDPOINT": endpoint, "ANNEX_PERSON_NAME": "ada", "ANNEX_PERSONA_FILE": "", "BRAIN": ""} {
		t.Setenv(k, v)
	}
	log := slog.New(slog.DiscardHandler)
	t.Setenv("ANNEX_CALLER_KEY", "")
	if _, err := newHandler(ctx, log); err == nil || !strings.Contains(err.Error(), "ANNEX_CALLER_KEY") {
		t.Errorf("newHandler without a caller key: %v, want a refusal naming ANNEX_CALLER_KEY", err)
	}
	t.Setenv("ANNEX_CALLER_KEY", "sample-caller-key-0001")
	h, err := newHandler(ctx, log)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := h.Handle(ctx, loadEvent(t, "annex-message.json"))
	if err != nil {
		t.Fatal(err)
	}
	var body map[string]string
	if json.Unmarshal([]byte(resp.Body), &body) != nil || resp.StatusCode != http.StatusOK || body["message"] != "No. Friday deploys mean weekend pages." {
		t.Errorf("got %d %s, want 200 with the imported answer", resp.StatusCode, resp.Body)
	}
}
