package agent

import (
	"errors"
	"fmt"

	"github.com/ternhq/tern/tools"
)

// ErrRecording is wrapped by the error Options.BeforeRequest or
// Options.BeforeTool return when the session log could not be written: the
// turn stops before the next model request or tool call, so nothing runs
// that the log would not hold. Interfaces recognise it to offer going on
// without recording.
var ErrRecording = errors.New("recording the session failed")

// beforeRequest runs Options.BeforeRequest, when set, with the events
// emitted so far; its error stops the turn before the request.
func (t *turn) beforeRequest() error {
	if hook := t.a.opts.BeforeRequest; hook != nil {
		return hook(t.ctx, t.a.emitted.Load())
	}
	return nil
}

// beforeTool runs Options.BeforeTool, when set, with the events emitted so
// far; its error stops the turn before the call.
func (t *turn) beforeTool() error {
	if hook := t.a.opts.BeforeTool; hook != nil {
		return hook(t.ctx, t.a.emitted.Load())
	}
	return nil
}

// notRunStopped is the result of a call left unrun because the turn
// stopped on err before it.
func notRunStopped(err error) ToolResult {
	return ToolResult{
		Status:  tools.StatusError,
		Output:  fmt.Sprintf("Not run: the turn stopped before this call (%v).", err),
		Summary: "not run",
	}
}
