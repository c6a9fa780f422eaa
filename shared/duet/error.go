package duet

import (
	"errors"
	"fmt"
)

// Error codes. They say what kind of failure happened, not where, so that
// one place (package apigw) can turn them into HTTP statuses.
const (
	EINVALID      = "invalid"      // the input can never succeed as sent
	EUNAUTHORIZED = "unauthorized" // a missing or wrong secret
	ENOTFOUND     = "not_found"    // the thing asked for does not exist (or expired)
	ECONFLICT     = "conflict"     // a conditional write lost a race
	ETOOLARGE     = "too_large"    // a body over the limit
	EMETHOD       = "method"       // a method the endpoint does not serve
	EUNAVAILABLE  = "unavailable"  // a downstream failed; a retry may succeed
	EINTERNAL     = "internal"     // a bug
)

// Error is an application error: Code classifies it, Message is safe to show
// a client. The wrapped Err, if any, carries the internal detail for logs.
type Error struct {
	Code    string
	Message string
	Err     error
}

func (e *Error) Error() string {
	switch {
	case e.Err != nil && e.Message != "":
		return e.Message + ": " + e.Err.Error()
	case e.Err != nil:
		return e.Err.Error()
	}
	return e.Message
}

// Unwrap lets errors.Is and errors.As see the cause.
func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error with the code and a client-safe formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Wrap returns an *Error with the code whose message is shown to clients and
// whose cause err is kept for logs. It returns nil when err is nil.
func Wrap(code string, err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Err: err}
}

// Code returns the code of the first *Error in err's chain, EINTERNAL for
// any other non-nil error, and "" for nil.
func Code(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return EINTERNAL
}

// Message returns the client-safe message of err: that of the first *Error
// in its chain, or a generic text that leaks nothing.
func Message(err error) string {
	var e *Error
	if errors.As(err, &e) && e.Message != "" {
		return e.Message
	}
	return "internal error"
}

// Sentinel errors the stores return; compare with errors.Is.
var (
	ErrNotFound = Errorf(ENOTFOUND, "not found")
	ErrConflict = Errorf(ECONFLICT, "changed concurrently")
)
