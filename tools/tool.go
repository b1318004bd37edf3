// Package tools holds the tools the model can call (one file each, gathered
// in default.go), the workspace guard every path goes through, and the
// output caps. It is the only place that runs user commands.
package tools

import (
	"context"
	"encoding/json"

	"github.com/ternhq/tern/tools/imaging"
)

// Kind says how approval policies treat a tool.
type Kind int

// The tool kinds; the set is closed.
const (
	// KindRead only reads inside the workspace; it never asks under any policy.
	KindRead Kind = iota + 1
	// KindEdit changes files inside the workspace.
	KindEdit
	// KindShell runs a command.
	KindShell
	// KindExternal is a tool of an MCP server (tools/mcp): a program the
	// user configured, outside the workspace guard and the sandbox.
	KindExternal
	// KindNetwork reaches the network (web_fetch): it asks under ask and
	// auto-edit, like a command.
	KindNetwork
)

// String names the kind for messages and docs.
func (k Kind) String() string {
	switch k {
	case KindRead:
		return "read"
	case KindEdit:
		return "edit"
	case KindShell:
		return "shell"
	case KindExternal:
		return "mcp"
	case KindNetwork:
		return "network"
	}
	return "unknown"
}

// Spec describes a tool to the model; it mirrors provider.ToolSpec without
// importing the provider layer.
type Spec struct {
	Name        string
	Description string
	// Parameters is a JSON Schema object.
	Parameters json.RawMessage
	// Guidance is the tool's rule in the system prompt, written only when the
	// tool is offered; it is not part of the spec sent with requests.
	Guidance string
}

// Preview is what a user sees before approving a call.
type Preview struct {
	// Title is a one-line summary, e.g. "edit internal/app.go" or "run go test ./...".
	Title string
	// Path is the workspace-relative file an edit touches, if any.
	Path string
	// Diff is a unified diff for edits and writes.
	Diff string
	// Command and Workdir are set for shell commands.
	Command string
	Workdir string
	// URL is set for web_fetch: the full address, query string included.
	URL string
}

// Status is how a tool call ended.
type Status int

// The statuses a result can carry; the set is closed.
const (
	StatusOK Status = iota + 1
	StatusError
	StatusDenied
	StatusCancelled
)

// String gives the public name of the status.
func (s Status) String() string {
	switch s {
	case StatusOK:
		return "ok"
	case StatusError:
		return "error"
	case StatusDenied:
		return "denied"
	case StatusCancelled:
		return "cancelled"
	}
	return "unknown"
}

// Result is what a tool returns: the text for the model, plus a short summary
// for humans.
type Result struct {
	Status Status
	// Output is the text sent back to the model (already capped).
	Output string
	// Summary is a one-line human summary such as "120 lines" or "7 matches".
	Summary string
	// ExitCode is set by run_shell.
	ExitCode int
	// SandboxNote is set by run_shell when a confined command failed with
	// a permission error: what the sandbox allows, also at the end of
	// Output, so the interface can say the sandbox may have refused it.
	SandboxNote string
	// Diagnostics is set by edit_file and write_file when a language
	// server reported problems in the changed file or others: their count,
	// "2 errors, 1 warning", for a compact line on the tool card.
	Diagnostics string
	// Images are pictures the result carries (read_file of an image, an
	// MCP server's image content). Output describes them in words; the
	// agent sends them to a model that takes images, after the results.
	Images []imaging.Image
}

// Tool is one callable tool. Args are the raw JSON arguments the model sent,
// already repaired and checked against Spec().Parameters by the caller.
type Tool interface {
	Spec() Spec
	Kind() Kind
	// Preview describes what Run would do, without side effects.
	Preview(ctx context.Context, args json.RawMessage) (Preview, error)
	// Run executes the call. output receives live output chunks (run_shell);
	// it may be nil. Run must return promptly when ctx is cancelled.
	Run(ctx context.Context, args json.RawMessage, output func(string)) Result
}

// StreamRunner is a Tool whose live output comes from two streams, so that
// an interface can draw a command's errors apart from its output. The Result
// is what Run would return; the streams only matter while it runs.
type StreamRunner interface {
	// RunStreams is Run with standard output and standard error sent to
	// separate functions (either may be nil).
	RunStreams(ctx context.Context, args json.RawMessage, stdout, stderr func(string)) Result
}
