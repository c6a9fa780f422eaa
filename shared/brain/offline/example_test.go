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
	// Interesting one. Would you deal with the wasp right away or wait and see?
	// 8 Honestly, I'd stay calm and deal with the wasp first. How about you?
	// 2 Could you say a bit more? Is it your wrist that matters, or the TV?
	// {Quality:5 Breadth:3 Engagement:4}
}
