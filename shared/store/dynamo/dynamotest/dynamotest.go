// Package dynamotest finds the DynamoDB server (moto or dynalite) that the
// DynamoDB suites run against, and skips them, all with one message, when
// there is none.
package dynamotest

import (
	"os"
	"testing"
)

// EnvVar names the variable holding the server's endpoint. `make test`
// sets it, for moto and then for dynalite.
const EnvVar = "DYNAMODB_ENDPOINT"

// Endpoint returns the endpoint in EnvVar, or skips t when it is not set.
func Endpoint(t testing.TB) string {
	t.Helper()
	endpoint := os.Getenv(EnvVar)
	if endpoint == "" {
		t.Skip("DynamoDB not configured: " + EnvVar + " is not set; run `eval \"$(./.ci/moto)\"` (or ./.ci/dynalite) first, as make test does")
	}
	return endpoint
}
