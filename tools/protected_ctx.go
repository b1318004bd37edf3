package tools

import "context"

// protectedWritesKey marks a context in which run_shell leaves the
// protected paths writable.
type protectedWritesKey struct{}

// WithProtectedWrites returns ctx marked so that run_shell does not bind
// the protected paths read-only for the command it runs: the user approved
// this very command after being told that it writes them. The fingerprint
// around the call still shows what changed and asks to keep it.
func WithProtectedWrites(ctx context.Context) context.Context {
	return context.WithValue(ctx, protectedWritesKey{}, true)
}

// ProtectedWritesAllowed reports whether ctx was marked by
// WithProtectedWrites.
func ProtectedWritesAllowed(ctx context.Context) bool {
	v, _ := ctx.Value(protectedWritesKey{}).(bool)
	return v
}
