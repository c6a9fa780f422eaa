package apigw_test

import (
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/duetbot/duet/shared/apigw"
	"github.com/duetbot/duet/shared/duet"
)

func TestFromHTTP(t *testing.T) {
	body := `{"update_id":1}`
	tests := []struct {
		name          string
		contentLength int64 // -1: unknown (chunked)
	}{{"with a length", int64(len(body))}, {"chunked", -1}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, "/telegram?x=1", strings.NewReader(body))
			r.ContentLength = tc.contentLength
			r.Header.Set("Content-Type", "application/json")
			r.Header.Set("X-Telegram-Bot-Api-Secret-Token", "s3cret")
			r.Header["X-Odd-Name"] = []string{"a", "b"}
			ev, err := apigw.FromHTTP(r)
			if err != nil {
				t.Fatal(err)
			}
			if ev.Body != body || ev.RouteKey != "POST /telegram" || ev.RawQueryString != "x=1" || apigw.Method(ev) != http.MethodPost {
				t.Errorf("got body %q, route %q, query %q, method %q; want %q, %q, %q, %q",
					ev.Body, ev.RouteKey, ev.RawQueryString, apigw.Method(ev), body, "POST /telegram", "x=1", "POST")
			}
			want := map[string]string{"content-type": "application/json", "x-telegram-bot-api-secret-token": "s3cret", "x-odd-name": "a,b"}
			for k, v := range want {
				if ev.Headers[k] != v {
					t.Errorf("header %s = %q, want %q (headers %v)", k, ev.Headers[k], v, ev.Headers)
				}
			}
			if got := apigw.Header(ev, "X-Telegram-Bot-Api-Secret-Token"); got != "s3cret" {
				t.Errorf("Header by canonical name = %q, want s3cret", got)
			}
		})
	}
}

func TestFromHTTPTooLarge(t *testing.T) {
	for _, n := range []int64{apigw.MaxBodyBytes + 1, -1} {
		r := httptest.NewRequest(http.MethodPost, "/telegram", strings.NewReader(strings.Repeat("x", apigw.MaxBodyBytes+1)))
		r.ContentLength = n
		if _, err := apigw.FromHTTP(r); duet.Code(err) != duet.ETOOLARGE {
			t.Errorf("content length %d: got %v, want an ETOOLARGE error", n, err)
		}
	}
}

func TestWrite(t *testing.T) {
	tests := []struct {
		name string
		resp events.APIGatewayV2HTTPResponse
		want string
		code int
	}{
		{"plain", apigw.RawJSON(http.StatusAccepted, `{"ok":true}`), `{"ok":true}`, http.StatusAccepted},
		{"base64", events.APIGatewayV2HTTPResponse{Body: "aGVsbG8=", IsBase64Encoded: true}, "hello", http.StatusOK},
		{"bad base64 is sent as is", events.APIGatewayV2HTTPResponse{Body: "*not*", IsBase64Encoded: true}, "*not*", http.StatusOK},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			apigw.Write(w, tc.resp)
			if w.Code != tc.code || w.Body.String() != tc.want {
				t.Errorf("got %d %q, want %d %q", w.Code, w.Body.String(), tc.code, tc.want)
			}
			if ct := tc.resp.Headers["Content-Type"]; ct != "" && w.Header().Get("Content-Type") != ct {
				t.Errorf("Content-Type %q, want %q", w.Header().Get("Content-Type"), ct)
			}
		})
	}
}

// BenchmarkFromHTTP converts a webhook-sized request, as `duet serve` does
// for every update.
func BenchmarkFromHTTP(b *testing.B) {
	body := `{"update_id":10000001,"message":{"message_id":10000001,"chat":{"id":20000001,"type":"private"},"date":1795255200,"text":"Honestly I am more scared of bees than wasps."}}`
	b.ReportAllocs()
	for range b.N {
		r := httptest.NewRequest(http.MethodPost, "/telegram", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("X-Telegram-Bot-Api-Secret-Token", "s3cret")
		if _, err := apigw.FromHTTP(r); err != nil {
			b.Fatal(err)
		}
	}
}

func TestBody(t *testing.T) {
	big := strings.Repeat("x", apigw.MaxBodyBytes+1)
	tests := []struct {
		name    string
		req     events.APIGatewayV2HTTPRequest
		want    string
		wantErr string
	}{
		{name: "plain", req: events.APIGatewayV2HTTPRequest{Body: `{"a":1}`}, want: `{"a":1}`},
		{name: "base64", req: events.APIGatewayV2HTTPRequest{Body: base64.StdEncoding.EncodeToString([]byte("hé")), IsBase64Encoded: true}, want: "hé"},
		{name: "empty", req: events.APIGatewayV2HTTPRequest{}},
		{name: "bad base64", req: events.APIGatewayV2HTTPRequest{Body: "!!", IsBase64Encoded: true}, wantErr: duet.EINVALID},
		{name: "too large", req: events.APIGatewayV2HTTPRequest{Body: big}, wantErr: duet.ETOOLARGE},
		{name: "too large in base64", req: events.APIGatewayV2HTTPRequest{Body: base64.StdEncoding.EncodeToString([]byte(big)), IsBase64Encoded: true}, wantErr: duet.ETOOLARGE},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := apigw.Body(tt.req)
			if duet.Code(err) != tt.wantErr {
				t.Fatalf("got error %v, want code %q", err, tt.wantErr)
			}
			if string(b) != tt.want {
				t.Errorf("got Body %q, want %q", b, tt.want)
			}
		})
	}
}
