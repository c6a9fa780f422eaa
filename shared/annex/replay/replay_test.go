package replay

import (
	"context"
	"errors"
	"math"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/duetbot/duet/shared/annex"
	"github.com/duetbot/duet/shared/embed"
	"github.com/duetbot/duet/shared/store/memstore"
)

// readTranscript reads a transcript of shared/annex/testdata.
func readTranscript(t testing.TB, name string) annex.Transcript {
	t.Helper()
	tr, err := annex.ReadTranscript(filepath.Join("..", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func readAda(t testing.TB) annex.Transcript { return readTranscript(t, "ada.json") }

// TestCasesMemoryLinear: the cases of a long transcript share its
// messages instead of copying every earlier one for each turn; 4,000
// messages once took some 800 MB, and 20,000 more than 20 GB.
func TestCasesMemoryLinear(t *testing.T) {
	const n = 4000
	tr := annex.Transcript{Person: "P", Users: []annex.User{{ID: "P", Username: "p"}, {ID: "A", Username: "a"}}}
	for i := range n {
		from := "A"
		if i%2 == 1 {
			from = "P"
		}
		tr.Messages = append(tr.Messages, annex.Message{From: from, ID: strconv.Itoa(i), Text: "message " + strconv.Itoa(i), Timestamp: "2020-01-01T00:00:00Z"})
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	cases, err := Cases(tr)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if len(cases) != n/2 {
		t.Fatalf("got %d cases, want %d", len(cases), n/2)
	}
	last := cases[len(cases)-1].Request
	if len(last.Context) != n-2 || len(last.Conversation[0].Messages) != n-2 {
		t.Fatalf("last case: %d context messages and %d in the conversation, want %d each", len(last.Context), len(last.Conversation[0].Messages), n-2)
	}
	// A message is about 100 bytes; 1 KiB each leaves room for the cases.
	if grew, limit := int64(after.HeapAlloc)-int64(before.HeapAlloc), int64(n)<<10; grew > limit {
		t.Errorf("the cases of %d messages hold %d bytes, want at most %d (linear in the transcript)", n, grew, limit)
	}
	// A caller appending to one case's context does not change another's.
	first := cases[1].Request
	want := last.Context[len(first.Context)].Text
	_ = append(first.Context, annex.Message{Text: "appended"})
	if last.Context[len(first.Context)].Text != want {
		t.Error("appending to a case's context wrote into the next case's")
	}
	runtime.KeepAlive(cases)
}

func TestCasesGrowPrefixes(t *testing.T) {
	tr := annex.Transcript{Person: "P", Messages: []annex.Message{
		{From: "A", ID: "1", Text: "q1"},
		{From: "P", ID: "2", Text: "a1"},
		{From: "B", ID: "3", Text: "aside"},
		{From: "A", ID: "4", Text: "q2"},
		{From: "P", ID: "5", Text: "a2"},
		{From: "P", ID: "6", Text: "a2 continued"},
	}}
	cases, err := Cases(tr)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 2 {
		t.Fatalf("cases: got %d, want 2", len(cases))
	}
	first, second := cases[0].Request, cases[1].Request
	if first.Message.Text != "q1" || len(first.Context) != 0 || len(first.Conversation) != 0 {
		t.Errorf("first case: got %+v, want q1 alone", first)
	}
	if second.Message.Text != "q2" {
		t.Errorf("second message: got %q, want q2", second.Message.Text)
	}
	var ctx []string
	for _, m := range second.Context {
		ctx = append(ctx, m.From+":"+m.Text)
	}
	if got, want := strings.Join(ctx, " "), "A:q1 BOT:a1 B:aside"; got != want {
		t.Errorf("second context: got %q, want %q", got, want)
	}
	if len(second.Conversation) != 1 || len(second.Conversation[0].Messages) != 2 ||
		second.Conversation[0].Messages[1].From != annex.BotFrom || second.Conversation[0].Messages[1].Text != "a1" {
		t.Errorf("second conversation: got %+v, want q1 and the bot's a1", second.Conversation)
	}
	if cases[1].Turn.Answer.Text != "a2" {
		t.Errorf("second original: got %q, want a2", cases[1].Turn.Answer.Text)
	}
}

func TestNoScorableTurn(t *testing.T) {
	tr := annex.Transcript{Person: "P", Messages: []annex.Message{{From: "P", Text: "monologue"}, {From: "P", Text: "still me"}}}
	_, err := Run(context.Background(), tr, []Candidate{{Name: "echo", Bot: Echo}}, Options{})
	if !errors.Is(err, ErrNoTurns) {
		t.Fatalf("Run: got %v, want ErrNoTurns", err)
	}
}

func TestFailuresStayPerTurn(t *testing.T) {
	tr := readAda(t)
	calls := 0
	flaky := BotFunc(func(_ context.Context, req annex.Request) (string, error) {
		calls++
		if strings.Contains(req.Message.Text, "Kubernetes") {
			return "", errors.New("endpoint answered 502 Bad Gateway")
		}
		return "Postgres, boring tech wins", nil
	})
	res, err := Run(context.Background(), tr, []Candidate{{Name: "flaky", Bot: flaky}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := res.Summaries[0]
	if s.Failed != 2 || s.Scored != len(tr.Turns())-2 {
		t.Errorf("summary: got scored %d failed %d, want %d and 2", s.Scored, s.Failed, len(tr.Turns())-2)
	}
	if len(res.Unscored()) != 0 {
		t.Errorf("Unscored: got %v, want none", res.Unscored())
	}
	down := BotFunc(func(context.Context, annex.Request) (string, error) { return "", errors.New("timeout") })
	res, err = Run(context.Background(), tr, []Candidate{{Name: "down", Bot: down}}, Options{Concurrency: 3})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Unscored(); len(got) != 1 || got[0] != "down" {
		t.Errorf("Unscored: got %v, want [down]", got)
	}
}

// fixed embeds the texts it knows with given vectors.
type fixed map[string][]float32

func (f fixed) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v, ok := f[t]
		if !ok {
			return nil, errors.New("unknown text " + t)
		}
		out[i] = v
	}
	return out, nil
}

// TestCompatEmeval reproduces the original scorer on a worked example.
// Embedded texts are question + " " + answer. With the original's vector
// o = (1, 0) and the candidates' a = (1, 0), b = (0.6, 0.8), c = (0, 1):
// cosines 1, 0.6, 0; points round((s - 0) / (1 - 0) * 100) = 100, 60, 0;
// a wins, c loses. A lone candidate gets 0 points.
func TestCompatEmeval(t *testing.T) {
	tr := annex.Transcript{Person: "P", Messages: []annex.Message{{From: "Q", Text: "Why?"}, {From: "P", Text: "Because."}}}
	emb := fixed{
		"Why? Because.": {1, 0},
		"Why? A":        {1, 0},
		"Why? B":        {0.6, 0.8},
		"Why? C":        {0, 1},
	}
	say := func(s string) Bot {
		return BotFunc(func(context.Context, annex.Request) (string, error) { return s, nil })
	}
	res, err := Run(context.Background(), tr, []Candidate{{Name: "a", Bot: say("A")}, {Name: "b", Bot: say("B")}, {Name: "c", Bot: say("C")}}, Options{Embedder: emb, Compat: CompatEmeval})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		sim           float64
		points        int
		winner, loser bool
	}{{1, 100, true, false}, {0.6, 60, false, false}, {0, 0, false, true}}
	for i, w := range want {
		r := res.Turns[0].Replies[i]
		if math.Abs(r.Similarity-w.sim) > 1e-6 || r.Points != w.points || r.Winner != w.winner || r.Loser != w.loser {
			t.Errorf("%s: got sim %.4f points %d winner %v loser %v, want %.4f %d %v %v",
				r.Candidate, r.Similarity, r.Points, r.Winner, r.Loser, w.sim, w.points, w.winner, w.loser)
		}
	}
	res, err = Run(context.Background(), tr, []Candidate{{Name: "b", Bot: say("B")}}, Options{Embedder: emb, Compat: CompatEmeval})
	if err != nil {
		t.Fatal(err)
	}
	if r := res.Turns[0].Replies[0]; r.Points != 0 || math.Abs(r.Similarity-0.6) > 1e-6 || r.Winner || r.Loser {
		t.Errorf("lone candidate: got sim %.4f points %d winner %v loser %v, want 0.6, 0, neither winner nor loser", r.Similarity, r.Points, r.Winner, r.Loser)
	}
	res, err = Run(context.Background(), tr, []Candidate{{Name: "b", Bot: say("B")}, {Name: "b2", Bot: say("B")}}, Options{Embedder: emb, Compat: CompatEmeval})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Turns[0].Replies {
		if r.Points != 0 || r.Winner || r.Loser {
			t.Errorf("tie, %s: got points %d winner %v loser %v, want 0, neither winner nor loser", r.Candidate, r.Points, r.Winner, r.Loser)
		}
	}
	if s := res.Summaries[0]; s.Wins != 0 {
		t.Errorf("tie: got %d wins, want 0", s.Wins)
	}
}

// TestMeanPointsCountFailures checks a failed turn counts 0 points: a bot
// that wins one turn of two and fails the other has mean points 50, not 100.
func TestMeanPointsCountFailures(t *testing.T) {
	tr := annex.Transcript{Person: "P", Messages: []annex.Message{
		{From: "Q", Text: "Why?"}, {From: "P", Text: "Because."},
		{From: "Q", Text: "How?"}, {From: "P", Text: "Carefully."},
	}}
	emb := fixed{
		"Why? Because.": {1, 0}, "Why? A": {1, 0}, "Why? C": {0, 1},
		"How? Carefully.": {1, 0}, "How? C": {0, 1},
	}
	flaky := BotFunc(func(_ context.Context, req annex.Request) (string, error) {
		if req.Message.Text == "How?" {
			return "", errors.New("timeout")
		}
		return "A", nil
	})
	always := BotFunc(func(context.Context, annex.Request) (string, error) { return "C", nil })
	res, err := Run(context.Background(), tr, []Candidate{{Name: "flaky", Bot: flaky}, {Name: "c", Bot: always}}, Options{Embedder: emb, Compat: CompatEmeval})
	if err != nil {
		t.Fatal(err)
	}
	if s := res.Summaries[0]; s.Scored != 1 || s.Failed != 1 || s.Points != 50 || s.Wins != 1 {
		t.Errorf("flaky: got scored %d failed %d points %.1f wins %d, want 1, 1, 50.0, 1", s.Scored, s.Failed, s.Points, s.Wins)
	}
	if s := res.Summaries[1]; s.Points != 0 || s.Wins != 0 {
		t.Errorf("c: got points %.1f wins %d, want 0 and 0 (a lone reply in turn 2 neither wins nor scores)", s.Points, s.Wins)
	}
}

// countingEmbedder records each batch it is asked to embed, safely across
// goroutines, and embeds lexically.
type countingEmbedder struct {
	mu      sync.Mutex
	batches [][]string
	texts   map[string]int
}

func (c *countingEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	c.mu.Lock()
	c.batches = append(c.batches, append([]string(nil), texts...))
	if c.texts == nil {
		c.texts = map[string]int{}
	}
	for _, t := range texts {
		c.texts[t]++
	}
	c.mu.Unlock()
	return embed.Lexical{}.Embed(ctx, texts)
}

// TestOriginalsEmbeddedOnceInOneBatch checks that, whatever the number of
// candidates and requests in flight, every original is embedded once, all
// of them in the run's first call, and no text is embedded twice.
func TestOriginalsEmbeddedOnceInOneBatch(t *testing.T) {
	tr := readAda(t)
	for _, mode := range []string{"", CompatEmeval} {
		t.Run("compat="+mode, func(t *testing.T) {
			next := &countingEmbedder{}
			cache := embed.NewCache(next, 256)
			same := BotFunc(func(context.Context, annex.Request) (string, error) { return "Postgres, boring tech wins", nil })
			cands := []Candidate{{Name: "a", Bot: same}, {Name: "b", Bot: same}, {Name: "echo", Bot: Echo}}
			res, err := Run(context.Background(), tr, cands, Options{Embedder: cache, Compat: mode, Concurrency: 8})
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]bool{}
			for _, turn := range res.Turns {
				o := turn.Original
				if mode == CompatEmeval {
					o = turn.Question + " " + o
				}
				want[o] = true
			}
			first := map[string]bool{}
			for _, text := range next.batches[0] {
				first[text] = true
			}
			for o := range want {
				if !first[o] {
					t.Errorf("original %q: not in the first batch %q", o, next.batches[0])
				}
			}
			if len(next.batches[0]) != len(want) {
				t.Errorf("first batch: got %d texts, want the %d originals", len(next.batches[0]), len(want))
			}
			for text, n := range next.texts {
				if n != 1 {
					t.Errorf("%q: embedded %d times, want once", text, n)
				}
			}
		})
	}
}

// TestPersonaBeatsEcho trains the persona engine on the first half of the
// sample transcript, replays the whole conversation and compares, on the
// held-out turns of the second half, its mean similarity to the person's
// answers with that of the echo baseline.
func TestPersonaBeatsEcho(t *testing.T) {
	tr := readAda(t)
	split := len(tr.Messages) / 2
	train := annex.Transcript{Person: tr.Person, Users: tr.Users, Messages: tr.Messages[:split]}
	ctx := context.Background()
	persona, err := annex.NewPersona(ctx, annex.PersonaData{Name: "Ada", ID: tr.Person, Username: tr.Username(), Pairs: train.Pairs()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	engine, err := annex.NewEngine(persona, memstore.NewAnnex())
	if err != nil {
		t.Fatal(err)
	}
	bot := BotFunc(func(ctx context.Context, req annex.Request) (string, error) {
		resp, err := engine.Answer(ctx, req)
		return resp.Message, err
	})
	for _, mode := range []string{"", CompatEmeval} {
		t.Run("compat="+mode, func(t *testing.T) {
			res, err := Run(ctx, tr, []Candidate{{Name: "persona", Bot: bot}, {Name: "echo", Bot: Echo}}, Options{Embedder: embed.Lexical{}, Compat: mode, Concurrency: 4})
			if err != nil {
				t.Fatal(err)
			}
			var sums [2]float64
			n := 0
			for _, turn := range res.Turns {
				if turn.Index < split {
					continue
				}
				n++
				for i, r := range turn.Replies {
					if !r.Scored() {
						t.Fatalf("turn %d %s: %s", turn.Turn, r.Candidate, r.Error)
					}
					sums[i] += r.Similarity
				}
				t.Logf("turn %2d  %.3f vs echo %.3f  Q: %s\n            persona: %s", turn.Turn, turn.Replies[0].Similarity, turn.Replies[1].Similarity, turn.Question, turn.Replies[0].Text)
			}
			if n == 0 {
				t.Fatal("no held-out turn")
			}
			persona, echo := sums[0]/float64(n), sums[1]/float64(n)
			t.Logf("held-out turns: %d; mean similarity persona %.3f, echo %.3f", n, persona, echo)
			// Under emeval the question is embedded on both sides, and the
			// echo repeats it: with lexical vectors echo wins there, which
			// is measured and logged, not asserted.
			if mode == "" && persona <= echo {
				t.Errorf("mean similarity on held-out turns: persona %.3f, want more than echo's %.3f", persona, echo)
			}
		})
	}
}
