package telegram

import (
	"fmt"
	"testing"

	"github.com/duetbot/duet/shared/convai"
)

func TestParseUpdate(t *testing.T) {
	tests := []struct {
		name     string
		body     string
		wantErr  bool
		wantID   int64
		wantChat int64
		wantText string
		wantFrom bool
	}{
		{
			name:     "telegram",
			body:     `{"update_id":42,"message":{"message_id":7,"from":{"id":-5,"is_bot":false,"first_name":"Anonym"},"chat":{"id":-5,"type":"private","first_name":"Anonym"},"date":1700000000,"text":"/start hello"}}`,
			wantID:   42,
			wantChat: -5,
			wantText: "/start hello",
			wantFrom: true,
		},
		{
			name:     "convai 2017: no from, update_id 0, date not a Unix time",
			body:     `{"update_id":0,"message":{"message_id":0,"chat":{"id":-2147483648},"date":"Mon Jul 24 2017","text":"hi"}}`,
			wantChat: -2147483648,
			wantText: "hi",
		},
		{
			name:     "chat id beyond 32 bits",
			body:     `{"message":{"chat":{"id":1099511627776},"text":"x"}}`,
			wantChat: 1 << 40,
			wantText: "x",
		},
		{name: "malformed JSON", body: `{"update_id":1,"message":`, wantErr: true},
		{name: "not an object", body: `[1,2]`, wantErr: true},
		{name: "no message", body: `{"update_id":3,"edited_message":{"chat":{"id":1},"text":"x"}}`, wantErr: true},
		{name: "message without chat", body: `{"update_id":3,"message":{"text":"x"}}`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, err := ParseUpdate([]byte(tt.body))
			if tt.wantErr {
				if err == nil {
					t.Fatalf("got update %+v, want an error", u)
				}
				return
			}
			if err != nil {
				t.Fatalf("got error %v, want none", err)
			}
			if u.UpdateID != tt.wantID || u.Message.Chat.ID != tt.wantChat || u.Message.Text != tt.wantText {
				t.Errorf("got update_id %d chat %d text %q, want %d %d %q",
					u.UpdateID, u.Message.Chat.ID, u.Message.Text, tt.wantID, tt.wantChat, tt.wantText)
			}
			if (u.Message.From != nil) != tt.wantFrom {
				t.Errorf("got from %+v, want present=%v", u.Message.From, tt.wantFrom)
			}
		})
	}
}

func TestAPIErrorPermanent(t *testing.T) {
	for code, want := range map[int]bool{400: true, 403: true, 404: true, 429: false, 500: false, 502: false} {
		err := fmt.Errorf("send: %w", &APIError{Code: code, Description: "x"})
		if got := convai.Rejected(err); got != want {
			t.Errorf("convai.Rejected(%d) = %v, want %v", code, got, want)
		}
	}
}
