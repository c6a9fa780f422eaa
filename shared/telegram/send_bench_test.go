package telegram

import (
	"context"
	"testing"
	"time"
)

// BenchmarkSend sends through the pooled client as the chat engine does:
// Send, under a delivery budget (a deadline under the client's own
// request timeout), 8 × GOMAXPROCS senders at once. The fake Bot API runs
// in the same process, so allocs/op include its share.
func BenchmarkSend(b *testing.B) {
	api := newConnCounter(b)
	c := newClient(b, api.srv.URL)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	b.SetParallelism(8)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := c.Send(ctx, 1, `{"text":"That sounds fun. What else do you like?","evaluation":7,"msg_evaluation":7}`); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
