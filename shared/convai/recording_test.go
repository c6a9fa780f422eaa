package convai

import (
	"context"
	"testing"
	"time"
)

// TestRecording: the context a sender records in has at least cleanupTime
// left and ends at most cleanupTime after the sender's deadline, whatever
// is left of the sender's own context, and outlives its cancellation.
func TestRecording(t *testing.T) {
	for _, left := range []time.Duration{time.Minute, 2 * cleanupTime, cleanupTime / 2, -time.Second} {
		deadline := time.Now().Add(left)
		ctx, cancel := context.WithDeadline(context.Background(), deadline)
		rctx, rcancel := recording(ctx)
		got, ok := rctx.Deadline()
		if !ok {
			t.Fatalf("%v left: the recording context has no deadline", left)
		}
		if time.Until(got) < cleanupTime-100*time.Millisecond {
			t.Errorf("%v left: the recording context has %v left, want at least %v", left, time.Until(got), cleanupTime)
		}
		if latest := deadline.Add(cleanupTime); left > 0 && got.After(latest) {
			t.Errorf("%v left: the recording context ends at %v, after the deadline + cleanupTime %v", left, got, latest)
		}
		if left >= cleanupTime && rctx != ctx {
			t.Errorf("%v left: a new context, want the sender's own", left)
		}
		if left < cleanupTime {
			cancel() // the sender's caller hangs up: the recording goes on
			if rctx.Err() != nil {
				t.Errorf("%v left: the recording context ended with the sender's: %v", left, rctx.Err())
			}
		}
		rcancel()
		cancel()
	}
}
