package annex

import (
	"context"
	"testing"

	"github.com/duetbot/duet/shared/metrics"
)

// TestEngineMetrics: each answered request counts once in AnnexRequests
// with its latency; a refused one counts in neither.
func TestEngineMetrics(t *testing.T) {
	p, err := NewPersona(context.Background(), PersonaData{Name: "Ada"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tally := &metrics.Tally{}
	e, err := NewEngine(p, &recorder{}, WithMetrics(tally))
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"hi there", "what are you working on?", " "} {
		_, _ = e.Answer(context.Background(), Request{Message: Message{From: "U2", Text: text}})
	}
	if got := tally.Sum(metrics.AnnexRequests); got != 2 {
		t.Errorf("AnnexRequests = %v, want 2 (the empty message is refused)", got)
	}
	if got := tally.Sum(metrics.AnnexLatency); got <= 0 {
		t.Errorf("AnnexLatency = %v ms, want the two answers' time", got)
	}
}
