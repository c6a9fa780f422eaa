package telegram

import (
	"net/url"
	"testing"
)

func TestRedactToken(t *testing.T) {
	const long = "123456:AAH-x_y/z+w"
	tests := []struct {
		name, token, in, want string
	}{
		{"long, raw", long, "Post http://h/bot" + long + "/sendMessage: refused", "Post http://h/bot<token>/sendMessage: refused"},
		{"long, path-escaped", long, "GET /bot" + url.PathEscape(long) + "/getUpdates", "GET /bot<token>/getUpdates"},
		{"long, query-escaped", long, "token=" + url.QueryEscape(long) + "&x=1", "token=<token>&x=1"},
		{"long, inside a word", "123456:ABCDEFGH", "xx123456:ABCDEFGHyy", "xx<token>yy"},
		{"long, twice", "123456:ABCDEFGH", "123456:ABCDEFGH and 123456:ABCDEFGH", "<token> and <token>"},
		{"one character, whole only", "t", "Post http://h/bot t/sendMessage: connect: connection refused to t", "Post http://h/bot <token>/sendMessage: connect: connection refused to <token>"},
		{"one character, in words untouched", "t", "telegram error 400: Bad Request: chat not found", "telegram error 400: Bad Request: chat not found"},
		{"one character, bot path segment", "t", "Post \"http://127.0.0.1:8081/bott/sendMessage\": EOF", "Post \"http://127.0.0.1:8081/bot<token>/sendMessage\": EOF"},
		{"one character, 2017 path", "t", "Post http://h/convai/t/sendMessage", "Post http://h/convai/<token>/sendMessage"},
		{"short, not a prefix of a word", "local", "dial tcp: lookup localhost: no such host", "dial tcp: lookup localhost: no such host"},
		{"short, whole", "local", "http://127.0.0.1:8081/botlocal/sendMessage", "http://127.0.0.1:8081/bot<token>/sendMessage"},
		{"short, next to ':'-joined text is part of a token", "ab", "ab:cd", "ab:cd"},
		{"short, escaped", "a/b", "/bot" + url.PathEscape("a/b") + "/x and q=" + url.QueryEscape("a/b"), "/bot<token>/x and q=<token>"},
		{"short, at both ends", "abc", "abc", "<token>"},
		{"robot is not bot+token", "ot", "robot", "robot"},
		{"empty token", "", "nothing to hide", "nothing to hide"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := redactToken(tt.in, tt.token); got != tt.want {
				t.Errorf("redactToken(%q, %q)\n got %q\nwant %q", tt.in, tt.token, got, tt.want)
			}
		})
	}
}
