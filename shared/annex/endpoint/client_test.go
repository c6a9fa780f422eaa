package endpoint

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/duetbot/duet/shared/annex"
)

func TestAsk(t *testing.T) {
	tests := []struct {
		name    string
		status  int
		body    string
		want    string
		wantErr string
	}{
		{"reply", 200, `{"message":"Short answer: no."}`, "Short answer: no.", ""},
		{"json error", 401, `{"error":"missing or wrong X-CALLER-KEY"}`, "", "endpoint answered 401: missing or wrong X-CALLER-KEY"},
		{"plain error", 502, `Bad Gateway`, "", "endpoint answered 502 Bad Gateway"},
		{"garbage", 200, `<html>hello</html>`, "", `something other than {"message": "..."}`},
		{"wrong shape", 200, `{"text":"hi"}`, "", `something other than`},
		{"empty message", 200, `{"message":"  "}`, "", "empty message"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				var req annex.Request
				if r.Method != http.MethodPost || r.Header.Get("X-CALLER-KEY") != "k" || json.NewDecoder(r.Body).Decode(&req) != nil || req.Message.Text != "q" {
					t.Errorf("request: got %s with key %q", r.Method, r.Header.Get("X-CALLER-KEY"))
				}
				w.WriteHeader(tt.status)
				_, _ = w.Write([]byte(tt.body))
			}))
			defer srv.Close()
			got, err := New(srv.URL, "k", nil).Ask(context.Background(), annex.Request{Message: annex.Message{From: "U", Text: "q"}})
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error: got %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("Ask: got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}
