package offline

import (
	"context"
	"strings"

	"github.com/duetbot/duet/shared/brain"
)

// maxReply keeps replies the length of a chat message.
const maxReply = 280

// poolSize is how many topics a reply rotates through.
const poolSize = 4

// Reply writes the bot's next message in a ConvAI chat. It is deterministic:
// the same request gives the same reply. It returns ErrPersona when
// req.Persona is set, and the context's error when ctx is already done.
func (b *Brain) Reply(ctx context.Context, req brain.Request) (string, error) {
	if req.Persona != nil {
		return "", ErrPersona
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	c := b.contexts.get(req.Context)
	if req.Closing {
		return farewell(req, c), nil
	}
	return compose(req, c, &b.texts), nil
}

// farewells take leave when the chat ends after this reply; %s is the
// context's main topic.
var farewells = []string{
	"It was good talking about %s with you. Bye!",
	"Thanks for the chat about %s. Take care!",
	"Nice talking about %s. See you!",
	"Thanks, that was fun. Goodbye!",
}

// farewell is the last reply of a chat: it says goodbye, mentioning the
// topic when there is one.
func farewell(req brain.Request, c *analysedContext) string {
	seed := seedOf(req)
	topic := ""
	if len(c.pool) > 0 {
		topic = c.pool[0].text
		if a := c.pool[0].article; a != "" {
			topic = a + " " + topic
		}
	}
	said := newHistory(req.Turns)
	for i := range farewells {
		f := farewells[(int(seed%uint64(len(farewells)))+i)%len(farewells)]
		if strings.Contains(f, "%s") {
			if topic == "" {
				continue
			}
			f = strings.Replace(f, "%s", topic, 1)
		}
		if !said.has(normalize(f)) {
			return f
		}
	}
	return "Bye for now, and thanks!"
}

// compose chooses the move for req, whose context is c, and renders a reply the bot has not sent
// in this chat before.
func compose(req brain.Request, c *analysedContext, texts *textCache) string {
	seed := seedOf(req)
	said := newHistory(req.Turns)
	ctxPool := c.pool

	var plans []plan
	last, ok := req.LastPartner()
	if !ok {
		plans = append(plans, pairPlan(openers, ctxPool, 0))
	} else {
		msg := texts.get(last)
		switch {
		case msg.realRatio() < 0.5:
			plans = append(plans, pairPlan(clarifyGarbled, ctxPool, seed))
		case msg.question && (msg.content > 0 || startsQuestion(msg)):
			plans = append(plans, answerPlans(msg, ctxPool, seed, texts)...)
		case msg.content == 0:
			// Vague: the clarifying plan below comes first.
		default:
			plans = append(plans, reactPlan(msg, ctxPool, seed))
		}
	}
	for i, p := range plans {
		if s, ok := p.choose(seed+uint64(i), said); ok {
			return s
		}
	}
	// The clarifying and opening plans come next; they are made only
	// when the plans above all collide.
	clarify := pairPlan(clarifyVague, ctxPool, seed)
	if s, ok := clarify.choose(seed+uint64(len(plans)), said); ok {
		return s
	}
	if s, ok := pairPlan(openers, ctxPool, seed).choose(seed+uint64(len(plans)+1), said); ok {
		return s
	}
	first := clarify
	if len(plans) > 0 {
		first = plans[0]
	}
	s, _ := first.choose(seed, nil)
	return distinguish(s, said)
}

// seedOf hashes the request text and the turn index (FNV-1a), then mixes
// the bits so that every part of the seed is usable.
func seedOf(req brain.Request) uint64 {
	// FNV-1a written out, as hash/fnv computes it, so that the context
	// (up to 8 KB) and the message are not copied into byte slices.
	const offset64, prime64 = 14695981039346656037, 1099511628211
	x := uint64(offset64)
	add := func(c byte) {
		x ^= uint64(c)
		x *= prime64
	}
	for i := 0; i < len(req.Context); i++ {
		add(req.Context[i])
	}
	add(0)
	last, _ := req.LastPartner()
	for i := 0; i < len(last); i++ {
		add(last[i])
	}
	for n, i := uint64(len(req.Turns)), 0; i < 8; i++ { // little-endian
		add(byte(n >> (8 * i)))
	}
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}
