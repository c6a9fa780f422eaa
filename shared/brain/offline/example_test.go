package offline_test

import (
	"context"
	"fmt"

	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/brain/offline"
)

func Example() {
	b := offline.New()
	ctx := context.Background()
	req := brain.Request{Context: "You're sitting watching TV, and suddenly you discover a wasp crawling on your wrist. What you gonna do?"}

	opener, _ := b.Reply(ctx, req)
	fmt.Println(opener)

	req.Turns = append(req.Turns,
		brain.Turn{Role: brain.Bot, Text: opener},
		brain.Turn{Role: brain.Partner, Text: "I'd stay very still and let the wasp fly away. Would you?"})
	rating, _ := b.Rate(ctx, req)
	answer, _ := b.Reply(ctx, req)
	fmt.Println(rating, answer)

	req.Turns = append(req.Turns,
		brain.Turn{Role: brain.Bot, Text: answer},
		brain.Turn{Role: brain.Partner, Text: "ok"})
	rating, _ = b.Rate(ctx, req)
	clarify, _ := b.Reply(ctx, req)
	fmt.Println(rating, clarify)

	scores, _ := b.Final(ctx, req)
	fmt.Printf("%+v\n", scores)
	// Output:
	// So, the wasp and your wrist. Which would you deal with first?
	// 8 I'd take it slowly; the wasp isn't worth panicking over. Have you ever been in a situation like that?
	// 2 No worries. If you had to guess, what would you do about the wasp?
	// {Quality:5 Breadth:3 Engagement:4 Score:0 Profile:<nil>}
}

// A ConvAI2 chat: the router sends the bot's profile after /start, and the
// bot plays that person, in its own words.
func ExampleBrain_Reply_profile() {
	b := offline.New()
	ctx := context.Background()
	req := brain.Request{Context: "i like to ride horses.\ni help tend the fields.\ni have three arabian horses.\nmy father is a farmer."}
	for _, msg := range []string{"", "hi! do you have any pets?", "i have two dogs. i work as a nurse.", "what is your favorite food?"} {
		if msg != "" {
			req.Turns = append(req.Turns, brain.Turn{Role: brain.Partner, Text: msg})
		}
		reply, _ := b.Reply(ctx, req)
		fmt.Println(reply)
		req.Turns = append(req.Turns, brain.Turn{Role: brain.Bot, Text: reply})
	}
	// Output:
	// Hey there! How's your day going?
	// I do! I've got 3 arabian horses. And you?
	// Oh wow, you work as a nurse? I like that. My father: farmer. Do you have a big family?
	// Hard to pick a favourite food, honestly. And you?
}
