package nadine

import (
	"errors"
	"fmt"
)

// Error codes carried by errors that callers act on. Everything else is an
// internal failure, wrapped with context.
const (
	EINVALID     = "invalid"      // bad input: empty text, bad config, unknown language
	ENOTFOUND    = "not_found"    // no such user, memory, checkpoint
	EUNAVAILABLE = "unavailable"  // a server cannot be reached, timed out or failed (5xx)
	ERATELIMIT   = "rate_limited" // a server refused for load (HTTP 429)
	EBADOUTPUT   = "bad_output"   // a model answered something unusable
	EINTERNAL    = "internal"     // a bug or an unexpected failure
)

// Error is an error with a code that callers can act on.
type Error struct {
	Code    string // one of the E* constants
	Message string // the whole human-readable text, no secrets
	Err     error  // optional cause, for errors.Is and errors.As
}

// Error implements error. It returns Message, or the cause's text when
// Message is empty.
func (e *Error) Error() string {
	if e.Message == "" && e.Err != nil {
		return e.Err.Error()
	}
	return e.Message
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error with the given code and formatted message. A %w
// verb in format wraps its argument as the cause.
func Errorf(code, format string, args ...any) *Error {
	err := fmt.Errorf(format, args...)
	return &Error{Code: code, Message: err.Error(), Err: errors.Unwrap(err)}
}

// ErrorCode returns the code of the first *Error in err's chain, EINTERNAL
// for any other non-nil error, and "" for nil.
func ErrorCode(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return EINTERNAL
}
