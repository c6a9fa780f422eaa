package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestSimInProcess(t *testing.T) {
	tests := [][]string{
		{"-dialect", "telegram", "-chats", "5"},
		{"-dialect", "convai2017", "-chats", "5", "-q"},
		{"-dialect", "convai2018", "-chats", "5", "-mode", "webhook", "-secret", "s3cret-s3cret-s3cret"},
	}
	for _, args := range tests {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := runSim(context.Background(), args, &stdout, &stderr)
			if err != nil {
				t.Fatalf("runSim: %v\n%s\n%s", err, stdout.String(), stderr.String())
			}
			if !strings.Contains(stdout.String(), "5 chats") || !strings.Contains(stdout.String(), "ratings of partner messages: min ") ||
				!strings.Contains(stdout.String(), "finals: ") {
				t.Errorf("summary or digest missing from output:\n%s", stdout.String())
			}
			if strings.Contains(args[1], "2018") && !strings.Contains(stdout.String(), "profile guesses: ") {
				t.Errorf("profile guesses missing from output:\n%s", stdout.String())
			}
			quiet := strings.Contains(strings.Join(args, " "), "-q")
			if got := strings.Contains(stdout.String(), "Bot: "); got == quiet {
				t.Errorf("transcripts printed: %v, want %v", got, !quiet)
			}
		})
	}
}

// TestSimFailsOnViolations plays against a webhook bot that accepts every
// update and never answers: every chat is a violation, and sim fails.
func TestSimFailsOnViolations(t *testing.T) {
	mute := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer mute.Close()
	var stdout bytes.Buffer
	err := runSim(context.Background(), []string{"-chats", "2", "-bot", mute.URL, "-mode", "webhook", "-addr", "127.0.0.1:0", "-timeout", "300ms"}, &stdout, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "broke the protocol") {
		t.Errorf("got %v, want a protocol violation error\n%s", err, stdout.String())
	}
}

// TestSimUnreachableBot plays against a webhook nobody listens on: sim
// says the bot was unreachable, not that it broke the protocol.
func TestSimUnreachableBot(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String() + "/telegram"
	ln.Close()
	var stdout bytes.Buffer
	err = runSim(context.Background(), []string{"-chats", "2", "-bot", url, "-mode", "webhook", "-addr", "127.0.0.1:0", "-timeout", "300ms"}, &stdout, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "unreachable") || strings.Contains(err.Error(), "broke the protocol") {
		t.Errorf("got %v, want an unreachable bot\n%s", err, stdout.String())
	}
}

func TestSimUsage(t *testing.T) {
	for _, args := range [][]string{{"-dialect", "irc"}, {"-mode", "carrier-pigeon"}, {"extra"}} {
		if err := runSim(context.Background(), args, io.Discard, io.Discard); err == nil {
			t.Errorf("runSim(%q) = nil, want a usage error", args)
		}
	}
}
