package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"sync"
)

// editSchema returns edit_file's parameter schema; part of the public contract.
// It is built once, when first asked for: every Specs call (the registry,
// the session header's hash, the prompt, each request) asked for it again.
var editSchema = sync.OnceValue(func() json.RawMessage {
	return objectSchema(
		param{Name: "path", Type: "string", Required: true,
			Description: "The file to edit: a path relative to the workspace root, or an absolute path inside the workspace. The file must exist."},
		param{Name: "old_string", Type: "string", Required: true,
			Description: "The exact text to replace, character for character: indentation, spaces and line breaks included, without the line-number prefixes that read_file adds. " +
				"It must occur exactly once in the file unless replace_all is true; include a few surrounding lines to make it unique. Must not be empty."},
		param{Name: "new_string", Type: "string", Required: true,
			Description: "The text to put in place of old_string; it must differ from old_string. An empty string deletes old_string."},
		param{Name: "replace_all", Type: "boolean",
			Description: "Replace every occurrence of old_string instead of requiring exactly one. Default false."},
	)
})

const editDescription = "Replace an exact string in an existing file. " +
	"Read the file with read_file earlier in this session first: the edit is refused if you have not read the file, " +
	"or if it changed on disk since you last read or wrote it. " +
	"old_string must match the file exactly (whitespace and indentation included) and occur exactly once, unless replace_all is true. " +
	"If it is not found, the error shows the most similar region of the file with line numbers so you can retry. " +
	"The file's line endings (LF or CRLF) are kept. To create a file or rewrite all of it, use write_file."

// editArgs are edit_file's parameters.
type editArgs struct {
	Path       string `json:"path"`
	OldString  string `json:"old_string"`
	NewString  string `json:"new_string"`
	ReplaceAll bool   `json:"replace_all"`
}

// editFile implements edit_file.
type editFile struct {
	w *Workspace
}

// NewEditFile returns the edit_file tool, which replaces an exact string in a
// file the model has read, inside workspace w.
func NewEditFile(w *Workspace) Tool { return &editFile{w: w} }

// EditFileName is the name the model calls edit_file by.
const EditFileName = "edit_file"

// editGuidance is edit_file's rule in the system prompt.
const editGuidance = "Prefer edit_file for changes to existing files: old_string must match the file exactly (whitespace included) and occur once, so include enough surrounding lines to make it unique. Read the file first."

// Spec describes edit_file to the model.
func (t *editFile) Spec() Spec {
	return Spec{Name: EditFileName, Guidance: editGuidance, Description: editDescription, Parameters: editSchema()}
}

// Kind is KindEdit: edits ask for approval under the default policy.
func (t *editFile) Kind() Kind { return KindEdit }

// editPlan is a computed edit: everything Run writes and Preview shows.
type editPlan struct {
	abs, rel      string
	before, after string
	mode          fs.FileMode
	// count is how many occurrences were replaced.
	count int
	// at and newLen locate the first replacement in after.
	at, newLen int
}

// Preview shows the diff the edit would make, without writing anything.
func (t *editFile) Preview(ctx context.Context, args json.RawMessage) (Preview, error) {
	p, err := t.plan(ctx, args)
	if err != nil {
		return Preview{}, err
	}
	return Preview{Title: "edit " + displayPath(p.rel), Path: p.rel, Diff: UnifiedDiff(p.rel, p.before, p.after)}, nil
}

// Run makes the edit. The plan is computed again, so a file that changed
// while the call waited for approval is refused rather than clobbered.
func (t *editFile) Run(ctx context.Context, args json.RawMessage, _ func(string)) Result {
	if ctx.Err() != nil {
		return Result{Status: StatusCancelled, Output: "cancelled by the user; the file was not changed", Summary: "cancelled"}
	}
	p, err := t.plan(ctx, args)
	if err != nil {
		return failureResult(err)
	}
	if err := t.w.beforeWrite(p.abs, p.rel); err != nil {
		return failureResult(fmt.Errorf("edit %s: the file was not changed because its current content could not be saved first: %w", displayPath(p.rel), err))
	}
	if err := t.w.writeContent(ctx, p.abs, p.rel, []byte(p.after), p.mode, false); err != nil {
		return failureResult(fmt.Errorf("edit %s: %w", displayPath(p.rel), err))
	}
	t.w.Files.Record(p.abs, []byte(p.after))
	t.w.afterWrite(p.abs, p.rel, []byte(p.after))

	added, removed := lineDelta(p.before, p.after)
	summary := fmt.Sprintf("+%d -%d lines", added, removed)
	var b strings.Builder
	if p.count == 1 {
		fmt.Fprintf(&b, "Edited %s: replaced 1 occurrence (+%d -%d lines). The edited region now reads:\n", displayPath(p.rel), added, removed)
		b.WriteString(editedRegion(p.after, p.at, p.newLen))
	} else {
		summary += fmt.Sprintf(", %d replacements", p.count)
		fmt.Fprintf(&b, "Edited %s: replaced %d occurrences (+%d -%d lines).", displayPath(p.rel), p.count, added, removed)
	}
	diag, counts := t.w.afterChange(ctx, p.abs, p.rel, []byte(p.after))
	if counts != "" {
		summary += ", " + counts
	}
	return Result{Status: StatusOK, Output: Cap(b.String()+diag, outputCap(t.w), "call read_file on "+displayPath(p.rel)+" to see the whole file"),
		Summary: summary, Diagnostics: counts}
}

// plan validates the call and computes the new content without side effects.
func (t *editFile) plan(ctx context.Context, raw json.RawMessage) (editPlan, error) {
	var a editArgs
	if err := decodeToolArgs(raw, &a); err != nil {
		return editPlan{}, &toolError{short: "invalid arguments", msg: fmt.Sprintf("%v; expected {path, old_string, new_string, replace_all?}", err)}
	}
	if a.Path == "" {
		return editPlan{}, &toolError{short: "no path", msg: "path is required"}
	}
	if a.OldString == "" {
		return editPlan{}, &toolError{short: "empty old_string", msg: "old_string is empty; edit_file replaces existing text. To create a file or replace all of its content, use write_file"}
	}
	if a.OldString == a.NewString {
		return editPlan{}, &toolError{short: "no change", msg: "old_string and new_string are identical, so the edit would change nothing"}
	}
	abs, rel, err := t.w.Resolve(a.Path)
	if err != nil {
		return editPlan{}, &toolError{short: "refused", msg: err.Error()}
	}
	if err := t.w.CheckWritable(rel); err != nil {
		return editPlan{}, &toolError{short: "refused", msg: err.Error()}
	}
	o, err := t.w.openChange(rel)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return editPlan{}, &toolError{short: "no such file", msg: fmt.Sprintf("%s does not exist; use write_file to create it", displayPath(rel))}
	case err != nil:
		return editPlan{}, &toolError{short: "refused", msg: fmt.Sprintf("edit %s: %v", displayPath(rel), err)}
	}
	defer func() { _ = o.f.Close() }()
	fi := o.info
	switch {
	case fi.IsDir():
		return editPlan{}, &toolError{short: "is a directory", msg: fmt.Sprintf("%s is a directory, not a file", displayPath(rel))}
	case !fi.Mode().IsRegular():
		return editPlan{}, &toolError{short: "not a regular file", msg: fmt.Sprintf("%s is not a regular file", displayPath(rel))}
	}
	data, err := t.w.readContent(ctx, abs, o.f, fi.Size())
	if err != nil {
		return editPlan{}, fmt.Errorf("read %s: %w", displayPath(rel), err)
	}
	if err := checkFresh(t.w, abs, rel, data, "editing"); err != nil {
		return editPlan{}, err
	}
	content := string(data)

	old, repl := a.OldString, a.NewString
	var positions []int
	for _, c := range lineEndingCandidates(content, a.OldString, a.NewString) {
		if positions = indexAll(content, c[0]); len(positions) > 0 {
			old, repl = c[0], c[1]
			break
		}
	}
	switch {
	case len(positions) == 0:
		return editPlan{}, &toolError{short: "old_string not found", msg: notFoundMessage(rel, content, a.OldString)}
	case len(positions) > 1 && !a.ReplaceAll:
		return editPlan{}, &toolError{short: fmt.Sprintf("old_string found %d times", len(positions)), msg: ambiguousMessage(rel, content, positions)}
	}
	p := editPlan{abs: abs, rel: rel, before: content, mode: fi.Mode().Perm(), at: positions[0], newLen: len(repl)}
	if a.ReplaceAll {
		p.count = strings.Count(content, old)
		p.after = strings.ReplaceAll(content, old, repl)
	} else {
		p.count = 1
		p.after = content[:positions[0]] + repl + content[positions[0]+len(old):]
	}
	return p, nil
}

// checkFresh refuses to change a file the model has not seen as it is now:
// never read, or changed on disk since it last read or wrote it.
func checkFresh(w *Workspace, abs, rel string, data []byte, doing string) error {
	if !w.Files.Changed(abs, data) {
		return nil
	}
	if w.IsSecret(rel) && !w.Files.Seen(abs) {
		return &toolError{short: "secret file", msg: fmt.Sprintf(
			"%s is a secret file that tern's tools do not read, so it cannot be changed without reading it first; ask the user to change it", displayPath(rel))}
	}
	return &toolError{short: "file not read or changed on disk", msg: fmt.Sprintf(
		"%s has not been read in this session, or it changed on disk since you last read or wrote it; call read_file on %s again before %s it", displayPath(rel), displayPath(rel), doing)}
}

// lineEndingCandidates lists the (old, new) pairs to try, best first: the
// strings converted to the file's line endings (so a model sending \n edits
// a CRLF file and the file stays CRLF), then the strings as sent.
func lineEndingCandidates(content, old, repl string) [][2]string {
	var conv [2]string
	switch {
	case usesCRLF(content):
		conv = [2]string{toCRLF(old), toCRLF(repl)}
	case !strings.Contains(content, "\r\n"):
		conv = [2]string{toLF(old), toLF(repl)}
	default:
		return [][2]string{{old, repl}}
	}
	if conv[0] == old && conv[1] == repl {
		return [][2]string{conv}
	}
	return [][2]string{conv, {old, repl}}
}

// usesCRLF reports whether most of s's line breaks are CRLF.
func usesCRLF(s string) bool {
	crlf := strings.Count(s, "\r\n")
	return crlf > 0 && crlf >= strings.Count(s, "\n")-crlf
}

// toLF turns CRLF line breaks into LF.
func toLF(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }

// toCRLF turns every line break into CRLF.
func toCRLF(s string) string { return strings.ReplaceAll(toLF(s), "\n", "\r\n") }

// indexAll returns the byte offsets of every occurrence of sub in s,
// overlapping ones included: any of them makes old_string ambiguous.
func indexAll(s, sub string) []int {
	var out []int
	for off := 0; off <= len(s)-len(sub); {
		i := strings.Index(s[off:], sub)
		if i < 0 {
			break
		}
		out = append(out, off+i)
		off += i + 1
	}
	return out
}

// lineAt returns the 1-based line number of byte offset off in s.
func lineAt(s string, off int) int { return strings.Count(s[:off], "\n") + 1 }

// maxListedLines limits the line numbers listed for an ambiguous old_string.
const maxListedLines = 10

// ambiguousMessage explains that old_string occurs more than once and where.
func ambiguousMessage(rel, content string, positions []int) string {
	var lines []string
	for i, p := range positions {
		if i == maxListedLines {
			lines = append(lines, fmt.Sprintf("and %d more", len(positions)-maxListedLines))
			break
		}
		lines = append(lines, fmt.Sprint(lineAt(content, p)))
	}
	return fmt.Sprintf("old_string occurs %d times in %s (starting at lines %s). "+
		"Include more surrounding lines in old_string so that it matches exactly one place, "+
		"or set replace_all to true to replace every occurrence.", len(positions), displayPath(rel), strings.Join(lines, ", "))
}

// editedRegionContext is how many lines around an edit the result shows.
const editedRegionContext = 3

// maxRegionLines limits the numbered lines an edit result or error shows.
const maxRegionLines = 60

// editedRegion numbers the lines of after around the replacement at
// [at, at+n), with a little context, in read_file's format.
func editedRegion(after string, at, n int) string {
	lines := splitFileLines(after)
	if len(lines) == 0 {
		return "(the file is now empty)\n"
	}
	first := lineAt(after, at) - 1
	last := first
	if n > 0 {
		last = lineAt(after, at+n-1) - 1
	}
	from := max(0, first-editedRegionContext)
	to := min(len(lines)-1, last+editedRegionContext)
	var b strings.Builder
	for i := from; i <= to; i++ {
		if i-from == maxRegionLines {
			fmt.Fprintf(&b, "... (%d more lines; read_file to see them)\n", to-i+1)
			break
		}
		fmt.Fprintf(&b, "%6d\t%s\n", i+1, lines[i])
	}
	return b.String()
}

// splitFileLines splits s into lines without their line breaks (LF or CRLF);
// a final line break does not start another line.
func splitFileLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// maxSimilarityPairs bounds the fuzzy search for the nearest region (pairs of
// file line and old_string line compared); past it only lines equal up to
// whitespace count, which keeps huge files fast.
const maxSimilarityPairs = 1_000_000

// notFoundMessage explains that old_string is not in the file and shows the
// region most similar to it, numbered like read_file, so the model can retry.
func notFoundMessage(rel, content, old string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "old_string was not found in %s.", displayPath(rel))

	fileLines := splitFileLines(content)
	oldLines := splitFileLines(old)
	numbered := false
	if stripped, ok := stripLineNumbers(oldLines); ok {
		b.WriteString(" old_string seems to include the line-number prefixes that read_file adds (\"    12\\t\"); leave them out.")
		oldLines, numbered = stripped, true
	}
	if len(fileLines) == 0 {
		fmt.Fprintf(&b, " %s is empty; use write_file to give it content.", displayPath(rel))
		return b.String()
	}
	start, n, score := nearestRegion(fileLines, oldLines)
	exact := numbered && strings.Contains(strings.Join(fileLines, "\n"), strings.Join(oldLines, "\n"))
	wsOnly := !exact && matchesIgnoringSpace(fileLines, oldLines)
	if wsOnly {
		b.WriteString(" It does match when whitespace is ignored: the file differs in indentation or spacing" +
			" (tabs versus spaces, the number of spaces, or trailing spaces). Copy those characters exactly as the file has them.")
	}
	if score <= 0 {
		fmt.Fprintf(&b, " Nothing in %s resembles it; call read_file on %s to see its current content.", displayPath(rel), displayPath(rel))
		return b.String()
	}
	switch {
	case exact || wsOnly:
		fmt.Fprintf(&b, "\nThe matching region is lines %d-%d:\n", start+1, start+n)
	case n == 1:
		fmt.Fprintf(&b, "\nThe most similar region is line %d (%.0f%% similar):\n", start+1, score*100)
	default:
		fmt.Fprintf(&b, "\nThe most similar region is lines %d-%d (%.0f%% similar):\n", start+1, start+n, score*100)
	}
	for i := start; i < start+n; i++ {
		if i-start == maxRegionLines {
			fmt.Fprintf(&b, "... (%d more lines)\n", start+n-i)
			break
		}
		fmt.Fprintf(&b, "%6d\t%s\n", i+1, fileLines[i])
	}
	fmt.Fprintf(&b, "Retry with old_string copied exactly from the file (without the line-number prefixes), or call read_file on %s to see more of it.", displayPath(rel))
	return b.String()
}

// stripLineNumbers removes read_file's "%6d\t" prefixes when every non-empty
// line carries one, which is a common mistake when copying from its output.
func stripLineNumbers(lines []string) ([]string, bool) {
	out := make([]string, len(lines))
	seen := false
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		tab := strings.IndexByte(l, '\t')
		if tab < 0 {
			return nil, false
		}
		num := strings.TrimLeft(l[:tab], " ")
		if num == "" || strings.Trim(num, "0123456789") != "" {
			return nil, false
		}
		out[i] = l[tab+1:]
		seen = true
	}
	return out, seen
}

// normalizeSpace collapses runs of whitespace into one space and trims the ends.
func normalizeSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// matchesIgnoringSpace reports whether old's lines occur in the file once
// every run of whitespace is collapsed, i.e. old_string differs from the
// file only in indentation or spacing.
func matchesIgnoringSpace(fileLines, oldLines []string) bool {
	norm := func(ls []string) string {
		out := make([]string, len(ls))
		for i, l := range ls {
			out[i] = normalizeSpace(l)
		}
		return strings.Join(out, "\n")
	}
	o := strings.TrimSpace(norm(oldLines))
	return o != "" && strings.Contains(norm(fileLines), o)
}

// nearestRegion finds the window of len(oldLines) consecutive file lines
// most similar to oldLines: the mean, over the window, of each line's
// similarity to its counterpart (1 when equal up to whitespace, otherwise the
// Dice coefficient of their character bigrams, or for a one-line old_string
// the share of its bigrams the line contains, if higher). It returns the window's first
// line (0-based), its length and its score in [0, 1]; earlier windows win ties.
func nearestRegion(fileLines, oldLines []string) (start, n int, score float64) {
	n = min(max(len(oldLines), 1), len(fileLines))
	oldLines = append(oldLines, "")[:n] // a single empty line when old has none
	fileNorm := make([]string, len(fileLines))
	for i, l := range fileLines {
		fileNorm[i] = normalizeSpace(l)
	}
	oldNorm := make([]string, n)
	for i, l := range oldLines {
		oldNorm[i] = normalizeSpace(l)
	}
	windows := len(fileLines) - n + 1
	fuzzy := windows*n <= maxSimilarityPairs
	var fileGrams, oldGrams [][]uint16
	if fuzzy {
		fileGrams = bigramsOf(fileNorm)
		oldGrams = bigramsOf(oldNorm)
	}
	best, bestScore := 0, -1.0
	for s := 0; s < windows; s++ {
		total := 0.0
		for i := range n {
			switch {
			case fileNorm[s+i] == oldNorm[i]:
				total++
			case fuzzy && n == 1:
				// A one-line old_string is often a fragment of a line: score
				// how much of it the line contains too.
				total += max(dice(fileGrams[s], oldGrams[0]), containment(oldGrams[0], fileGrams[s]))
			case fuzzy:
				total += dice(fileGrams[s+i], oldGrams[i])
			}
		}
		if total > bestScore {
			best, bestScore = s, total
		}
	}
	return best, n, bestScore / float64(n)
}

// bigramsOf returns each string's byte bigrams, sorted, for dice.
func bigramsOf(ss []string) [][]uint16 {
	out := make([][]uint16, len(ss))
	for i, s := range ss {
		if len(s) < 2 {
			continue
		}
		g := make([]uint16, len(s)-1)
		for j := range g {
			g[j] = uint16(s[j])<<8 | uint16(s[j+1])
		}
		sort.Slice(g, func(a, b int) bool { return g[a] < g[b] })
		out[i] = g
	}
	return out
}

// dice is the Sørensen–Dice coefficient of two sorted bigram multisets.
func dice(a, b []uint16) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	common := 0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j]:
			common++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return 2 * float64(common) / float64(len(a)+len(b))
}

// containment is the share of part's bigrams (a sorted multiset) that
// whole also has.
func containment(part, whole []uint16) float64 {
	if len(part) == 0 {
		return 0
	}
	return dice(part, whole) * float64(len(part)+len(whole)) / float64(2*len(part))
}

// toolError is a failure the model can act on: msg goes to the model, short
// into the one-line human summary.
type toolError struct {
	short, msg string
}

func (e *toolError) Error() string { return e.msg }

// failureResult turns an error into a StatusError result.
func failureResult(err error) Result {
	summary := "error"
	var te *toolError
	if errors.As(err, &te) {
		summary = te.short
	}
	return Result{Status: StatusError, Output: err.Error(), Summary: summary}
}
