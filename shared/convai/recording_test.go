package convai

import (
	"context"
	"testing"
	"time"
)

// TestRecording: the context a sender records in ends cleanupTime after
// the sender's deadline (or after now, when that has passed), so a slow
// commit gets all of it, and it outlives the sender's cancellation.
func TestRecording(t *testing.T) {
	for _, left := range []time.Duration{time.Minute, 2 * cleanupTime, cleanupTime / 2, -time.Second} {
		deadline := time.Now().Add(left)
		ctx, cancel := context.WithDeadline(context.Background(), deadline)
		rctx, rcancel := recording(ctx)
		got, ok := rctx.Deadline()
		if !ok {
			t.Fatalf("%v left: the recording context has no deadline", left)
		}
		want := deadline.Add(cleanupTime)
		if left < 0 {
			want = time.Now().Add(cleanupTime)
		}
		if d := got.Sub(want); d < -100*time.Millisecond || d > 100*time.Millisecond {
			t.Errorf("%v left: the recording context ends at %v, want %v", left, got, want)
		}
		cancel() // the sender's caller hangs up: the recording goes on
		if rctx.Err() != nil {
			t.Errorf("%v left: the recording context ended with the sender's: %v", left, rctx.Err())
		}
		rcancel()
	}
}
