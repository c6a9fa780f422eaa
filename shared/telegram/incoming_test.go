package telegram

import (
	"testing"
)

func TestParseIncoming(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		want    Incoming
		wantErr bool
		fast    bool // read in place, without ParseUpdate
	}{
		{
			name: "telegram",
			body: `{"update_id":42,"message":{"message_id":7,"from":{"id":-5,"is_bot":false,"first_name":"Anonym"},"chat":{"id":-5,"type":"private","first_name":"Anonym"},"date":1700000000,"text":"/start hello"}}`,
			want: Incoming{UpdateID: 42, ChatID: -5, Text: "/start hello"},
			fast: true,
		},
		{
			name: "convai 2017, spaced out",
			body: " {\"update_id\" : 0 ,\n\"message\": {\"message_id\":0, \"chat\" : {\"id\":-2147483648}, \"date\":\"Mon Jul 24 2017\",\"text\":\"hi\"} } ",
			want: Incoming{ChatID: -2147483648, Text: "hi"},
			fast: true,
		},
		{
			name: "no text",
			body: `{"message":{"chat":{"id":3}}}`,
			want: Incoming{ChatID: 3},
			fast: true,
		},
		{
			name: "escapes in the text",
			body: `{"update_id":1,"message":{"chat":{"id":1},"text":"a \"b\" \u00e9"}}`,
			want: Incoming{UpdateID: 1, ChatID: 1, Text: `a "b" é`},
		},
		{
			name: "keys in another case",
			body: `{"Update_ID":1,"MESSAGE":{"Chat":{"ID":2},"Text":"x"}}`,
			want: Incoming{UpdateID: 1, ChatID: 2, Text: "x"},
		},
		{
			name: "a repeated message merges",
			body: `{"message":{"chat":{"id":2}},"message":{"text":"x"}}`,
			want: Incoming{ChatID: 2, Text: "x"},
		},
		{name: "malformed JSON", body: `{"update_id":1,"message":`, wantErr: true},
		{name: "no message", body: `{"update_id":3,"edited_message":{"chat":{"id":1},"text":"x"}}`, wantErr: true},
		{name: "chat id 0", body: `{"message":{"chat":{"id":0},"text":"x"}}`, wantErr: true},
		{name: "fractional chat id", body: `{"message":{"chat":{"id":1.5},"text":"x"}}`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseIncoming(tt.body)
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Fatalf("got %+v, %v; want %+v (error: %v)", got, err, tt.want, tt.wantErr)
			}
			if _, fast := scanIncoming(tt.body); fast != tt.fast {
				t.Errorf("read in place: %v, want %v", fast, tt.fast)
			}
		})
	}
}

func TestParseIncomingAllocs(t *testing.T) {
	body := `{"update_id":42,"message":{"message_id":7,"chat":{"id":-5,"type":"private"},"date":1700000000,"text":"hello there"}}`
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = ParseIncoming(body) }); n != 0 {
		t.Errorf("got %v allocations, want 0", n)
	}
}

func TestAnsweredOK(t *testing.T) {
	tests := []struct {
		status int
		body   string
		want   bool
	}{
		{200, `{"ok":true,"result":{"message_id":1,"chat":{"id":1,"type":"private"},"date":1795255200,"text":"ok"}}`, true},
		{200, ` {"ok" : true, "result": true} `, true},
		{200, `{"ok":true}`, true},
		{500, `{"ok":true}`, false},
		{200, `{"ok":false,"error_code":400,"description":"x"}`, false},
		{200, `{"ok":true,"OK":false}`, false},       // decodeAnswer decides
		{200, `{"ok":true,"error_code":"x"}`, false}, // decodeAnswer refuses it
		{200, `{"message_id":1,"chat":{"id":1}}`, false},
		{200, `true`, false},
		{200, `{"ok":true`, false},
	}
	for _, tt := range tests {
		if got := answeredOK(tt.status, tt.body); got != tt.want {
			t.Errorf("answeredOK(%d, %s) = %v, want %v", tt.status, tt.body, got, tt.want)
		}
	}
	if raceEnabled {
		return // the race detector allocates
	}
	body := tests[0].body
	if n := testing.AllocsPerRun(100, func() { answeredOK(200, body) }); n != 0 {
		t.Errorf("got %v allocations, want 0", n)
	}
}
