package hooks

import (
	"encoding/json"
	"fmt"
	"path"
	"time"
)

// Event is a point of a session where hooks run; the set is closed.
type Event string

// The events.
const (
	BeforeTool   Event = "before_tool"
	AfterTool    Event = "after_tool"
	Prompt       Event = "prompt"
	TurnEnd      Event = "turn_end"
	SessionStart Event = "session_start"
)

// Events lists the events in the order the docs name them.
var Events = []Event{BeforeTool, AfterTool, Prompt, TurnEnd, SessionStart}

// ParseEvent checks an event name from a configuration.
func ParseEvent(s string) (Event, error) {
	for _, e := range Events {
		if string(e) == s {
			return e, nil
		}
	}
	return "", fmt.Errorf("unknown hook event %q: before_tool, after_tool, prompt, turn_end or session_start", s)
}

// DefaultTimeout bounds a hook that names no timeout.
const DefaultTimeout = 30 * time.Second

// OutputCap bounds what is kept of a hook's stdout and of its stderr.
const OutputCap = 8 << 10

// Hook is one configured hook.
type Hook struct {
	Event Event
	// Match is a glob over tool names (path.Match syntax) for the tool
	// events; "" matches every tool.
	Match   string
	Command string
	// Timeout is how long it may run; 0 means DefaultTimeout.
	Timeout time.Duration
	// Source and Line say where it was configured.
	Source string
	Line   int
}

// Where is "file:line", for /permissions and warnings.
func (h Hook) Where() string {
	if h.Line > 0 {
		return fmt.Sprintf("%s:%d", h.Source, h.Line)
	}
	return h.Source
}

// matches reports whether the hook runs for in.
func (h Hook) matches(in Input) bool {
	if h.Event != in.Event {
		return false
	}
	if h.Match == "" || in.Tool == nil {
		return true
	}
	ok, err := path.Match(h.Match, in.Tool.Name)
	return err == nil && ok
}

// ValidateMatch checks a match glob.
func ValidateMatch(glob string) error {
	if _, err := path.Match(glob, ""); err != nil {
		return fmt.Errorf("match %q: %w", glob, err)
	}
	return nil
}

// Input is the JSON object a hook reads on stdin.
type Input struct {
	Event     Event  `json:"event"`
	SessionID string `json:"session_id"`
	Workspace string `json:"workspace"`
	// Tool is the call of before_tool and after_tool.
	Tool *Tool `json:"tool,omitempty"`
	// Result is after_tool's outcome.
	Result *Result `json:"result,omitempty"`
	// Prompt is the user's message (prompt).
	Prompt string `json:"prompt,omitempty"`
	// Answer is the turn's last answer (turn_end).
	Answer string `json:"answer,omitempty"`
}

// Tool is a tool call as a hook sees it.
type Tool struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// Result is a tool call's outcome as a hook sees it; Output as capped.
type Result struct {
	Status string `json:"status"`
	Output string `json:"output"`
}

// Run is how one hook ran.
type Run struct {
	Hook  Hook
	Event Event
	// Tool is the tool the run was about, "" for the other events.
	Tool string
	// Exit is the exit code (-1 when it did not exit by itself).
	Exit           int
	Stdout, Stderr string
	Duration       time.Duration
	// TimedOut is set when the timeout killed it; Err when it could not
	// be started or waited for.
	TimedOut bool
	Err      error
}

// Blocked reports an exit 2 of a before_tool hook (the call is denied) or
// a prompt hook (the prompt is not sent); elsewhere exit 2 is a failure.
func (r Run) Blocked() bool {
	return r.Err == nil && !r.TimedOut && r.Exit == 2 && (r.Event == BeforeTool || r.Event == Prompt)
}

// OK reports an exit 0.
func (r Run) OK() bool { return r.Err == nil && !r.TimedOut && r.Exit == 0 }

// Warning is what the user is told of a run that neither went on nor
// blocked (any other exit, a crash, a timeout, or an exit 2 where it
// means nothing); "" otherwise.
func (r Run) Warning() string {
	where := fmt.Sprintf("hook %s (%s)", r.Hook.Command, r.Event)
	if w := r.Hook.Where(); w != "" {
		where = fmt.Sprintf("hook %s (%s, %s)", r.Hook.Command, r.Event, w)
	}
	switch {
	case r.Err != nil:
		return fmt.Sprintf("%s could not run: %v", where, r.Err)
	case r.TimedOut:
		return fmt.Sprintf("%s timed out after %s and was stopped", where, r.Hook.timeout())
	case r.OK():
		return ""
	case r.Blocked():
		return ""
	}
	msg := fmt.Sprintf("%s exited with %d", where, r.Exit)
	if r.Stderr != "" {
		msg += ": " + firstLine(r.Stderr)
	}
	return msg
}

func (h Hook) timeout() time.Duration {
	if h.Timeout > 0 {
		return h.Timeout
	}
	return DefaultTimeout
}
