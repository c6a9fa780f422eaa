package replay_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/convai/convaitest"
	"github.com/duetbot/duet/shared/convai2"
	"github.com/duetbot/duet/shared/convai2/replay"
)

// dialogue has what real releases have: the seat speaking first, two
// partner messages in a row, a partner saying "/start", and options.
func dialogue() convai2.Dialogue {
	m := func(id int64, seat, text string) convai2.Message {
		return convai2.Message{ID: id, Sender: seat, Text: text, Evaluation: -1}
	}
	p1, p2 := convai2.Participant1, convai2.Participant2
	return convai2.Dialogue{
		Messages: []convai2.Message{
			m(0, p1, "hi! do you have pets?"),
			m(1, p2, "i have three horses. do you ride?"),
			m(2, p1, "no, i am a nurse."),
			m(3, p2, "/start"),
			m(4, p2, "i ride my horses every weekend at the farm."),
			m(5, p1, "that sounds lovely. bye!"),
		},
		BotProfile:  []string{"i like to ride horses."},
		UserProfile: []string{"i am a nurse."},
		Options:     [][]string{{"i love to bake cakes."}, {"i like to ride horses."}},
	}
}

// TestRate replays a dialogue with convaitest.Echo as the evaluator, which
// rates a message by its number of words: every partner message is rated
// as the engine saw it (a "/start" as the word "start"), the final comes
// for the router's request with a guess among the options, and the
// recorded requests are those the engine made.
func TestRate(t *testing.T) {
	d := dialogue()
	r := &replay.Rater{Evaluator: convaitest.Echo{}, Seat: convai2.Participant1, Record: true}
	res, err := r.Rate(context.Background(), 0, &d)
	if err != nil {
		t.Fatal(err)
	}
	want := []convai2.RatedMessage{{ID: 1, Evaluation: 7}, {ID: 3, Evaluation: 1}, {ID: 4, Evaluation: 9}}
	if len(res.Ratings) != len(want) {
		t.Fatalf("ratings %+v, want %+v", res.Ratings, want)
	}
	for i, w := range want {
		if res.Ratings[i] != w {
			t.Errorf("rating %d: got %+v, want %+v", i, res.Ratings[i], w)
		}
	}
	f := res.Rated.Final
	if f.Quality != 5 || f.Breadth != 6 || f.Score < 1 || f.Score > 5 || f.Profile == nil || *f.Profile < 0 || *f.Profile > 1 {
		t.Errorf("final %+v: want Echo's scores, a score in 1..5 and a guess among 2 options", f)
	}
	if len(res.Requests) != 3 {
		t.Fatalf("recorded %d rate requests, want 3", len(res.Requests))
	}
	last, _ := res.Requests[2].LastPartner()
	if last != "i ride my horses every weekend at the farm." {
		t.Errorf("last rate request ends with %q", last)
	}
	// Duet's seat spoke first (the reply to /begin), then after each
	// partner message, "…" where it said nothing in between.
	var bot []string
	for _, turn := range res.Final.Turns {
		if turn.Role == brain.Bot {
			bot = append(bot, turn.Text)
		}
	}
	if got := strings.Join(bot, " | "); got != "hi! do you have pets? | no, i am a nurse. | "+replay.Silence+" | that sounds lovely. bye!" {
		t.Errorf("Duet's seat said %q", got)
	}
	if res.Final.Judge == nil || len(res.Final.Judge.Profiles) != 2 {
		t.Errorf("final request %+v: want the router's request with the 2 options", res.Final.Judge)
	}
}

// TestRateAll replays dialogues in parallel, each result in its place,
// and names the dialogue that cannot be replayed.
func TestRateAll(t *testing.T) {
	ds := make([]convai2.Dialogue, 9)
	for i := range ds {
		ds[i] = dialogue()
		ds[i].Messages[1].Text = strings.Repeat("word ", i+1)
	}
	r := &replay.Rater{Evaluator: convaitest.Echo{}, Seat: convai2.Participant1}
	var ticks atomic.Int64
	res, err := r.RateAll(context.Background(), ds, func() { ticks.Add(1) })
	if err != nil {
		t.Fatal(err)
	}
	if ticks.Load() != int64(len(ds)) {
		t.Errorf("%d ticks, want %d", ticks.Load(), len(ds))
	}
	for i, rated := range replay.Rated(res) {
		if rated.Index != i || rated.Ratings[0].Evaluation != brain.Clamp(i+1) {
			t.Errorf("result %d: %+v, want index %d rated %d first", i, rated, i, i+1)
		}
	}
	ds[4].Messages[3].Text = "  "
	if _, err := r.RateAll(context.Background(), ds, func() {}); err == nil || !strings.Contains(err.Error(), `dialogue 4: "dialog" message id 3: empty text`) {
		t.Errorf("an empty message: got %v", err)
	}
}
