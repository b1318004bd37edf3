package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// listMaxEntries is the most paths list_files returns in one call.
const listMaxEntries = 1000

// listArgs are list_files' parameters.
type listArgs struct {
	Path    string `json:"path"`
	Pattern string `json:"pattern"`
}

type listFilesTool struct{ w *Workspace }

// NewListFiles returns the list_files tool: the files under a directory of
// the workspace, filtered by a glob, with .gitignore respected.
func NewListFiles(w *Workspace) Tool { return &listFilesTool{w: w} }

var listFilesSchema = objectSchema(
	param{Name: "path", Type: "string",
		Description: "Directory to list, relative to the workspace root. Default: the root."},
	param{Name: "pattern", Type: "string",
		Description: "Glob matched against paths relative to path, e.g. \"**/*.go\" or \"cmd/*/main.go\". " +
			"\"*\" stays within one directory and \"**\" crosses directories, so \"*.go\" only matches files directly in path. " +
			"Default: all files."},
)

// ListFilesName is the name the model calls list_files by.
const ListFilesName = "list_files"

// listGuidance is list_files's rule in the system prompt.
const listGuidance = "Use list_files to find files by glob pattern; it respects .gitignore."

// Spec describes list_files to the model.
func (t *listFilesTool) Spec() Spec {
	return Spec{
		Name:     ListFilesName,
		Guidance: listGuidance,
		Description: "List the files under a directory of the workspace, recursively, optionally filtered by a glob pattern. " +
			"Files excluded by .gitignore, the .git directory and secret files are left out. " +
			"Paths are relative to the workspace root, one per line, sorted; names with unusual characters are shown quoted. " +
			"At most 1000 paths are returned; use a narrower path or pattern to see the rest.",
		Parameters: listFilesSchema,
	}
}

// Kind is KindRead: listing never asks for approval.
func (t *listFilesTool) Kind() Kind { return KindRead }

// Preview names the directory and pattern.
func (t *listFilesTool) Preview(_ context.Context, args json.RawMessage) (Preview, error) {
	var a listArgs
	if err := decodeToolArgs(args, &a); err != nil {
		return Preview{}, err
	}
	where := "."
	if a.Path != "" {
		where = a.Path
	}
	if _, rel, err := t.w.Resolve(a.Path); err == nil {
		where = rel
	}
	title := "list " + displayPath(where)
	if a.Pattern != "" {
		title += " " + displayPath(a.Pattern)
	}
	return Preview{Title: title}, nil
}

// Run walks the directory and lists the matching files.
func (t *listFilesTool) Run(ctx context.Context, args json.RawMessage, _ func(string)) Result {
	var a listArgs
	if err := decodeToolArgs(args, &a); err != nil {
		return errorResult(err.Error())
	}
	pattern := strings.TrimPrefix(a.Pattern, "./")
	if pattern != "" && !doublestar.ValidatePattern(pattern) {
		return errorResult(fmt.Sprintf("invalid glob pattern %q: check brackets and braces; \"**\" must be a whole path segment, as in \"src/**/*.go\"", a.Pattern))
	}
	_, rel, err := t.w.Resolve(a.Path)
	if err != nil {
		return errorResult(err.Error())
	}
	if inGitDir(rel) {
		return errorResult(gitRefusal(rel))
	}
	info, err := t.w.statInside(rel)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return errorResult(fmt.Sprintf("%s does not exist; list the parent directory to see what is there", displayPath(rel)))
	case err != nil:
		return errorResult(fmt.Sprintf("list %s: %v", displayPath(rel), err))
	}
	base := rel
	if base == "." {
		base = ""
	}

	var opts walkOptions
	if pattern != "" {
		opts.keep = func(p string) bool {
			sub := p
			switch {
			case !info.IsDir():
				sub = p[strings.LastIndexByte(p, '/')+1:]
			case base != "":
				sub = strings.TrimPrefix(p, base+"/")
			}
			return doublestar.MatchUnvalidated(pattern, sub)
		}
	}

	budget := outputCap(t.w) - listFooterRoom
	var b strings.Builder
	shown, total, full := 0, 0, false
	stats, err := walkFiles(ctx, t.w, rel, opts, func(f walkFile) error {
		total++
		if full {
			return nil
		}
		name := displayPath(f.rel)
		if shown >= listMaxEntries || (shown > 0 && b.Len()+len(name)+1 > budget) {
			// Later files are only counted, so the note can say how many.
			full = true
			return nil
		}
		b.WriteString(name)
		b.WriteByte('\n')
		shown++
		return nil
	})
	if err != nil {
		if ctx.Err() != nil {
			return Result{Status: StatusCancelled, Output: "list_files cancelled"}
		}
		return errorResult(fmt.Sprintf("list %s: %v", displayPath(rel), err))
	}

	var out strings.Builder
	out.WriteString(b.String())
	where := displayPath(rel)
	if total == 0 {
		if a.Pattern != "" {
			fmt.Fprintf(&out, "No files match %s under %s.", displayPath(a.Pattern), where)
			if !strings.Contains(pattern, "/") && !strings.HasPrefix(pattern, "**") {
				fmt.Fprintf(&out, " The pattern only matches files directly in %s; use %s to search subdirectories too.", where, displayPath("**/"+pattern))
			}
		} else {
			fmt.Fprintf(&out, "No files under %s.", where)
		}
		out.WriteByte('\n')
	}
	if total > shown {
		fmt.Fprintf(&out, "[%d more files left out (%d of %d shown); list a narrower path or use a more specific pattern]\n", total-shown, shown, total)
	}
	if stats.secret > 0 {
		fmt.Fprintf(&out, "[%s hidden: secret files such as .env are not shown (the patterns are configurable)]\n", plural(stats.secret, "secret file"))
	}
	summary := plural(total, "file")
	if total > shown {
		summary = fmt.Sprintf("%s (%d shown)", summary, shown)
	}
	return Result{
		Status:  StatusOK,
		Output:  Cap(strings.TrimSuffix(out.String(), "\n"), outputCap(t.w), "list a narrower path or use a more specific pattern"),
		Summary: summary,
	}
}

// listFooterRoom is kept free in the output budget for the closing notes.
const listFooterRoom = 400

// plural renders a count with its noun: "1 file", "3 files".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
