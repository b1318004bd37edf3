package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
)

// DiagnosticsName is the name the model calls diagnostics by.
const DiagnosticsName = "diagnostics"

// maxListedDiagnostics is the most lines one diagnostics call lists.
const maxListedDiagnostics = 200

// diagnosticsArgs are diagnostics' parameters.
type diagnosticsArgs struct {
	Path string `json:"path"`
}

// diagnosticsTool implements diagnostics.
type diagnosticsTool struct{ w *Workspace }

// NewDiagnostics returns the diagnostics tool: what the workspace's
// language servers report for a file, a folder or the whole workspace. It
// needs w.Diagnoser; without one it says the servers are off.
func NewDiagnostics(w *Workspace) Tool { return &diagnosticsTool{w: w} }

var diagnosticsSchema = objectSchema(
	param{Name: "path", Type: "string",
		Description: "A file or folder, relative to the workspace root. Default: the whole workspace."},
)

// diagnosticsGuidance is the tool's rule in the system prompt.
const diagnosticsGuidance = "edit_file and write_file append the language server's errors for the file they changed; " +
	"call diagnostics to see the errors of a folder or the whole workspace, for example after run_shell changed files."

// Spec describes diagnostics to the model.
func (t *diagnosticsTool) Spec() Spec {
	return Spec{
		Name:     DiagnosticsName,
		Guidance: diagnosticsGuidance,
		Description: "List the errors and warnings the workspace's language servers (gopls, rust-analyzer, pyright, ...) report, " +
			"one per line as path:line:col: severity: message, sorted. Files changed on disk since (by run_shell, for example) are sent to the servers first. " +
			"Servers start when a file of their language is first read or edited; a language without a running server is not covered.",
		Parameters: diagnosticsSchema,
	}
}

// Kind is KindRead: asking the servers never asks for approval.
func (t *diagnosticsTool) Kind() Kind { return KindRead }

// Preview names the file or folder.
func (t *diagnosticsTool) Preview(_ context.Context, args json.RawMessage) (Preview, error) {
	var a diagnosticsArgs
	if err := decodeToolArgs(args, &a); err != nil {
		return Preview{}, err
	}
	where := "the workspace"
	if _, rel, err := t.w.Resolve(a.Path); err == nil && rel != "." {
		where = displayPath(rel)
	}
	return Preview{Title: "diagnostics of " + where}, nil
}

// Run asks the language servers for the diagnostics under the path.
func (t *diagnosticsTool) Run(ctx context.Context, args json.RawMessage, _ func(string)) Result {
	var a diagnosticsArgs
	if err := decodeToolArgs(args, &a); err != nil {
		return errorResult(fmt.Sprintf("%v; expected {path?}", err))
	}
	if t.w.Diagnoser == nil {
		return errorResult("language servers are off in this session (lsp = false in config.toml); build or vet through run_shell instead")
	}
	abs, rel, err := t.w.Resolve(a.Path)
	if err != nil {
		return errorResult(err.Error())
	}
	if inGitDir(rel) {
		return errorResult(gitRefusal(rel))
	}
	if rel != "." && (t.w.IsSecret(rel) || t.w.IsSecret(a.Path)) {
		return errorResult(secretRefusal(t.w, rel))
	}
	info, err := t.w.statInside(rel)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return errorResult(fmt.Sprintf("%s does not exist", displayPath(rel)))
	case err != nil:
		return errorResult(fmt.Sprintf("diagnostics of %s: %v", displayPath(rel), err))
	case !info.IsDir():
		// A file is sent to its server: only one read_file would read
		// (not a link to a secret file).
		o, err := t.w.openRead(rel)
		var refused *shownError
		switch {
		case errors.As(err, &refused):
			return errorResult(refused.msg)
		case err != nil:
			return errorResult(fmt.Sprintf("diagnostics of %s: %v", displayPath(rel), err))
		}
		_ = o.f.Close()
	}
	rep := t.w.Diagnoser.Current(ctx, abs)
	if ctx.Err() != nil {
		return Result{Status: StatusCancelled, Output: "diagnostics cancelled", Summary: "cancelled"}
	}
	var ds []Diagnostic
	for _, d := range rep.Diagnostics {
		if (rel == "." || d.Path == rel || strings.HasPrefix(d.Path, rel+"/")) && !t.w.IsSecret(d.Path) {
			ds = append(ds, d)
		}
	}
	sortDiagnostics(ds)
	where := "the workspace"
	if rel != "." {
		where = displayPath(rel)
	}
	var b strings.Builder
	servers := strings.Join(rep.Servers, ", ")
	switch {
	case len(ds) == 0 && servers == "":
		fmt.Fprintf(&b, "No language server covers %s yet: a server starts when a file of its language is read or edited, "+
			"or here when its project file (go.mod, Cargo.toml, package.json, ...) is in the folder or the workspace root and the server is installed.", where)
	case len(ds) == 0:
		fmt.Fprintf(&b, "No diagnostics for %s (%s).", where, servers)
	default:
		fmt.Fprintf(&b, "Diagnostics for %s from %s: %s\n", where, servers, CountDiagnostics(ds))
		writeDiagnosticLines(&b, ds, maxListedDiagnostics)
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(&b, "\n(%s)", n)
	}
	summary := CountDiagnostics(ds)
	if summary == "" {
		summary = "no diagnostics"
	}
	return Result{
		Status:      StatusOK,
		Output:      Cap(strings.TrimSuffix(b.String(), "\n"), outputCap(t.w), "call diagnostics on a narrower path"),
		Summary:     summary,
		Diagnostics: CountDiagnostics(ds),
	}
}
