// Package httpapi holds the bots' HTTP API handlers, written against API
// Gateway's HTTP API events (payload format 2.0). The Lambda functions pass
// them to lambda.Start; `duet serve` mounts the same handlers through
// apigw.HTTP, so what runs locally is what runs deployed.
package httpapi
