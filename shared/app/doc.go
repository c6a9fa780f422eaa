// Package app wires Duet together from its configuration: the session
// store, the reply engine and the chat engines. The Lambda functions and the
// duet CLI both call it, so that deployed and local runs are built alike.
package app
