package provider

import (
	"errors"
	"fmt"
	"time"
)

// ErrorKind classifies provider failures so callers can decide on retries and
// tell the user what to do without knowing any vendor's error types.
type ErrorKind int

// The error kinds; the set is closed.
const (
	// ErrAuth is a 401 or 403: the key is missing, wrong or lacks access.
	ErrAuth ErrorKind = iota + 1
	// ErrRateLimited is a 429; RetryAfter holds the gateway's hint.
	ErrRateLimited
	// ErrServer is a 5xx or an overloaded gateway.
	ErrServer
	// ErrContextTooLong means the request does not fit the model's window.
	ErrContextTooLong
	// ErrBadRequest is a 400 other than a too-long context.
	ErrBadRequest
	// ErrModelNotFound is a 404 for the model id.
	ErrModelNotFound
	// ErrNetwork covers refused connections, DNS, TLS, timeouts and streams
	// that ended before the model finished.
	ErrNetwork
	// ErrProtocol is a stream the gateway sent that cannot be understood,
	// such as a malformed JSON chunk.
	ErrProtocol
	// ErrCancelled means the caller cancelled the context.
	ErrCancelled
)

// String names the kind as it appears in the public JSON events.
func (k ErrorKind) String() string {
	switch k {
	case ErrAuth:
		return "auth"
	case ErrRateLimited:
		return "rate_limited"
	case ErrServer:
		return "server"
	case ErrContextTooLong:
		return "context_too_long"
	case ErrBadRequest:
		return "bad_request"
	case ErrModelNotFound:
		return "model_not_found"
	case ErrNetwork:
		return "network"
	case ErrProtocol:
		return "protocol"
	case ErrCancelled:
		return "cancelled"
	}
	return "unknown"
}

// Retryable reports whether a failure of this kind may succeed when retried.
func (k ErrorKind) Retryable() bool {
	switch k {
	case ErrRateLimited, ErrServer, ErrNetwork:
		return true
	case ErrAuth, ErrContextTooLong, ErrBadRequest, ErrModelNotFound, ErrProtocol, ErrCancelled:
		return false
	}
	return false
}

// Error is a classified provider failure. Message is written for the user: it
// says what happened and what to do.
type Error struct {
	Kind ErrorKind
	// Status is the HTTP status when there was one, else 0.
	Status int
	// Message says what happened and what to do about it.
	Message string
	// RetryAfter is the wait the gateway asked for, if any.
	RetryAfter time.Duration
	// Err is the underlying cause.
	Err error
}

func (e *Error) Error() string {
	if e.Status != 0 {
		return fmt.Sprintf("%s (HTTP %d): %s", e.Kind, e.Status, e.Message)
	}
	return fmt.Sprintf("%s: %s", e.Kind, e.Message)
}

func (e *Error) Unwrap() error { return e.Err }

// KindOf returns the kind of a provider error, or 0 when err is not one.
func KindOf(err error) ErrorKind {
	var pe *Error
	if errors.As(err, &pe) {
		return pe.Kind
	}
	return 0
}

// IsRetryable reports whether err is a provider error of a retryable kind.
func IsRetryable(err error) bool {
	return KindOf(err).Retryable()
}
