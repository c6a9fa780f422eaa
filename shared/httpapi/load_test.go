package httpapi_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/duetbot/duet/shared/apigw"
	"github.com/duetbot/duet/shared/benchcpu"
	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/brain/offline"
	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/httpapi"
	"github.com/duetbot/duet/shared/store/memstore"
	"github.com/duetbot/duet/shared/telegram"
)

// loadChats is how many chats, each with a context of its own, the load
// benchmarks keep going at once.
const loadChats = 1024

// counter is the delivery side at its bare limit: a Sender that only counts,
// so that a benchmark can check every partner message was answered.
type counter struct{ n atomic.Int64 }

func (c *counter) Send(context.Context, int64, string) error { c.n.Add(1); return nil }

// trivial is a brain that costs next to nothing: with it a benchmark shows
// the engine's own share of a message (store, delivery, codecs, the
// adapter). Its replies differ, as a real brain's do, so that the engine's
// never-repeat rule never has to ask again.
type trivial struct{ n *atomic.Int64 }

func (t trivial) Reply(context.Context, brain.Request) (string, error) {
	return "That sounds fun. What else do you like? #" + strconv.FormatInt(t.n.Add(1), 10), nil
}
func (trivial) Rate(context.Context, brain.Request) (int, error) { return 7, nil }
func (trivial) Final(context.Context, brain.Request) (brain.Scores, error) {
	return brain.Scores{Quality: 7, Breadth: 6, Engagement: 8}, nil
}

// loadContexts returns n distinct /start contexts, built from a few
// ConvAI-style topics so that no two chats share an analysed context.
func loadContexts(n int) []string {
	topics := []string{
		"You're watching TV and a wasp crawls on your wrist. What do you do?",
		"The first Moon landing was broadcast live to an estimated 600 million people.",
		"Coffee was first cultivated in Yemen before it spread to the rest of the world.",
		"A marathon is 42.195 kilometres long, a distance fixed at the 1908 London Olympics.",
		"Octopuses have three hearts and blue blood, and can change colour in a blink.",
	}
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s Chat %d wonders about item %d.", topics[i%len(topics)], i, i*7919%1000)
	}
	return out
}

// loadLines are what partners say in the load benchmarks, in the manner of
// ConvAI chats about a paragraph or a situation (testdata/partner_lines.txt,
// which the wrk load test .ci/bench/updates.lua sends too). Each chat walks
// through them from a place of its own (loadLine), so that, as in a real
// chat, a partner does not say the same thing twice in one.
var loadLines = func() []string {
	b, err := os.ReadFile("testdata/partner_lines.txt")
	if err != nil {
		panic(err)
	}
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}()

// loadLine is what the partner of chat says at its turn-th message.
func loadLine(chat, turn int) string {
	return loadLines[(chat+turn)%len(loadLines)]
}

// updateBody appends a Telegram update for chat with text to buf.
func updateBody(buf []byte, id, chat int64, text string) []byte {
	buf = append(buf, `{"update_id":`...)
	buf = strconv.AppendInt(buf, id, 10)
	buf = append(buf, `,"message":{"message_id":`...)
	buf = strconv.AppendInt(buf, id, 10)
	buf = append(buf, `,"chat":{"id":`...)
	buf = strconv.AppendInt(buf, chat, 10)
	buf = append(buf, `,"type":"private"},"date":1795255200,"text":`...)
	buf = strconv.AppendQuote(buf, text)
	return append(buf, "}}"...)
}

var loadHeaders = map[string]string{"content-type": "application/json", "x-telegram-bot-api-secret-token": secret}

// loadRequest returns the API Gateway event of one update.
func loadRequest(buf []byte, id, chat int64, text string) (events.APIGatewayV2HTTPRequest, []byte) {
	buf = updateBody(buf[:0], id, chat, text)
	req := events.APIGatewayV2HTTPRequest{Body: string(buf), Headers: loadHeaders}
	req.RequestContext.HTTP.Method = http.MethodPost
	return req, buf
}

// BenchmarkWebhookLoad measures one partner message through the webhook
// handler under load: loadChats chats, each with its own context and a long
// dialogue (the store keeps its newest convai.Window turns), messages from
// GOMAXPROCS goroutines at once, each goroutine taking its own share of the
// chats in turn. The path is the whole in-process one: API Gateway event →
// handler → engine → memstore → a Sender that only counts. Every chat is
// started, and past its first convai.Window messages, before the timer; the
// chats never reach their turn limit, so that every timed message is a
// partner message answered with exactly one send.
// Besides ns/op (wall time over the goroutines), it reports cpu-ns/op: the
// CPU one message costs. Run with -cpu 1,2 to see both.
func BenchmarkWebhookLoad(b *testing.B) {
	b.Run("brain=offline", func(b *testing.B) {
		br := offline.New()
		benchmarkLoad(b, br, br)
	})
	b.Run("brain=trivial", func(b *testing.B) {
		t := trivial{n: new(atomic.Int64)}
		benchmarkLoad(b, t, t)
	})
	b.Run("bare", benchmarkBare)
}

func benchmarkLoad(b *testing.B, r brain.Replier, ev brain.Evaluator) {
	out := &counter{}
	engine := &convai.Engine{
		Store: memstore.New(memstore.WithTTL(time.Hour)), Sender: out, Replier: r, Evaluator: ev,
		MaxTurns: 1 << 30, Log: slog.New(slog.DiscardHandler),
	}
	h := httpapi.NewTelegram(engine, secret, slog.New(slog.DiscardHandler))
	ctx := context.Background()
	var ids atomic.Int64
	var buf []byte
	var req events.APIGatewayV2HTTPRequest
	for i, c := range loadContexts(loadChats) {
		req, buf = loadRequest(buf, ids.Add(1), int64(i+1), "/start "+c)
		if resp, _ := h.Handle(ctx, req); resp.StatusCode != http.StatusOK {
			b.Fatalf("/start: %d %s", resp.StatusCode, resp.Body)
		}
	}
	// Each chat is a long dialogue before the timer starts: past its first
	// convai.Window messages, which grow what the store keeps of it, so that
	// a timed message costs what one in a long chat does however many are
	// timed.
	for k := range convai.Window + 1 {
		for i := range loadChats {
			req, buf = loadRequest(buf, ids.Add(1), int64(i+1), loadLine(i, k))
			if resp, _ := h.Handle(ctx, req); resp.StatusCode != http.StatusOK {
				b.Fatalf("message before the timer: %d %s", resp.StatusCode, resp.Body)
			}
		}
	}
	out.n.Store(0)
	drive(b, &ids, h.Handle)
	if got := out.n.Load(); got != int64(b.N) {
		b.Fatalf("sent %d replies for %d partner messages, want one each", got, b.N)
	}
}

// drive times b.N partner messages to handle from GOMAXPROCS goroutines,
// each taking its share of the loadChats chats in turn, and reports the
// CPU they cost.
func drive(b *testing.B, ids *atomic.Int64, handle apigw.Handler) {
	workers := runtime.GOMAXPROCS(0)
	var worker atomic.Int64
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	cpu := benchcpu.Start()
	b.RunParallel(func(pb *testing.PB) {
		w := int(worker.Add(1) - 1)
		var buf []byte
		var req events.APIGatewayV2HTTPRequest
		// This goroutine's chats are those ≡ w (mod workers), so that no
		// two goroutines write to one chat at once.
		chat, turn := w%loadChats, convai.Window+1
		for pb.Next() {
			req, buf = loadRequest(buf, ids.Add(1), int64(chat+1), loadLine(chat, turn))
			if resp, _ := handle(ctx, req); resp.StatusCode != http.StatusOK {
				b.Errorf("message: %d %s", resp.StatusCode, resp.Body)
				return
			}
			if chat += workers; chat >= loadChats {
				chat, turn = w%loadChats, turn+1
			}
		}
	})
	b.StopTimer()
	cpu.Report(b, b.N)
}

// benchmarkBare is the bare limit of the same path: a handler that only
// decodes the update and hands one fixed reply to the same Sender.
func benchmarkBare(b *testing.B) {
	out := &counter{}
	reply := convai.EncodeReply("That sounds fun. What else do you like?", 7)
	handle := func(ctx context.Context, req events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
		body, err := apigw.Body(req)
		if err != nil {
			return apigw.Error(ctx, slog.New(slog.DiscardHandler), err), nil
		}
		if u, err := telegram.ParseUpdate(body); err == nil {
			_ = out.Send(ctx, u.Message.Chat.ID, reply)
		}
		return apigw.RawJSON(http.StatusOK, `{"ok":true}`), nil
	}
	var ids atomic.Int64
	drive(b, &ids, handle)
	if got := out.n.Load(); got != int64(b.N) {
		b.Fatalf("sent %d replies for %d messages, want one each", got, b.N)
	}
}
