package offline

import (
	"context"
	"math/bits"
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
		return farewell(req, c, &b.read), nil
	}
	if c.profile != nil {
		return composePersona(req, c, &b.read), nil
	}
	return compose(req, c, &b.read), nil
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
func farewell(req brain.Request, c *analysedContext, rc *readCache) string {
	seed := seedOf(req, c, rc)
	said := newHistory(req.Turns, rc)
	if c.profile != nil {
		for i := range personaFarewells {
			f := personaFarewells[(int(seed%uint64(len(personaFarewells)))+i)%len(personaFarewells)]
			if !said.says(f) {
				return f
			}
		}
		return "Bye for now, and thanks!"
	}
	topic := ""
	if len(c.pool) > 0 {
		topic = c.pool[0].text
		if a := c.pool[0].article; a != "" {
			topic = a + " " + topic
		}
	}
	// Those that name the topic first, when there is one.
	for pass := range 2 {
		for i := range farewells {
			f := farewells[(int(seed%uint64(len(farewells)))+i)%len(farewells)]
			if strings.Contains(f, "%s") != (pass == 0) {
				continue
			}
			if pass == 0 {
				if topic == "" {
					continue
				}
				f = strings.Replace(f, "%s", topic, 1)
			}
			if !said.says(f) {
				return f
			}
		}
	}
	return "Bye for now, and thanks!"
}

// compose chooses the move for req, whose context is c, and renders a reply the bot has not sent
// in this chat before.
func compose(req brain.Request, c *analysedContext, rc *readCache) string {
	seed := seedOf(req, c, rc)
	said := newHistory(req.Turns, rc)
	ctxPool := c.pool

	var plans []plan
	last, ok := req.LastPartner()
	if !ok {
		plans = append(plans, pairPlan(c.voice.openers, ctxPool, 0))
	} else {
		msg := rc.text(last)
		switch {
		case msg.realRatio() < 0.5:
			plans = append(plans, pairPlan(clarifyGarbled, ctxPool, seed))
		case msg.question && (msg.content > 0 || startsQuestion(msg)):
			plans = append(plans, answerPlans(msg, ctxPool, seed, rc, c.voice)...)
		case msg.content == 0:
			// Vague: the clarifying plan below comes first.
		default:
			plans = append(plans, reactPlan(msg, ctxPool, seed, c.voice))
		}
	}
	for i, p := range plans {
		if s, ok := p.choose(seed+uint64(i), &said); ok {
			return s
		}
	}
	// The clarifying and opening plans come next; they are made only
	// when the plans above all collide.
	clarify := pairPlan(c.voice.clarifyVague, ctxPool, seed)
	if s, ok := clarify.choose(seed+uint64(len(plans)), &said); ok {
		return s
	}
	if s, ok := pairPlan(c.voice.openers, ctxPool, seed).choose(seed+uint64(len(plans)+1), &said); ok {
		return s
	}
	first := clarify
	if len(plans) > 0 {
		first = plans[0]
	}
	s, _ := first.choose(seed, nil)
	return distinguish(s, &said)
}

// seedOf mixes the hashes (FNV-1a) of the context and of the partner's
// last message, both made once when they are analysed, with the number of
// turns, so that every part of the seed is usable.
func seedOf(req brain.Request, c *analysedContext, rc *readCache) uint64 {
	x := c.hash
	if last, ok := req.LastPartner(); ok {
		x ^= bits.RotateLeft64(rc.text(last).hash, 17)
	}
	x ^= uint64(len(req.Turns)) * 0x9e3779b97f4a7c15
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}
