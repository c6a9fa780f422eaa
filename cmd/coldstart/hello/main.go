// Command hello is the baseline of .ci/coldstart/run: the smallest Go Lambda
// that aws-lambda-go makes, built with the same flags as Duet's functions.
// Their INIT durations are compared with its.
package main

import (
	"context"
	"encoding/json"

	"github.com/aws/aws-lambda-go/lambda"
)

func main() {
	lambda.Start(func(context.Context, json.RawMessage) (string, error) {
		return "hello", nil
	})
}
