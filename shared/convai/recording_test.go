package convai

import (
	"context"
	"testing"
	"time"
)

func TestRecordingContext(t *testing.T) {
	base := context.Background()
	tests := []struct {
		name string
		left time.Duration // the budget's time left; 0: no deadline
		// want is the recording context's least time left, and whether it
		// is the budget itself.
		wantAtLeast time.Duration
		wantSame    bool
	}{
		{name: "plenty of budget left: the budget itself", left: 10 * time.Second, wantAtLeast: 9 * time.Second, wantSame: true},
		{name: "under cleanupTime left: deadline plus cleanupTime", left: cleanupTime / 2, wantAtLeast: cleanupTime},
		{name: "deadline passed: cleanupTime from now", left: -time.Second, wantAtLeast: cleanupTime / 2},
		{name: "no deadline: cleanupTime from now", wantAtLeast: cleanupTime / 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := base
			if tt.left != 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithDeadline(base, time.Now().Add(tt.left))
				defer cancel()
			}
			rctx, cancel := recording(ctx)
			defer cancel()
			if same := rctx == ctx; same != tt.wantSame {
				t.Errorf("the budget itself: %v, want %v", same, tt.wantSame)
			}
			d, ok := rctx.Deadline()
			if !ok {
				t.Fatal("recording context has no deadline")
			}
			if left := time.Until(d); left < tt.wantAtLeast || left > tt.left+cleanupTime && tt.left > 0 {
				t.Errorf("got %s left, want at least %s", left, tt.wantAtLeast)
			}
			if rctx.Err() != nil {
				t.Errorf("recording context is done: %v", rctx.Err())
			}
		})
	}
}
