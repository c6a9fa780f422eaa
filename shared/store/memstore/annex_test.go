package memstore

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/duetbot/duet/shared/annex"
	"github.com/duetbot/duet/shared/duet"
)

func TestAnnexStore(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2024, 3, 4, 9, 0, 0, 0, time.UTC)
	s := NewAnnex(WithTTL(time.Hour), WithClock(func() time.Time { return now }))
	ex := annex.Exchange{Conversation: "c1", Request: annex.Message{From: "U2", ID: "m1", Text: "hi", Timestamp: "2024-03-04T09:00:00Z"},
		Reply: annex.Message{From: annex.BotFrom, ID: "b1", Text: "hello"}, At: now}
	for range 2 { // a retried request keeps one copy
		if err := s.SaveExchange(ctx, ex); err != nil {
			t.Fatal(err)
		}
	}
	got, _ := s.Exchanges(ctx, "c1")
	if len(got) != 1 || got[0].Reply.Text != "hello" {
		t.Errorf("exchanges: got %+v, want the one exchange", got)
	}
	now = now.Add(time.Hour)
	if got, _ := s.Exchanges(ctx, "c1"); len(got) != 0 {
		t.Errorf("after the TTL: got %d exchanges, want 0", len(got))
	}

	if _, err := s.LoadPersona(ctx, "Ada"); !errors.Is(err, duet.ErrNotFound) {
		t.Errorf("LoadPersona before import: got %v, want ErrNotFound", err)
	}
	p := annex.PersonaData{Name: "Ada", ID: "U1", Pairs: []annex.Pair{{Prompt: "q", Answer: "a"}, {Answer: "b"}}}
	if err := s.SavePersona(ctx, p); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"Ada", "ada", " ADA "} {
		got2, err := s.LoadPersona(ctx, name)
		if err != nil || got2.Name != "Ada" || got2.ID != "U1" || len(got2.Pairs) != 2 || got2.Pairs[1].Answer != "b" {
			t.Errorf("LoadPersona(%q): got %+v, %v; want what was saved, named Ada", name, got2, err)
		}
	}
}
