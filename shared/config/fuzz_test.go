package config

import (
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
)

// fuzzVars are the variables the fuzzer sets, by index; names Load does
// not read are harmless.
var fuzzVars = []string{
	"CHAT_IDLE_TIMEOUT", "SWEEP_INTERVAL", "SESSION_TTL", "DELIVERY_TIMEOUT", "BRAIN_TIMEOUT",
	"CHAT_MAX_TURNS", "LOCAL_MAX_CHATS", "LOCAL_MAX_BYTES", "BRAIN", "TELEGRAM_API_URL", "OPENAI_BASE_URL",
	"TELEGRAM_BOT_TOKEN", "TELEGRAM_WEBHOOK_SECRET", "TELEGRAM_WEBHOOK_INSECURE", "SESSIONS_TABLE",
	"DYNAMODB_ENDPOINT", "ANNEX_CALLER_KEY", "ANNEX_PERSON_NAME", "BRAIN_MODEL", "OPENAI_API_KEY",
}

// errorLine is how each reported problem opens: the variable and its value.
var errorLine = regexp.MustCompile(`^([A-Z][A-Z0-9_]*)=`)

// FuzzLoad loads arbitrary values of up to three variables. Properties:
// Load never panics; whether or not it reports errors, every duration is
// positive, every count at least 1, the back end one Load knows, URLs carry
// no trailing slash and other values no surrounding white space; a valid
// duration is taken as given; every reported problem names a variable
// that was set, and a config with no problem is returned without error.
func FuzzLoad(f *testing.F) {
	f.Add(uint8(0), "5m", uint8(5), "20", uint8(7), "openai")
	f.Add(uint8(0), "-1s", uint8(5), "0", uint8(7), "gpt")
	f.Add(uint8(2), "9999999999h", uint8(6), "1e3", uint8(8), "https://api.telegram.org///")
	f.Add(uint8(1), "  1ns\t", uint8(6), " 10000 ", uint8(7), " BedRock ")
	f.Add(uint8(3), "0", uint8(12), "yes", uint8(9), " ")
	f.Add(uint8(4), "1h1m1s1ms1us1ns", uint8(5), "-5", uint8(10), "123:abc")
	f.Fuzz(func(t *testing.T, k1 uint8, v1 string, k2 uint8, v2 string, k3 uint8, v3 string) {
		set := map[string]string{}
		for _, kv := range []struct {
			k uint8
			v string
		}{{k1, v1}, {k2, v2}, {k3, v3}} {
			set[fuzzVars[int(kv.k)%len(fuzzVars)]] = kv.v
		}
		c, err := Load(env(set))

		rv := reflect.ValueOf(c)
		for i := range rv.NumField() {
			name, v := rv.Type().Field(i).Name, rv.Field(i)
			switch x := v.Interface().(type) {
			case time.Duration:
				if x <= 0 {
					t.Fatalf("%s = %s, want > 0 (env %q, err %v)", name, x, set, err)
				}
			case int:
				if x < 1 {
					t.Fatalf("%s = %d, want >= 1 (env %q, err %v)", name, x, set, err)
				}
			case string:
				if strings.HasSuffix(name, "URL") {
					if strings.HasSuffix(x, "/") {
						t.Fatalf("%s = %q ends with a slash", name, x)
					}
				} else if x != strings.TrimSpace(x) {
					t.Fatalf("%s = %q is not trimmed", name, x)
				}
			}
		}
		switch c.Brain {
		case "offline", "bedrock", "openai":
		default:
			if err == nil {
				t.Fatalf("BRAIN %q accepted", c.Brain)
			}
		}
		for name, field := range map[string]time.Duration{
			"CHAT_IDLE_TIMEOUT": c.ChatIdleTimeout, "SWEEP_INTERVAL": c.SweepInterval, "SESSION_TTL": c.SessionTTL,
			"DELIVERY_TIMEOUT": c.DeliveryTimeout, "BRAIN_TIMEOUT": c.BrainTimeout,
		} {
			if v, ok := set[name]; ok {
				if d, perr := time.ParseDuration(strings.TrimSpace(v)); perr == nil && d > 0 && field != d {
					t.Fatalf("%s=%q gave %s, want %s", name, v, field, d)
				}
			}
		}
		if err == nil {
			return
		}
		for _, line := range strings.Split(err.Error(), "\n") {
			m := errorLine.FindStringSubmatch(line)
			if m == nil {
				t.Fatalf("error line %q names no variable", line)
			}
			if _, ok := set[m[1]]; !ok {
				t.Fatalf("error line %q names %s, which was not set (env %q)", line, m[1], set)
			}
		}
	})
}
