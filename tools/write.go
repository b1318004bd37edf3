package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync"
)

// writeSchema returns write_file's parameter schema; part of the public contract.
// It is built once, when first asked for: every Specs call (the registry,
// the session header's hash, the prompt, each request) asked for it again.
var writeSchema = sync.OnceValue(func() json.RawMessage {
	return objectSchema(
		param{Name: "path", Type: "string", Required: true,
			Description: "The file to create or overwrite: a path relative to the workspace root, or an absolute path inside the workspace. Missing parent directories are created."},
		param{Name: "content", Type: "string", Required: true,
			Description: "The complete new content of the file; it replaces everything the file held."},
	)
})

const writeDescription = "Create a file, or replace the whole content of an existing one. " +
	"Missing parent directories are created. " +
	"Overwriting an existing file is refused unless you read it with read_file earlier in this session and it has not changed on disk since you last read or wrote it. " +
	"When overwriting a file that uses CRLF line endings, content written with LF line endings is converted to CRLF. " +
	"For a targeted change to an existing file, prefer edit_file."

// writeArgs are write_file's parameters.
type writeArgs struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}

// writeFile implements write_file.
type writeFile struct {
	w *Workspace
}

// NewWriteFile returns the write_file tool, which creates files and
// overwrites files the model has read, inside workspace w.
func NewWriteFile(w *Workspace) Tool { return &writeFile{w: w} }

// WriteFileName is the name the model calls write_file by.
const WriteFileName = "write_file"

// writeGuidance is write_file's rule in the system prompt.
const writeGuidance = "Use write_file only to create new files or to rewrite a file completely; read an existing file before overwriting it."

// Spec describes write_file to the model.
func (t *writeFile) Spec() Spec {
	return Spec{Name: WriteFileName, Guidance: writeGuidance, Description: writeDescription, Parameters: writeSchema()}
}

// Kind is KindEdit: writes ask for approval under the default policy.
func (t *writeFile) Kind() Kind { return KindEdit }

// defaultNewFileMode is the permission of files write_file creates.
const defaultNewFileMode fs.FileMode = 0o644

// writePlan is a computed write: everything Run writes and Preview shows.
type writePlan struct {
	abs, rel string
	exists   bool
	before   string
	after    string
	mode     fs.FileMode
}

// Preview shows the diff against the current content, without writing.
func (t *writeFile) Preview(ctx context.Context, args json.RawMessage) (Preview, error) {
	p, err := t.plan(ctx, args)
	if err != nil {
		return Preview{}, err
	}
	title := "create " + displayPath(p.rel)
	if p.exists {
		title = "write " + displayPath(p.rel)
	}
	return Preview{Title: title, Path: p.rel, Diff: UnifiedDiff(p.rel, p.before, p.after)}, nil
}

// Run writes the file. The plan is computed again, so a file that appeared
// or changed while the call waited for approval is refused, not clobbered.
func (t *writeFile) Run(ctx context.Context, args json.RawMessage, _ func(string)) Result {
	if ctx.Err() != nil {
		return Result{Status: StatusCancelled, Output: "cancelled by the user; nothing was written", Summary: "cancelled"}
	}
	p, err := t.plan(ctx, args)
	if err != nil {
		return failureResult(err)
	}
	if err := t.w.beforeWrite(p.abs, p.rel); err != nil {
		return failureResult(fmt.Errorf("write %s: nothing was written because the file's current state could not be saved first: %w", displayPath(p.rel), err))
	}
	if err := t.w.writeContent(ctx, p.abs, p.rel, []byte(p.after), p.mode, !p.exists); err != nil {
		return failureResult(fmt.Errorf("write %s: %w", displayPath(p.rel), err))
	}
	t.w.Files.Record(p.abs, []byte(p.after))
	t.w.afterWrite(p.abs, p.rel, []byte(p.after))

	lines := countLines(p.after)
	unit := "lines"
	if lines == 1 {
		unit = "line"
	}
	var res Result
	if !p.exists {
		res = Result{Status: StatusOK, Output: fmt.Sprintf("Created %s (%d %s).", displayPath(p.rel), lines, unit), Summary: fmt.Sprintf("created, %d %s", lines, unit)}
	} else {
		added, removed := lineDelta(p.before, p.after)
		res = Result{
			Status:  StatusOK,
			Output:  fmt.Sprintf("Overwrote %s (%d %s; +%d -%d lines).", displayPath(p.rel), lines, unit, added, removed),
			Summary: fmt.Sprintf("overwrote, %d %s", lines, unit),
		}
	}
	diag, counts := t.w.afterChange(ctx, p.abs, p.rel, []byte(p.after))
	if counts != "" {
		res.Summary += ", " + counts
	}
	res.Output = Cap(res.Output+diag, outputCap(t.w), "call diagnostics on "+displayPath(p.rel)+" to see them all")
	res.Diagnostics = counts
	return res
}

// plan validates the call and computes the write without side effects.
func (t *writeFile) plan(ctx context.Context, raw json.RawMessage) (writePlan, error) {
	var a writeArgs
	if err := decodeToolArgs(raw, &a); err != nil {
		return writePlan{}, &toolError{short: "invalid arguments", msg: fmt.Sprintf("%v; expected {path, content}", err)}
	}
	if a.Path == "" {
		return writePlan{}, &toolError{short: "no path", msg: "path is required"}
	}
	abs, rel, err := t.w.Resolve(a.Path)
	if err != nil {
		return writePlan{}, &toolError{short: "refused", msg: err.Error()}
	}
	if err := t.w.CheckWritable(rel); err != nil {
		return writePlan{}, &toolError{short: "refused", msg: err.Error()}
	}
	if rel == "." {
		return writePlan{}, &toolError{short: "is a directory", msg: "the path is the workspace root; give a file path"}
	}
	p := writePlan{abs: abs, rel: rel, after: a.Content, mode: defaultNewFileMode}
	o, err := t.w.openChange(rel)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return p, nil
	case err != nil:
		return writePlan{}, &toolError{short: "refused", msg: fmt.Sprintf("write %s: %v", displayPath(rel), err)}
	}
	defer func() { _ = o.f.Close() }()
	fi := o.info
	switch {
	case fi.IsDir():
		return writePlan{}, &toolError{short: "is a directory", msg: fmt.Sprintf("%s is a directory, not a file", displayPath(rel))}
	case !fi.Mode().IsRegular():
		return writePlan{}, &toolError{short: "not a regular file", msg: fmt.Sprintf("%s is not a regular file", displayPath(rel))}
	}
	data, err := t.w.readContent(ctx, abs, o.f, fi.Size())
	if err != nil {
		return writePlan{}, fmt.Errorf("read %s: %w", displayPath(rel), err)
	}
	if err := checkFresh(t.w, abs, rel, data, "overwriting"); err != nil {
		return writePlan{}, err
	}
	p.exists = true
	p.before = string(data)
	p.mode = fi.Mode().Perm()
	if usesCRLF(p.before) && !strings.Contains(p.after, "\r\n") {
		p.after = toCRLF(p.after)
	}
	return p, nil
}

// countLines counts lines the way editors do: a final line without a line
// break still counts.
func countLines(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}
