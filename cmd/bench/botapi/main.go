// Command botapi is a fast local stand-in for the Telegram Bot API, for the
// webhook load test (.ci/loadtest): it answers every sendMessage at once
// and counts them. GET /stats returns the count as {"sent":N}. It accepts
// any chat, so it is also the Bot API for `sam local invoke` with the
// sample events (docs/operations.md); -v prints each sendMessage's body.
//
//	go run ./cmd/bench/botapi -addr 127.0.0.1:8081
package main

import (
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"strings"
	"sync/atomic"
)

// answer is what sendMessage returns: a Message, as the real Bot API does.
const answer = `{"ok":true,"result":{"message_id":1,"chat":{"id":1,"type":"private"},"date":1795255200,"text":"ok"}}`

func main() {
	addr := flag.String("addr", "127.0.0.1:8081", "listen address")
	verbose := flag.Bool("v", false, "print each sendMessage's body")
	flag.Parse()
	var sent atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("POST /", func(w http.ResponseWriter, r *http.Request) {
		// Read the whole body, as the real server does, so that the
		// client's connection is reused.
		var body strings.Builder
		var dst io.Writer = io.Discard // the load test's path copies nothing
		if *verbose {
			dst = &body
		}
		if _, err := io.Copy(dst, r.Body); err != nil {
			http.Error(w, `{"ok":false,"error_code":400,"description":"bad body"}`, http.StatusBadRequest)
			return
		}
		if !strings.HasSuffix(r.URL.Path, "/sendMessage") {
			http.Error(w, `{"ok":false,"error_code":404,"description":"Not Found"}`, http.StatusNotFound)
			return
		}
		sent.Add(1)
		if *verbose {
			fmt.Println(body.String())
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, answer)
	})
	mux.HandleFunc("GET /stats", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintf(w, "{\"sent\":%d}\n", sent.Load())
	})
	log.Fatal(http.ListenAndServe(*addr, mux))
}
