package brains

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/duetbot/duet/shared/annex"
	"github.com/duetbot/duet/shared/app"
	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/brain/offline"
	"github.com/duetbot/duet/shared/config"
	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/store/memstore"
)

// chatCompletions is a fake OpenAI-compatible server: it answers every
// request with answer, in the Chat Completions wire format, or runs hang.
func chatCompletions(t *testing.T, answer func(req map[string]any) string, hang bool) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer sk-test" {
			http.Error(w, `{"error":{"message":"bad path or key","type":"invalid_request_error"}}`, http.StatusUnauthorized)
			return
		}
		// Read the body first: only then does the server notice the client
		// hanging up, which ends a hanging request's context.
		body, _ := io.ReadAll(r.Body)
		if hang {
			<-r.Context().Done()
			return
		}
		var req map[string]any
		if err := json.Unmarshal(body, &req); err != nil {
			http.Error(w, "bad json", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"id": "chatcmpl-1", "object": "chat.completion", "created": 1795255200, "model": req["model"],
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": answer(req)}}},
			"usage": map[string]any{"prompt_tokens": 120, "completion_tokens": 12, "total_tokens": 132},
		})
	}))
	t.Cleanup(srv.Close)
	return srv
}

// wantsJSON reports whether the request asks for a JSON evaluation.
func wantsJSON(req map[string]any) bool {
	b, _ := json.Marshal(req["messages"])
	return strings.Contains(string(b), "quality") || strings.Contains(string(b), "evaluation")
}

func openAIConfig(t *testing.T, url, timeout string) config.Config {
	t.Helper()
	cfg, err := config.Load(func(k string) (string, bool) {
		v, ok := map[string]string{
			"BRAIN": "openai", "BRAIN_MODEL": "test-model", "BRAIN_TIMEOUT": timeout,
			"OPENAI_BASE_URL": url + "/v1", "OPENAI_API_KEY": "sk-test",
			"ANNEX_PERSONA_FILE": "../../annex/testdata/ada.json",
		}[k]
		return v, ok
	})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

type sent struct{ msgs []string }

func (s *sent) Send(_ context.Context, _ int64, text string) error {
	s.msgs = append(s.msgs, text)
	return nil
}

// run sends /start and one partner message to a ConvAI engine and one
// request to an annex engine built from cfg, and returns both replies.
func run(t *testing.T, cfg config.Config) (convaiReply map[string]any, annexReply string) {
	t.Helper()
	ctx := context.Background()
	log := slog.New(slog.DiscardHandler)
	out := &sent{}
	brains, err := New(ctx, cfg, log)
	if err != nil {
		t.Fatal(err)
	}
	engine := app.ConvAIEngine(cfg, memstore.New(), out, brains, log)
	for _, text := range []string{"/start A wasp is crawling on your wrist.", "I would stay calm and wait."} {
		if err := engine.Handle(ctx, convai.Update{ChatID: 1, Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	if len(out.msgs) != 1 {
		t.Fatalf("sent %q, want one reply", out.msgs)
	}
	if err := json.Unmarshal([]byte(out.msgs[0]), &convaiReply); err != nil {
		t.Fatal(err)
	}
	ae, err := app.AnnexEngine(ctx, cfg, memstore.NewAnnex(), brains, log)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := ae.Answer(ctx, annex.Request{Message: annex.Message{From: "U02BEN", ID: "q1", Text: "Ada, should we deploy on Friday?", Timestamp: "2024-03-11T09:00:00Z"}})
	if err != nil {
		t.Fatal(err)
	}
	return convaiReply, resp.Message
}

func TestOpenAIBrainAnswers(t *testing.T) {
	srv := chatCompletions(t, func(req map[string]any) string {
		if wantsJSON(req) {
			return `{"evaluation": 8}`
		}
		return "Model says: keep still and let it fly off."
	}, false)
	reply, annexMsg := run(t, openAIConfig(t, srv.URL, "5s"))
	if reply["text"] != "Model says: keep still and let it fly off." || reply["evaluation"] != 8.0 {
		t.Errorf("ConvAI reply = %v, want the model's text and rating", reply)
	}
	if annexMsg != "Model says: keep still and let it fly off." {
		t.Errorf("annex reply = %q, want the model's text", annexMsg)
	}
}

func TestOpenAIBrainFallsBack(t *testing.T) {
	tests := []struct {
		name string
		srv  *httptest.Server
	}{
		{"garbage", chatCompletions(t, func(map[string]any) string { return "" }, false)},
		{"never answers", chatCompletions(t, nil, true)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reply, annexMsg := run(t, openAIConfig(t, tt.srv.URL, "300ms"))
			// The offline engine's answer to the same chat, for comparison.
			off := offline.New()
			want, err := off.Reply(context.Background(), requestOf("A wasp is crawling on your wrist.", "I would stay calm and wait."))
			if err != nil {
				t.Fatal(err)
			}
			if reply["text"] != want {
				t.Errorf("ConvAI reply = %q, want the offline engine's %q", reply["text"], want)
			}
			if annexMsg == "" || strings.Contains(annexMsg, "Model says") {
				t.Errorf("annex reply = %q, want the offline persona's", annexMsg)
			}
		})
	}
}

func TestNewBrainsRejectsUnknown(t *testing.T) {
	cfg := config.Config{Brain: "telepathy", BrainTimeout: time.Second}
	if _, err := New(context.Background(), cfg, slog.New(slog.DiscardHandler)); err == nil {
		t.Error("New(BRAIN=telepathy) = nil error")
	}
}

func requestOf(context, partner string) brain.Request {
	return brain.Request{Context: context, Turns: []brain.Turn{{Role: brain.Partner, Text: partner}}}
}

func TestNewBrainsNeedsOpenAIKey(t *testing.T) {
	cfg := config.Config{Brain: "openai", BrainModel: "gpt-4o-mini", OpenAIBaseURL: config.DefaultOpenAIBaseURL, BrainTimeout: time.Second}
	_, err := New(context.Background(), cfg, slog.New(slog.DiscardHandler))
	if err == nil || !strings.Contains(err.Error(), "OPENAI_API_KEY") {
		t.Errorf("New(openai without a key) = %v, want an error naming OPENAI_API_KEY", err)
	}
	// A local server needs no key.
	cfg.OpenAIBaseURL = "http://127.0.0.1:11434/v1"
	if _, err := New(context.Background(), cfg, slog.New(slog.DiscardHandler)); err != nil {
		t.Errorf("New(local openai-compatible server without a key) = %v", err)
	}
}
