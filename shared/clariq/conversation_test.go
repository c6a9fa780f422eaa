package clariq

import (
	"context"
	"encoding/csv"
	"strings"
	"testing"

	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/brain/offline"
)

// devTopic is one ClariQ dev topic for scripted chats: its request and the
// (question, answer) rows the data gives for it.
type devTopic struct {
	request string
	answers []string
}

// devTopics reads ../shared/data/clariq/dev.tsv, or skips.
func devTopics(t testing.TB) []devTopic {
	t.Helper()
	cr := csv.NewReader(openData(t, "dev.tsv"))
	cr.Comma, cr.LazyQuotes, cr.FieldsPerRecord = '\t', true, -1
	recs, err := cr.ReadAll()
	if err != nil {
		t.Fatalf("read dev.tsv: %v", err)
	}
	byReq := map[string]int{}
	var out []devTopic
	for _, rec := range recs[1:] {
		if len(rec) < 9 {
			continue
		}
		i, ok := byReq[rec[1]]
		if !ok {
			i = len(out)
			byReq[rec[1]] = i
			out = append(out, devTopic{request: rec[1]})
		}
		out[i].answers = append(out[i].answers, rec[8])
	}
	if len(out) < 40 {
		t.Fatalf("dev.tsv has %d requests, want the 50 topics", len(out))
	}
	return out
}

// chat is a scripted ClariQ chat: the partner's lines in order, the bot
// answering each with ReplyEnd.
type chat struct {
	t   testing.TB
	b   *Brain
	req brain.Request
}

func (c *chat) say(partner string) (string, bool) {
	c.t.Helper()
	c.req.Turns = append(c.req.Turns, brain.Turn{Role: brain.Partner, Text: partner})
	text, end, err := c.b.ReplyEnd(context.Background(), c.req)
	if err != nil {
		c.t.Fatal(err)
	}
	c.req.Turns = append(c.req.Turns, brain.Turn{Role: brain.Bot, Text: text})
	return text, end
}

func (c *chat) close() string {
	c.t.Helper()
	req := c.req
	req.Closing = true
	text, end, err := c.b.ReplyEnd(context.Background(), req)
	if err != nil || !end {
		c.t.Fatalf("closing: end %v, err %v", end, err)
	}
	return text
}

// ownTerms are a question's terms beyond the request's: its facet.
func ownTerms(question, request string) map[string]bool {
	return minus(set(terms(question)), set(terms(request)))
}

// checkClosing fails when a closing line quotes or repeats the request,
// or keeps the small talk.
func checkClosing(t testing.TB, closing, request string) {
	t.Helper()
	// The head of the line (before the answers) restates the request.
	low, _, _ := strings.Cut(strings.ToLower(closing), ":")
	if strings.ContainsAny(closing, "\"“”") {
		t.Errorf("closing %q quotes", closing)
	}
	// A request with phrasing of its own ("tell me about …", "how to …")
	// is restated without it.
	_, lead := cutLead(request, requestLeads)
	_, ask := cutLead(request, askLeads)
	if r := strings.ToLower(strings.Trim(request, " .?!")); (lead || ask || strings.HasPrefix(r, "how")) && strings.Contains(low, r) {
		t.Errorf("closing %q repeats the request %q", closing, request)
	}
	for _, w := range words(closing) {
		if w == "hi" || w == "hey" || w == "hello" {
			t.Errorf("closing %q keeps the greeting", closing)
		}
	}
}

// invites reports a short question asking for the need.
func invites(s string) bool {
	if !strings.HasSuffix(s, "?") || len(words(s)) > 12 {
		return false
	}
	for _, w := range words(s) {
		if w == "what" || w == "looking" || w == "find" {
			return true
		}
	}
	return false
}

func TestGreetingBeforeRequest(t *testing.T) {
	b := NewBrain(testRanker(t), offline.New())
	greetings := []string{"hi, can you help me?", "Hello!", "hey there, I have a question", "Good morning. Could you help me?"}
	for _, topic := range devTopics(t) {
		plain := &chat{t: t, b: b}
		want, wantEnd := plain.say(topic.request)
		for _, g := range greetings {
			t.Run(g+"/"+topic.request, func(t *testing.T) {
				c := &chat{t: t, b: b}
				invite, end := c.say(g)
				if end || !invites(invite) || shares(set(terms(invite)), set(terms(topic.request))) {
					t.Fatalf("greeting %q: got %q (end %v), want an invitation to say the need", g, invite, end)
				}
				got, end := c.say(topic.request)
				if got != want || end != wantEnd {
					t.Fatalf("after the greeting the request got %q (end %v), without it %q (end %v)", got, end, want, wantEnd)
				}
				// A greeting in the same message as the request is left out too.
				same := &chat{t: t, b: b}
				if got, _ := same.say(g + " " + topic.request); got != want {
					t.Fatalf("%q got %q, the bare request %q", g+" "+topic.request, got, want)
				}
				// And so is one sent before the bot has asked anything.
				late := &chat{t: t, b: b, req: brain.Request{Context: topic.request}}
				if got, _ := late.say(g); got != want {
					t.Fatalf("greeting after the context got %q, the bare request %q", got, want)
				}
				checkClosing(t, c.close(), topic.request)
			})
		}
	}
}

func TestNoMovesToAnotherFacet(t *testing.T) {
	b := NewBrain(testRanker(t), offline.New())
	for _, topic := range devTopics(t) {
		t.Run(topic.request, func(t *testing.T) {
			c := &chat{t: t, b: b}
			q, end := c.say(topic.request)
			rejected, yesNoAsked := map[string]bool{}, false
			for !end {
				yesNoAsked = yesNoAsked || yesNo[words(q)[0]]
				for w := range ownTerms(q, topic.request) {
					rejected[w] = true
				}
				q, end = c.say("no")
				if end {
					break
				}
				if own := ownTerms(q, topic.request); shares(own, rejected) {
					t.Fatalf("after no to %v the bot asked %q", rejected, q)
				}
			}
			closing := c.close()
			checkClosing(t, closing, topic.request)
			if yesNoAsked && !strings.Contains(closing, "not ") {
				t.Errorf("closing %q does not say what was ruled out", closing)
			}
		})
	}
}

func TestNarrowingAnswerIsKept(t *testing.T) {
	b := NewBrain(testRanker(t), offline.New())
	n := 0
	for _, topic := range devTopics(t) {
		for _, a := range topic.answers {
			rest, _ := cutLead(a, answerLeads)
			t.Run(topic.request+"/"+a, func(t *testing.T) {
				c := &chat{t: t, b: b}
				q, end := c.say(topic.request)
				if end {
					t.Skip("the request is clear")
				}
				narrow := minus(minus(set(terms(rest)), set(terms(topic.request))), set(terms(q)))
				if len(narrow) == 0 || strings.Contains(a, "know") || strings.Contains(a, "sure") {
					t.Skip("the answer adds nothing to the request")
				}
				n++
				next, end := c.say(a)
				if !end && !shares(ownTerms(next, topic.request), narrow) {
					t.Errorf("after %q the bot asked %q, broader than the need", a, next)
				}
				closing := c.close()
				checkClosing(t, closing, topic.request)
				for w := range narrow {
					if !shares(set(terms(closing)), map[string]bool{w: true}) {
						t.Errorf("closing %q leaves out %q of the answer %q", closing, w, a)
					}
				}
			})
		}
	}
	if n < 50 {
		t.Errorf("only %d narrowing answers tried", n)
	}
}

func TestClosingExamples(t *testing.T) {
	tests := []struct {
		d    Dialogue
		want string
	}{
		{Dialogue{Request: "I would like to know more about raspberry pi", Questions: []string{"Would you like to know about raspberry pi camera?"}, Answers: []string{"no, I want to install a media server on my pi 4"}},
			"Got it — you're after raspberry pi: you want to install a media server on your pi 4. I'll look for that. Goodbye!"},
		{Dialogue{Request: "Tell me about kiwi", Questions: []string{"Are you looking for information on the fruit kiwi?"}, Answers: []string{"yes"}},
			"Got it — you're after kiwi: in particular the fruit kiwi. I'll look for that. Goodbye!"},
		{Dialogue{Request: "What is von Willebrand Disease?"},
			"Your request is clear: you'd like to know about von Willebrand Disease. I'll look for that. Goodbye!"},
		{Dialogue{Request: "tell me about memory", Questions: []string{"Are you interested in computer memory?"}, Answers: []string{"nope"}},
			"Got it — you're after memory: not computer memory. I'll look for that. Goodbye!"},
	}
	for _, tt := range tests {
		t.Run(tt.d.Request, func(t *testing.T) {
			if got := closing(tt.d); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func FuzzDialogueSmallTalk(f *testing.F) {
	f.Add("hi, can you help me?", "tell me about kiwi", "no, I want the bird")
	f.Add("Hello there I have a question Tell me about \"memory\"", "", "yes")
	f.Add("", "?!,", "i dont know")
	f.Fuzz(func(t *testing.T, first, second, answer string) {
		req := brain.Request{Turns: []brain.Turn{{Role: brain.Partner, Text: first}, {Role: brain.Bot, Text: "x?"},
			{Role: brain.Partner, Text: second}, {Role: brain.Bot, Text: "are you looking for a map?"}, {Role: brain.Partner, Text: answer}}}
		d := ReadDialogue(req)
		// The request is made of the partner's own words, never a greeting's.
		said := set(append(append(words(first), words(second)...), words(answer)...))
		for _, w := range words(d.Request) {
			if !said[w] {
				t.Fatalf("request %q has %q, which the partner never wrote", d.Request, w)
			}
		}
		if ws := words(d.Request); len(ws) > 0 && (ws[0] == "hi" || ws[0] == "hello") {
			t.Fatalf("request %q opens with the greeting", d.Request)
		}
		c := closing(d)
		if c == "" || strings.ContainsAny(c, "\"“") {
			t.Fatalf("closing %q", c)
		}
	})
}
