// Command hellodynamo is hello-world plus what any function on DynamoDB
// needs at start: the AWS SDK's configuration and one DynamoDB client, made
// as Duet's functions make theirs. .ci/coldstart/run prints its INIT beside the
// functions' as the floor that the SDK sets; nothing is checked against it.
package main

import (
	"context"
	"encoding/json"
	"log"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/duetbot/duet/shared/store/dynamo"
)

func main() {
	client, err := dynamo.NewClient(context.Background(), os.Getenv("DYNAMODB_ENDPOINT"))
	if err != nil {
		log.Fatal(err)
	}
	lambda.Start(func(context.Context, json.RawMessage) (string, error) {
		if client == nil {
			return "", nil
		}
		return "hello", nil
	})
}
