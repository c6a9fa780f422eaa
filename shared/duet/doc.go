// Package duet holds the vocabulary every other Duet package shares: the
// error type with its codes. It imports nothing of AWS or HTTP; adapters map
// the codes to their own world (see package apigw for HTTP statuses).
package duet
