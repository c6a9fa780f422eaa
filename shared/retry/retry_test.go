package retry

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"
)

var now = time.Date(2026, 11, 23, 4, 0, 0, 0, time.UTC)

func TestAfter(t *testing.T) {
	tests := []struct {
		name   string
		header map[string]string
		want   time.Duration
		wantOK bool
	}{
		{"none", nil, 0, false},
		{"seconds", map[string]string{"Retry-After": "3"}, 3 * time.Second, true},
		{"seconds with spaces", map[string]string{"Retry-After": " 7 "}, 7 * time.Second, true},
		{"zero seconds", map[string]string{"Retry-After": "0"}, 0, true},
		{"fractional seconds", map[string]string{"Retry-After": "1.25"}, 1250 * time.Millisecond, true},
		{"HTTP date", map[string]string{"Retry-After": now.Add(90 * time.Second).Format(http.TimeFormat)}, 90 * time.Second, true},
		{"HTTP date in the past", map[string]string{"Retry-After": now.Add(-time.Hour).Format(http.TimeFormat)}, 0, true},
		{"RFC 850 date", map[string]string{"Retry-After": "Monday, 23-Nov-26 04:00:05 GMT"}, 5 * time.Second, true},
		{"retry-after-ms wins", map[string]string{"Retry-After": "20", "Retry-After-Ms": "19999"}, 19999 * time.Millisecond, true},
		{"fractional ms", map[string]string{"retry-after-ms": "0.5"}, 500 * time.Microsecond, true},
		{"bad ms falls back", map[string]string{"Retry-After": "2", "Retry-After-Ms": "soon"}, 2 * time.Second, true},
		{"negative", map[string]string{"Retry-After": "-5"}, 0, false},
		{"sign", map[string]string{"Retry-After": "+5"}, 0, false},
		{"exponent", map[string]string{"Retry-After": "1e3"}, 0, false},
		{"hex float", map[string]string{"Retry-After": "0x1p4"}, 0, false},
		{"infinity", map[string]string{"Retry-After": "Inf"}, 0, false},
		{"NaN", map[string]string{"Retry-After": "NaN"}, 0, false},
		{"dot only", map[string]string{"Retry-After": "."}, 0, false},
		{"trailing dot", map[string]string{"Retry-After": "3."}, 0, false},
		{"words", map[string]string{"Retry-After": "in a minute"}, 0, false},
		{"huge saturates", map[string]string{"Retry-After": "99999999999999999999999"}, Forever, true},
		{"huge ms saturates", map[string]string{"Retry-After-Ms": "9223372036854775807"}, Forever, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			for k, v := range tt.header {
				h.Set(k, v)
			}
			got, ok := After(h, now)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("got %v, %v, want %v, %v", got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

func TestCheck(t *testing.T) {
	bg := context.Background()
	soon, cancel := context.WithTimeout(bg, 5*time.Second)
	defer cancel()
	tests := []struct {
		name  string
		ctx   context.Context
		d     time.Duration
		limit time.Duration
		ok    bool
	}{
		{"within the limit, no deadline", bg, 3 * time.Second, 30 * time.Second, true},
		{"at the limit", bg, 30 * time.Second, 30 * time.Second, true},
		{"over the limit", bg, time.Hour, 30 * time.Second, false},
		{"no limit", bg, time.Hour, 0, true},
		{"before the deadline", soon, time.Second, 30 * time.Second, true},
		{"past the deadline", soon, 10 * time.Second, 30 * time.Second, false},
		{"past the deadline, no limit", soon, 10 * time.Second, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Check(tt.ctx, tt.d, tt.limit)
			if (err == nil) != tt.ok {
				t.Fatalf("got %v, want ok %v", err, tt.ok)
			}
			if err != nil && !errors.Is(err, ErrWaitTooLong) {
				t.Errorf("got %v, want it to wrap ErrWaitTooLong", err)
			}
		})
	}
}

func TestBackoff(t *testing.T) {
	b := Backoff{Base: 100 * time.Millisecond, Max: time.Second}
	for n, want := range []time.Duration{100, 200, 400, 800, 1000, 1000, 1000} {
		want *= time.Millisecond
		for range 50 {
			if got := b.Delay(n + 1); got < want/2 || got > want {
				t.Fatalf("retry %d: got %v, want within [%v, %v]", n+1, got, want/2, want)
			}
		}
	}
	if got := (Backoff{}).Delay(3); got != 0 {
		t.Errorf("zero Backoff: got %v, want 0", got)
	}
	if got := (Backoff{Base: time.Second}).Delay(200); got < Forever/4 {
		t.Errorf("uncapped retry 200: got %v, want a saturated wait, not an overflow", got)
	}
	// The jitter spreads retries: 50 waits are not all the same.
	seen := map[time.Duration]bool{}
	for range 50 {
		seen[b.Delay(3)] = true
	}
	if len(seen) < 2 {
		t.Errorf("got %d distinct waits of 50, want jitter", len(seen))
	}
}

func TestSleep(t *testing.T) {
	if err := Sleep(context.Background(), time.Millisecond); err != nil {
		t.Fatalf("got %v, want nil", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Sleep(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: got %v, want context.Canceled", err)
	}
	if err := Sleep(ctx, 0); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled, no wait: got %v, want context.Canceled", err)
	}
	if err := Sleep(context.Background(), -time.Second); err != nil {
		t.Fatalf("negative wait: got %v, want nil", err)
	}
}
