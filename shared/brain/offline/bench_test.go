package offline

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/duetbot/duet/shared/brain"
)

func BenchmarkReply(b *testing.B) {
	req := chat(b, wasp, onTopic, "ok", offTopic)
	br := New()
	ctx := context.Background()
	for b.Loop() {
		if _, err := br.Reply(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRate(b *testing.B) {
	req := chat(b, wasp, onTopic, "ok", offTopic)
	br := New()
	ctx := context.Background()
	for b.Loop() {
		if _, err := br.Rate(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFinal(b *testing.B) {
	msgs := make([]string, 20)
	for i := range msgs {
		msgs[i] = []string{onTopic, "ok", offTopic, "What would you do?"}[i%4]
	}
	req := chat(b, wasp, msgs...)
	br := New()
	ctx := context.Background()
	for b.Loop() {
		if _, err := br.Final(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReplyLongContext is the worst case: a context at the engine's
// 8192-character limit.
func BenchmarkReplyLongContext(b *testing.B) {
	long := strings.Repeat("You're sitting watching TV, and suddenly you discover a wasp crawling on your wrist. ", 8192/85)
	req := chat(b, long, onTopic, "ok", offTopic)
	br := New()
	ctx := context.Background()
	for b.Loop() {
		if _, err := br.Reply(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

// devRequests builds the bot's requests of n chats: chat i plays profile i
// of the ConvAI2 releases (so n distinct contexts, when there are n) against
// the human's real messages of dev-set dialogue i, one request per partner
// message, with the bot's replies so far in the turns.
func devRequests(b *testing.B, n, maxTurns int) []brain.Request {
	b.Helper()
	profiles := allProfiles(b)
	dev := devDialogues(b)
	br := New()
	var reqs []brain.Request
	for i := range n {
		msgs := dev[i%len(dev)].partnerMessages()
		msgs = msgs[:min(len(msgs), maxTurns)]
		// Past the releases' distinct profiles, rotate their sentences.
		p := strings.Split(profiles[i%len(profiles)], "\n")
		r := (i / len(profiles)) % len(p)
		req := brain.Request{Context: strings.Join(append(p[r:], p[:r]...), "\n")}
		for _, m := range msgs {
			req.Turns = append(req.Turns, brain.Turn{Role: brain.Partner, Text: m})
			reqs = append(reqs, req)
			got, err := br.Reply(context.Background(), req)
			if err != nil {
				b.Fatal(err)
			}
			req.Turns = append(slices.Clip(req.Turns), brain.Turn{Role: brain.Bot, Text: got})
		}
	}
	return reqs
}

// maxTurns caps the partner messages of a benchmark chat: 1000 keeps every
// dev dialogue whole (one has 1,000 messages and dominates the cost, each
// reply reading the whole chat), 30 models typical ConvAI2 chats (the
// median dev dialogue has 10 messages).
var maxTurns = 30

func init() {
	if s := os.Getenv("BENCH_MAX_TURNS"); s != "" {
		if n, err := strconv.Atoi(s); err == nil {
			maxTurns = n
		}
	}
}

// BenchmarkReplyDev replies to every partner message of the dev set's
// dialogues, in the order of a busy server: the chats' first messages,
// then their second ones, and so on. With contexts=1 every chat plays the
// same profile; with contexts=1000 each plays its own, and each context is
// analysed once, when the chat starts, as at the router's /start. Each
// iteration replies to every message once; ns/msg is the cost per partner
// message.
func BenchmarkReplyDev(b *testing.B) {
	for _, n := range []int{1, 1000} {
		b.Run(fmt.Sprintf("contexts=%d", n), func(b *testing.B) {
			reqs := devRequests(b, 1200, maxTurns)
			if n == 1 {
				for i := range reqs {
					reqs[i].Context = reqs[0].Context
				}
			}
			slices.SortStableFunc(reqs, func(x, y brain.Request) int { return len(x.Turns) - len(y.Turns) })
			br := New()
			ctx := context.Background()
			for _, r := range reqs { // the /start of every chat
				br.contexts.get(r.Context)
			}
			if got := br.contexts.len(); got < n {
				b.Fatalf("%d contexts cached, want %d", got, n)
			}
			for b.Loop() {
				for _, r := range reqs {
					if _, err := br.Reply(ctx, r); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(reqs)), "ns/msg")
		})
	}
}

// BenchmarkChatStart analyses each dev-set dialogue's profile, as the
// first message of a chat does in a process that has not seen it (a new
// Lambda container, a context the cache let go): ns/op is the cost of
// one chat's start, on top of its first reply.
func BenchmarkChatStart(b *testing.B) {
	var profiles []string
	for _, r := range devRequests(b, 1200, 1) {
		if !slices.Contains(profiles, r.Context) {
			profiles = append(profiles, r.Context)
		}
	}
	i := 0
	for b.Loop() {
		newAnalysedContext(profiles[i%len(profiles)])
		i++
	}
}

// BenchmarkRateDev rates every partner message of the dev set's dialogues
// (the same requests as BenchmarkReplyDev, each chat its own profile), as
// the engine asks for each message before the reply; ns/msg is the cost
// per partner message. BenchmarkFinalDev gives each chat's final.
func BenchmarkRateDev(b *testing.B) {
	reqs := devRequests(b, 1200, maxTurns)
	slices.SortStableFunc(reqs, func(x, y brain.Request) int { return len(x.Turns) - len(y.Turns) })
	br := New()
	ctx := context.Background()
	for _, r := range reqs {
		br.contexts.get(r.Context)
	}
	for b.Loop() {
		for _, r := range reqs {
			if _, err := br.Rate(ctx, r); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(reqs)), "ns/msg")
}

func BenchmarkFinalDev(b *testing.B) {
	reqs := devRequests(b, 1200, maxTurns)
	br := New()
	ctx := context.Background()
	judge := &brain.Judge{Min: 1, Max: 5, Profiles: [][]string{{"i like to ride horses.", "i help tend the fields."}, {"i am a nurse.", "i work nights."}}}
	for i := range reqs {
		reqs[i].Judge = judge
		br.contexts.get(reqs[i].Context)
	}
	for b.Loop() {
		for _, r := range reqs {
			if _, err := br.Final(ctx, r); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(reqs)), "ns/chat")
}
