// Package retry holds the waiting rules that every client in Duet shares:
// a context-aware Sleep, one reader of the "wait this long" headers that
// servers send (retry-after-ms, and Retry-After in seconds or as an HTTP
// date), one rule for when a wait is too long to sleep, and an exponential
// backoff with jitter for when the server did not say.
//
// The cap rule is the same everywhere: a client sleeps the wait a server
// asks for only when it is no longer than the client's limit and ends
// before the context's deadline. Otherwise it does not sleep at all (a
// shorter sleep would only be throttled again): it returns its last error
// at once, still retryable, and the caller tries again later.
package retry
