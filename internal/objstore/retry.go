package objstore

import (
	"context"
	"errors"
	"io"
	"net"
	"syscall"
	"time"
)

// Transient failures are asked again: attempts in all, the wait doubling from
// firstWait. The drivers' clients try each request once (internal/objstore/clouds),
// so this loop is the one retry policy, a body cut short after the response began
// included.
const (
	attempts  = 6
	firstWait = 100 * time.Millisecond
)

// retryWait is firstWait; tests shorten it.
var retryWait = firstWait

// Retry calls do until it succeeds, fails for good, or ctx ends: a driver's calls
// that may be asked again (a part upload, a commit) go through it.
func Retry(ctx context.Context, do func() error) error {
	wait := retryWait
	var err error
	for i := range attempts {
		if err = do(); err == nil || !transient(err) || i == attempts-1 {
			return err
		}
		select {
		case <-ctx.Done():
			return errors.Join(ctx.Err(), err)
		case <-time.After(wait):
		}
		wait *= 2
	}
	return err
}

// Transient marks err, a store's answer, as worth asking again (a 5xx, a 429);
// nil stays nil.
func Transient(err error) error {
	if err == nil {
		return nil
	}
	return transientError{err}
}

// transientError is an error Transient marked.
type transientError struct{ error }

func (e transientError) Unwrap() error { return e.error }

// transient reports whether err may pass if asked again.
func transient(err error) bool {
	var te transientError
	var ne net.Error
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded),
		errors.Is(err, ErrNotFound), errors.Is(err, ErrDenied), errors.Is(err, ErrWholeObject), errors.Is(err, ErrNotLinked):
		return false
	case errors.As(err, &te):
		return true
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.EPIPE),
		errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return true
	case errors.As(err, &ne):
		return true
	}
	return false
}
