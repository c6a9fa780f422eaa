package poller

import (
	"context"
	"encoding/json"
	"log/slog"
	"math"
	"sync"
	"testing"
	"time"

	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/telegram"
)

// oneBatch answers one getUpdates with updates; at the next call it
// records the offset, waits (a while at most) until the engine has
// handled what it should, and ends the run.
type oneBatch struct {
	updates []telegram.Update
	handled <-chan struct{}
	cancel  context.CancelFunc
	calls   int
	offset  int64
}

func (s *oneBatch) GetUpdates(ctx context.Context, offset int64, _ time.Duration) ([]telegram.Update, error) {
	s.calls++
	if s.calls == 1 {
		return s.updates, nil
	}
	s.offset = offset
	select {
	case <-s.handled:
	case <-time.After(5 * time.Second):
	}
	s.cancel()
	return nil, ctx.Err()
}

// handled records the updates the engine is given, and closes done once
// it has been given want of them.
type handled struct {
	mu   sync.Mutex
	got  map[int64][]convai.Update
	n    int
	want int
	done chan struct{}
}

func (e *handled) Handle(_ context.Context, u convai.Update) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.got[u.ChatID] = append(e.got[u.ChatID], u)
	if e.n++; e.n == e.want {
		close(e.done)
	}
	return nil
}

func (e *handled) Deliver(context.Context, int64) error { return nil }

// FuzzPoller feeds the poller an arbitrary getUpdates result (decoded as
// the client decodes it). Properties: the engine gets exactly the updates
// the webhook's telegram.ParseUpdate would accept — never one without a
// message or a chat — each chat's in order; the next offset acknowledges
// every non-zero update_id.
func FuzzPoller(f *testing.F) {
	for _, s := range []string{
		`[{"update_id":1,"message":{"chat":{"id":7},"text":"/start x"}},{"update_id":2,"message":{"chat":{"id":7},"text":"hi"}}]`,
		`[{"update_id":0,"message":{"chat":{"id":-5},"text":"a"}},{"update_id":0,"message":{"chat":{"id":-5},"text":"b"}}]`,
		`[{"update_id":3,"edited_message":{"chat":{"id":1}}},{"update_id":4,"message":{"text":"no chat"}}]`,
		`[{"update_id":5,"message":{"chat":{"id":0},"text":"chat 0"}}]`,
		`[{"update_id":-9,"message":{"chat":{"id":1}}},{"update_id":9223372036854775806}]`,
		`[]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var updates []telegram.Update
		if json.Unmarshal(body, &updates) != nil {
			return
		}
		want := map[int64][]convai.Update{}
		var offset int64
		n := 0
		for _, u := range updates {
			switch {
			case u.UpdateID == math.MaxInt64:
				offset = math.MaxInt64 // no offset acknowledges it: the poller stays there and skips its repeats
			case u.UpdateID != 0:
				offset = max(offset, u.UpdateID+1)
			}
			raw, err := json.Marshal(u)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := telegram.ParseUpdate(raw); err != nil {
				continue
			}
			want[u.Message.Chat.ID] = append(want[u.Message.Chat.ID], convai.Update{UpdateID: u.UpdateID, ChatID: u.Message.Chat.ID, Text: u.Message.Text})
			n++
		}

		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		eng := &handled{got: map[int64][]convai.Update{}, want: n, done: make(chan struct{})}
		if n == 0 {
			close(eng.done)
		}
		src := &oneBatch{updates: updates, handled: eng.done, cancel: cancel}
		p := &Poller{Source: src, Engine: eng, Workers: 3, Timeout: time.Second, MinInterval: time.Nanosecond, Log: slog.New(slog.DiscardHandler)}
		_ = p.Run(ctx)
		if len(eng.got) != len(want) {
			t.Fatalf("engine got chats %v, want %v", eng.got, want)
		}
		for chat, us := range want {
			got := eng.got[chat]
			if len(got) != len(us) {
				t.Fatalf("chat %d: engine got %+v, want %+v", chat, got, us)
			}
			for i := range us {
				if got[i] != us[i] {
					t.Fatalf("chat %d: engine got %+v, want %+v", chat, got, us)
				}
			}
		}
		if src.calls > 1 && src.offset != offset {
			t.Fatalf("next offset %d, want %d", src.offset, offset)
		}
	})
}
