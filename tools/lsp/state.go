package lsp

// State is where a server is in its life.
type State int

// The states of a server; the set is closed.
const (
	// StateStarting: the process runs and initialize has not answered yet.
	StateStarting State = iota + 1
	// StateRunning: initialized, taking documents.
	StateRunning
	// StateFailed: it could not start, or crashed again after its restart.
	StateFailed
	// StateStopped: tern stopped it.
	StateStopped
)

// String names the state for /lsp.
func (s State) String() string {
	switch s {
	case StateStarting:
		return "starting"
	case StateRunning:
		return "running"
	case StateFailed:
		return "failed"
	case StateStopped:
		return "stopped"
	}
	return "unknown"
}
