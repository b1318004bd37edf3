package agent

import "time"

// SetRetry sets how often a failed model call is tried again and how long
// the agent waits before each try, for tests outside the package (the soak
// test records through package session, which imports agent): real
// backoffs would make it run for minutes.
func SetRetry(a *Agent, maxRetries int, backoff func(attempt int, err error) time.Duration) {
	a.maxRetries, a.backoff = maxRetries, backoff
}
