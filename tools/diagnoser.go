package tools

import (
	"context"
)

// Severity is how bad a language server says a diagnostic is.
type Severity int

// The severities of the language server protocol; the set is closed.
const (
	SeverityError Severity = iota + 1
	SeverityWarning
	SeverityInfo
	SeverityHint
)

// String names the severity as diagnostics lines print it.
func (s Severity) String() string {
	switch s {
	case SeverityError:
		return "error"
	case SeverityWarning:
		return "warning"
	case SeverityInfo:
		return "info"
	case SeverityHint:
		return "hint"
	}
	return "unknown"
}

// Diagnostic is one problem a language server reports in a file.
type Diagnostic struct {
	// Path is the file's workspace-relative, slash-separated path.
	Path string
	// Line and Col are 1-based; Col counts characters.
	Line, Col int
	Severity  Severity
	Message   string
	// Source is what produced it ("compiler", "go vet"), if the server says.
	Source string
}

// DiagnosticReport is what the language servers know about some files.
type DiagnosticReport struct {
	// Servers names the servers that answered, e.g. "gopls".
	Servers []string
	// Diagnostics are every diagnostic found, in no particular order.
	Diagnostics []Diagnostic
	// Notes say what went wrong on the way: a server that did not answer
	// in time, one that crashed. They go to the model as they are.
	Notes []string
}

// Diagnoser reports what language servers say about the workspace's
// files. The file tools call it through Workspace.Diagnoser when it is set;
// tools/lsp implements it. Every method returns promptly: a server that is
// slow, hung or gone costs at most the implementation's wait.
type Diagnoser interface {
	// Touch tells that the file at abs was read: the server for its
	// language may start in the background. It never blocks.
	Touch(abs string)
	// Changed sends the new content of the file at abs to its server and
	// waits for the diagnostics of that change. handled is false when no
	// server covers the file (the report is then empty).
	Changed(ctx context.Context, abs string, content []byte) (report DiagnosticReport, handled bool)
	// Current returns the diagnostics the servers hold for the file or
	// folder at abs, after telling them about files changed on disk since
	// they last heard of them.
	Current(ctx context.Context, abs string) DiagnosticReport
}

// touch tells the workspace's diagnoser, if any, that abs was read.
func (w *Workspace) touch(abs string) {
	if w.Diagnoser != nil {
		w.Diagnoser.Touch(abs)
	}
}
