package storetest

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/duetbot/duet/shared/telegram"
)

// TestDedupe: only the named duplicate is forgiven — a copy right after
// one whose sender never read the answer, or read it and could not record
// it; any other repeat stays, and so fails the transcript check.
func TestDedupe(t *testing.T) {
	answered := map[int64]bool{1: true, 2: true, 3: true, 5: true, 6: true}
	for _, tc := range []struct {
		name string
		msgs []sent
		want []string
	}{
		{"no repeat", []sent{{text: "a", attempt: 1}, {text: "b", attempt: 2}}, []string{"a", "b"}},
		{"after an answered, recorded copy", []sent{{text: "a", attempt: 1}, {text: "a", attempt: 2}}, []string{"a", "a"}},
		{"after an unanswered copy", []sent{{text: "a", attempt: 4}, {text: "a", attempt: 1}}, []string{"a"}},
		{"after an unrecorded copy", []sent{{text: "a", attempt: 1, unrecorded: true}, {text: "a", attempt: 2}}, []string{"a"}},
		{"a third copy", []sent{{text: "a", attempt: 4}, {text: "a", attempt: 7}, {text: "a", attempt: 1}}, []string{"a", "a"}},
		{"not adjacent", []sent{{text: "a", attempt: 4}, {text: "b", attempt: 1}, {text: "a", attempt: 2}}, []string{"a", "b", "a"}},
		{"two named cases", []sent{{text: "a", attempt: 4}, {text: "a", attempt: 1}, {text: "b", attempt: 5, unrecorded: true}, {text: "b", attempt: 6}}, []string{"a", "b"}},
	} {
		if got := dedupe(tc.msgs, answered); !slices.Equal(got, tc.want) {
			t.Errorf("%s: dedupe = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestFaultyBotAPIWitness: the fake Bot API knows of every message it
// recorded whether its sender read the answer — answered exactly when the
// client's Send succeeded.
func TestFaultyBotAPIWitness(t *testing.T) {
	api := newFaultyBotAPI(t)
	client, err := telegram.New(api.srv.URL, "123:fault", telegram.WithHTTPClient(&http.Client{Transport: api}),
		telegram.WithRequestTimeout(100*time.Millisecond), telegram.WithMaxAttempts(1),
		telegram.WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatal(err)
	}
	const id = 42
	var failed, recordedUnanswered int
	for i := range 60 {
		text := fmt.Sprintf("message %d", i)
		err := client.Send(context.Background(), id, text)
		api.mu.Lock()
		var copies []sent
		for _, m := range api.received[id] {
			if m.text == text {
				copies = append(copies, m)
			}
		}
		for _, m := range copies {
			if got := api.answered[m.attempt]; got != (err == nil) {
				t.Errorf("%s: Send returned %v, but its copy (attempt %d) is marked answered=%t", text, err, m.attempt, got)
			}
		}
		api.mu.Unlock()
		if err != nil {
			failed++
			recordedUnanswered += len(copies)
		} else if len(copies) != 1 {
			t.Errorf("%s: sent once, recorded %d times", text, len(copies))
		}
	}
	t.Logf("faults: %s; %d failed sends, %d copies recorded unanswered", api.summary(), failed, recordedUnanswered)
	if failed == 0 || recordedUnanswered == 0 {
		t.Errorf("the faults never struck (%d failed sends, %d recorded unanswered): the check above saw nothing", failed, recordedUnanswered)
	}
}

// TestEngineLog: the engines' log keeps warnings by chat, and an error
// "record delivery" marks the chat's last message unrecorded.
func TestEngineLog(t *testing.T) {
	api := newFaultyBotAPI(t)
	api.received[7] = []sent{{text: "a", attempt: 1}, {text: "b", attempt: 2}}
	log := slog.New(engineLog{api})
	log.Info("not kept", "chat", int64(7))
	log.Warn("release lease", "chat", int64(7), "seq", 2)
	if api.received[7][1].unrecorded {
		t.Fatal("a warning marked a message unrecorded")
	}
	log.Error("record delivery", "chat", int64(7), "seq", 2)
	if !api.received[7][1].unrecorded || api.received[7][0].unrecorded {
		t.Errorf("after the error: %+v; want only the last message unrecorded", api.received[7])
	}
	want := []string{"WARN release lease chat=7 seq=2", "ERROR record delivery chat=7 seq=2"}
	if got := api.logOf(7); !slices.Equal(got, want) {
		t.Errorf("log of chat 7: %q, want %q", got, want)
	}
}
