package app

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/ternhq/tern/agent"
)

// waitRecorded is the agent's BeforeRequest and BeforeTool: it waits until
// the log holds the events emitted so far (what the model is about to be
// sent, tool results included, survives a kill) and has written them. When
// the log could not be written (a full disk, a failing TERN_HOME) it
// returns an agent.ErrRecording error, which stops the turn before
// anything more runs, until the user chooses to go on unrecorded. It
// returns nil at once without a log, after that choice, and when ctx ends
// (the turn is cancelled and nothing follows).
func (l *sessionLog) waitRecorded(ctx context.Context, emitted uint64) error {
	if l == nil || l.unrecorded.Load() {
		return nil
	}
	err := l.recorder.Check(ctx, emitted)
	if err == nil || l.unrecorded.Load() {
		return nil
	}
	return recordingError(err, l.interactive)
}

// recordingError says that recording failed, why, and what the user can
// do: in the interface, go on unrecorded; headless, fix it and run again.
func recordingError(err error, interactive bool) error {
	if interactive {
		return fmt.Errorf("%w: %v; nothing more runs (no model request, no tool call) "+
			"until you choose to go on without recording (/unrecorded); the log keeps everything written before the failure",
			agent.ErrRecording, err)
	}
	return fmt.Errorf("%w: %v; the run stops before anything more runs: "+
		"free space in TERN_HOME or fix the error, then run again (the log keeps everything written before the failure)",
		agent.ErrRecording, err)
}

// continueUnrecorded is the user's choice, after the log could not be
// written, to go on without recording; it reports whether recording had
// failed (false: there was nothing to continue from).
func (l *sessionLog) continueUnrecorded() bool {
	if l == nil {
		return false
	}
	if l.recorder.Err() == nil {
		return false
	}
	l.unrecorded.Store(true)
	return true
}

// openFailure stands in for a session log that could not be opened (a full
// disk, a TERN_HOME that cannot be written): every model request and tool
// call is refused until the user chooses to go on without recording.
type openFailure struct {
	err         error
	interactive bool
	unrecorded  atomic.Bool
}

// check is the agent's BeforeRequest and BeforeTool without a log.
func (f *openFailure) check(context.Context, uint64) error {
	if f.unrecorded.Load() {
		return nil
	}
	return recordingError(f.err, f.interactive)
}

// continueUnrecorded is the user's choice to go on without a log.
func (f *openFailure) continueUnrecorded() bool {
	return !f.unrecorded.Swap(true)
}

// recordGate is the agent's BeforeRequest and BeforeTool: the log's check,
// the refusal of a log that could not be opened, or nil without either.
func recordGate(log *sessionLog, failed *openFailure) func(context.Context, uint64) error {
	switch {
	case failed != nil:
		return failed.check
	case log != nil:
		return log.waitRecorded
	}
	return nil
}

// continueUnrecorded is the interface's /unrecorded for the log or its
// failure; nil when nothing is recorded anyway.
func continueUnrecorded(log *sessionLog, failed *openFailure) func() bool {
	switch {
	case failed != nil:
		return failed.continueUnrecorded
	case log != nil:
		return log.continueUnrecorded
	}
	return nil
}
