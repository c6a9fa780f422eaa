// Command relay is the bare limit `duet serve` is measured against in the
// webhook load test (.ci/loadtest): the least a Go webhook can do per
// update — check the secret header, decode the update, make one sendMessage
// POST to the Bot API with a well-configured pooled client, answer 200. It
// keeps no state and writes no evaluation.
//
//	go run ./cmd/bench/relay -addr 127.0.0.1:8090 -api http://127.0.0.1:8081
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"log"
	"net/http"
	"os"
	"time"
)

type update struct {
	UpdateID int64 `json:"update_id"`
	Message  *struct {
		Chat struct {
			ID int64 `json:"id"`
		} `json:"chat"`
		Text string `json:"text"`
	} `json:"message"`
}

func main() {
	addr := flag.String("addr", "127.0.0.1:8090", "listen address")
	api := flag.String("api", "http://127.0.0.1:8081", "Bot API base URL")
	token := flag.String("token", "bench", "bot token")
	flag.Parse()
	secret := os.Getenv("TELEGRAM_WEBHOOK_SECRET")
	// Pooled keep-alive connections to the one Bot API host: enough idle
	// ones for every concurrent request, so that none is opened per send.
	client := &http.Client{
		Timeout: 10 * time.Second,
		Transport: &http.Transport{
			MaxIdleConns:        1024,
			MaxIdleConnsPerHost: 1024,
			IdleConnTimeout:     90 * time.Second,
		},
	}
	sendURL := *api + "/bot" + *token + "/sendMessage"
	http.HandleFunc("POST /telegram", func(w http.ResponseWriter, r *http.Request) {
		if secret != "" && r.Header.Get("X-Telegram-Bot-Api-Secret-Token") != secret {
			http.Error(w, `{"error":"unauthorized"}`, http.StatusUnauthorized)
			return
		}
		var u update
		if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&u); err != nil || u.Message == nil {
			io.WriteString(w, `{"ok":true}`) // nothing to answer
			return
		}
		reply, _ := json.Marshal(struct {
			Text       string `json:"text"`
			Evaluation int    `json:"evaluation"`
		}{"you said: " + u.Message.Text, 5})
		body, _ := json.Marshal(struct {
			ChatID int64  `json:"chat_id"`
			Text   string `json:"text"`
		}{u.Message.Chat.ID, string(reply)})
		resp, err := client.Post(sendURL, "application/json", bytes.NewReader(body))
		if err != nil {
			http.Error(w, `{"error":"bot api unavailable"}`, http.StatusServiceUnavailable)
			return
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ok":true}`)
	})
	log.Fatal(http.ListenAndServe(*addr, nil))
}
