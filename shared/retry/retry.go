package retry

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"
)

// Sleep waits d, or until ctx is done, when it returns ctx's error.
// A d of zero or less returns at once (nil, unless ctx is already done).
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Forever is the longest wait After returns: larger values saturate to it.
const Forever = time.Duration(math.MaxInt64)

// After reads how long a server asks to wait before a retry, from h:
// retry-after-ms (milliseconds, OpenAI's), else Retry-After, in seconds or
// as an HTTP date (RFC 9110, section 10.2.3), counted from now. It reports
// false when neither header holds a usable value. A date in the past is a
// wait of 0; waits beyond Forever saturate to it; no wait is negative.
func After(h http.Header, now time.Time) (time.Duration, bool) {
	if d, ok := parseDecimal(h.Get("Retry-After-Ms"), time.Millisecond); ok {
		return d, true
	}
	return ParseRetryAfter(h.Get("Retry-After"), now)
}

// ParseRetryAfter parses one Retry-After value: a non-negative number of
// seconds (a decimal fraction is accepted, as some servers send one) or an
// HTTP date, counted from now. It reports false for anything else.
func ParseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	if d, ok := parseDecimal(v, time.Second); ok {
		return d, true
	}
	t, err := http.ParseTime(strings.TrimSpace(v))
	if err != nil {
		return 0, false
	}
	if !t.After(now) {
		return 0, true
	}
	// Sub saturates at the extremes of time.Duration.
	return t.Sub(now), true
}

// parseDecimal parses digits, optionally followed by '.' and more digits,
// as that many units; surrounding spaces are allowed, nothing else is.
func parseDecimal(v string, unit time.Duration) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	whole, frac, hasDot := strings.Cut(v, ".")
	if whole == "" || !allDigits(whole) || hasDot && (frac == "" || !allDigits(frac)) {
		return 0, false
	}
	var d time.Duration
	for _, c := range whole {
		n := time.Duration(c - '0')
		if d > (Forever-n*unit)/10 {
			return Forever, true
		}
		d = d*10 + n*unit
	}
	scale := unit
	for _, c := range frac {
		scale /= 10
		if scale == 0 {
			break
		}
		d += time.Duration(c-'0') * scale
		if d < 0 { // overflowed
			return Forever, true
		}
	}
	return d, true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// ErrWaitTooLong is in the chain of Check's errors: the wait is not slept.
var ErrWaitTooLong = errors.New("wait before retrying too long")

// Check applies the cap rule to a wait of d before the next attempt: it
// returns nil when d is at most limit (no limit when limit <= 0) and ends
// before ctx's deadline, if any; otherwise an error wrapping
// ErrWaitTooLong that says why. The caller then does not sleep: it
// returns its last error, which stays retryable.
func Check(ctx context.Context, d, limit time.Duration) error {
	if limit > 0 && d > limit {
		return fmt.Errorf("%w: asked to wait %s, more than the %s limit", ErrWaitTooLong, d, limit)
	}
	if deadline, ok := ctx.Deadline(); ok {
		if left := time.Until(deadline); d >= left {
			return fmt.Errorf("%w: asked to wait %s, %s left before the deadline", ErrWaitTooLong, d, max(left, 0).Round(time.Millisecond))
		}
	}
	return nil
}

// Backoff is an exponential backoff with equal jitter, for retries the
// server gave no wait for: the wait before retry n is about Base·2^(n-1),
// at most Max (no cap when Max <= 0), half of it fixed and half random, so
// that the retries of many callers spread out.
type Backoff struct {
	Base, Max time.Duration
}

// Delay returns the wait before retry n (1 for the first retry).
func (b Backoff) Delay(n int) time.Duration {
	d := b.Base
	if d <= 0 {
		return 0
	}
	for i := 1; i < n && (b.Max <= 0 || d < b.Max) && d <= Forever/2; i++ {
		d *= 2
	}
	if b.Max > 0 {
		d = min(d, b.Max)
	}
	return d/2 + rand.N(d-d/2+1)
}
