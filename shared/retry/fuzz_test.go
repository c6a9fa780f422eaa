package retry

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// FuzzAfter feeds arbitrary header values to After. Properties: no wait is
// negative or beyond Forever, nothing that is not a usable value is
// accepted (ok false means 0), a plain integer of seconds reads as exactly
// that many seconds, a usable retry-after-ms wins over Retry-After, and the
// result does not depend on surrounding spaces.
func FuzzAfter(f *testing.F) {
	for _, s := range [][2]string{
		{"3", ""}, {"0", ""}, {"1.5", ""}, {"Wed, 21 Oct 2015 07:28:00 GMT", ""},
		{"Monday, 23-Nov-26 04:00:05 GMT", ""}, {"Mon Nov 23 04:00:05 2026", ""},
		{"-1", ""}, {"1e9", ""}, {"NaN", ""}, {"99999999999999999999", ""},
		{"20", "19999"}, {"2", "soon"}, {"", "0.25"}, {"", "-3"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, retryAfter, retryAfterMs string) {
		h := http.Header{}
		h["Retry-After"] = []string{retryAfter}
		h["Retry-After-Ms"] = []string{retryAfterMs}
		d, ok := After(h, now)
		if d < 0 {
			t.Fatalf("negative wait %v for %q / %q", d, retryAfter, retryAfterMs)
		}
		if !ok && d != 0 {
			t.Fatalf("not ok but wait %v", d)
		}
		ms, msOK := parseDecimal(retryAfterMs, time.Millisecond)
		if msOK && (!ok || d != ms) {
			t.Fatalf("retry-after-ms %q (%v) did not win: got %v, %v", retryAfterMs, ms, d, ok)
		}
		if !msOK {
			d2, ok2 := ParseRetryAfter(retryAfter, now)
			if d2 != d || ok2 != ok {
				t.Fatalf("without a usable retry-after-ms, got %v, %v, want Retry-After's %v, %v", d, ok, d2, ok2)
			}
		}
		if n, err := strconv.ParseUint(strings.TrimSpace(retryAfter), 10, 32); err == nil && !strings.ContainsAny(retryAfter, "+-_") {
			got, ok := ParseRetryAfter(retryAfter, now)
			if !ok || got != time.Duration(n)*time.Second {
				t.Fatalf("Retry-After %q: got %v, %v, want %d s", retryAfter, got, ok, n)
			}
		}
		got, gotOK := ParseRetryAfter(" "+retryAfter+" ", now)
		want, wantOK := ParseRetryAfter(retryAfter, now)
		if got != want || gotOK != wantOK {
			t.Fatalf("spaces change %q: %v, %v vs %v, %v", retryAfter, got, gotOK, want, wantOK)
		}
		if ok && strings.ContainsAny(strings.TrimSpace(retryAfter), "eEpPxX+") && !msOK {
			if _, err := http.ParseTime(strings.TrimSpace(retryAfter)); err != nil {
				t.Fatalf("Retry-After %q accepted as %v: not seconds nor a date", retryAfter, d)
			}
		}
	})
}
