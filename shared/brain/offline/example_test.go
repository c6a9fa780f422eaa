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
	// 8 Me? I'd deal with the wasp first and think later. Do you see it differently?
	// 2 Do you mean you'd just ignore your wrist?
	// {Quality:5 Breadth:3 Engagement:4 Score:0 Profile:<nil>}
}
