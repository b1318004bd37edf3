package tools

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // registers GIF for image.DecodeConfig
	_ "image/jpeg"
	_ "image/png"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ternhq/tern/tools/imaging"
)

const (
	// readDefaultLimit is how many lines read_file shows when no limit is given.
	readDefaultLimit = 2000
	// readMaxLineChars is where read_file cuts a long line (in characters).
	readMaxLineChars = 2000
	// readWholeMax is the largest file read_file loads at once (and records
	// for edit_file); bigger files are streamed up to the requested window.
	readWholeMax = 64 << 20
	// binarySniffLen is how much of a file is inspected to tell text from
	// binary, as git and ripgrep do.
	binarySniffLen = 8 << 10
)

// readArgs are read_file's parameters.
type readArgs struct {
	Path   string `json:"path"`
	Offset int    `json:"offset"`
	Limit  int    `json:"limit"`
}

type readFileTool struct {
	w *Workspace
	// wholeMax is readWholeMax, lowered by tests to reach the streaming path.
	wholeMax int64
}

// NewReadFile returns the read_file tool: numbered lines of a text file in
// the workspace, a window at a time.
func NewReadFile(w *Workspace) Tool { return &readFileTool{w: w, wholeMax: readWholeMax} }

var readFileSchema = objectSchema(
	param{Name: "path", Type: "string", Required: true,
		Description: "File to read, relative to the workspace root (or absolute inside it)."},
	param{Name: "offset", Type: "integer", Minimum: minimum(1),
		Description: "1-based line number to start at. Default 1."},
	param{Name: "limit", Type: "integer", Minimum: minimum(1),
		Description: "Maximum number of lines to return. Default 2000."},
)

// ReadFileName is the name the model calls read_file by.
const ReadFileName = "read_file"

// readGuidance is read_file's rule in the system prompt.
const readGuidance = "Use read_file to read files; read large files in parts with offset and limit."

// Spec describes read_file to the model.
func (t *readFileTool) Spec() Spec {
	return Spec{
		Name:     ReadFileName,
		Guidance: readGuidance,
		Description: "Read a text file from the workspace. Returns numbered lines (line number, tab, text); " +
			"the numbers are not part of the file. Shows up to 2000 lines from offset; lines longer than 2000 " +
			"characters are cut. When the output is cut it says which offset to use to read more. " +
			"Binary files, directories (use list_files) and secret files such as .env are refused.",
		Parameters: readFileSchema,
	}
}

// Kind is KindRead: reading never asks for approval.
func (t *readFileTool) Kind() Kind { return KindRead }

// Preview names the file to be read.
func (t *readFileTool) Preview(_ context.Context, args json.RawMessage) (Preview, error) {
	var a readArgs
	if err := decodeToolArgs(args, &a); err != nil {
		return Preview{}, err
	}
	p := Preview{Title: "read " + displayPath(a.Path)}
	if _, rel, err := t.w.Resolve(a.Path); err == nil {
		p.Title = "read " + displayPath(rel)
		p.Path = rel
	}
	return p, nil
}

// Run reads the file and returns its numbered lines.
func (t *readFileTool) Run(ctx context.Context, args json.RawMessage, _ func(string)) Result {
	var a readArgs
	if err := decodeToolArgs(args, &a); err != nil {
		return errorResult(err.Error())
	}
	if a.Path == "" {
		return errorResult(`read_file needs a "path"`)
	}
	if a.Offset < 0 || a.Limit < 0 {
		return errorResult("offset and limit must be positive")
	}
	if a.Offset == 0 {
		a.Offset = 1
	}
	if a.Limit == 0 {
		a.Limit = readDefaultLimit
	}
	if err := ctx.Err(); err != nil {
		return Result{Status: StatusCancelled, Output: "read_file cancelled"}
	}
	_, rel, err := t.w.Resolve(a.Path)
	if err != nil {
		return errorResult(err.Error())
	}
	if t.w.IsSecret(rel) || t.w.IsSecret(a.Path) {
		return errorResult(secretRefusal(t.w, rel))
	}
	if inGitDir(rel) {
		return errorResult(gitRefusal(rel))
	}
	o, err := t.w.openRead(rel)
	var refused *shownError
	switch {
	case errors.As(err, &refused):
		return errorResult(refused.msg)
	case errors.Is(err, fs.ErrNotExist):
		return errorResult(fmt.Sprintf("%s does not exist; use list_files to find the right path", displayPath(rel)))
	case err != nil:
		return errorResult(fmt.Sprintf("read %s: %v", displayPath(rel), err))
	}
	defer func() { _ = o.f.Close() }()
	rel, info := o.rel, o.info
	abs := o.abs(t.w)
	switch {
	case info.IsDir():
		return errorResult(fmt.Sprintf("%s is a directory; use list_files to see the files in it", displayPath(rel)))
	case !info.Mode().IsRegular():
		return errorResult(fmt.Sprintf("%s is not a regular file (%s); read_file only reads files", displayPath(rel), info.Mode().Type()))
	}
	if info.Size() > t.wholeMax {
		return t.readLarge(ctx, o.f, rel, a, info.Size())
	}
	data, err := t.w.readContent(ctx, abs, o.f, info.Size())
	if err != nil {
		return errorResult(fmt.Sprintf("read %s: %v", displayPath(rel), err))
	}
	if why := binaryReason(data); why != "" {
		if r, ok := imageResult(t.w, rel, data); ok {
			return r
		}
		return errorResult(binaryRefusal(rel, why))
	}
	t.w.Files.Record(abs, data)
	t.w.touch(abs)

	total := bytes.Count(data, []byte{'\n'})
	if len(data) > 0 && data[len(data)-1] != '\n' {
		total++
	}
	if total == 0 {
		return Result{Status: StatusOK, Output: "(empty file)", Summary: "0 lines"}
	}
	if a.Offset > total {
		return errorResult(fmt.Sprintf("offset %d is past the end of %s, which has %d lines", a.Offset, displayPath(rel), total))
	}
	// Skip to the first requested line.
	start := 0
	for line := 1; line < a.Offset; line++ {
		start += bytes.IndexByte(data[start:], '\n') + 1
	}
	pr := newLinePrinter(outputCap(t.w), a.Offset)
	rest := data[start:]
	for len(rest) > 0 && pr.shown < a.Limit {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		if !pr.add(line, 0) {
			break
		}
	}
	return pr.result(rel, total)
}

// readLarge streams a file too big to load, showing only the requested
// window. Such files are not recorded, so edit_file will not edit them.
func (t *readFileTool) readLarge(ctx context.Context, f *os.File, rel string, a readArgs, size int64) Result {
	// A single line can be gigabytes long (a sparse file costs nothing to
	// make); reading through it must still stop when the call is cancelled.
	br := bufio.NewReaderSize(ctxReader{ctx: ctx, r: f}, 64<<10)
	head, _ := br.Peek(binarySniffLen)
	if why := binaryReason(head); why != "" {
		return errorResult(binaryRefusal(rel, why))
	}
	// The note saying why only a window is shown is added after the lines;
	// its room is kept so the result still fits the cap.
	note := fmt.Sprintf("\n[%s is %s, too large to read whole; read_file shows it a window at a time]", displayPath(rel), formatSize(int(size)))
	pr := newLinePrinter(outputCap(t.w)-len(note), a.Offset)
	lineNo := 0
	for pr.shown < a.Limit {
		line, dropped, err := readLongLine(br, readMaxLineChars*utf8.UTFMax)
		if len(line) == 0 && dropped == 0 && err != nil {
			break
		}
		lineNo++
		if lineNo >= a.Offset && !pr.add(line, dropped) {
			break
		}
		if err != nil {
			break
		}
	}
	if ctx.Err() != nil {
		return Result{Status: StatusCancelled, Output: "read_file cancelled"}
	}
	if pr.shown == 0 {
		return errorResult(fmt.Sprintf("offset %d is past the end of %s, which has %d lines", a.Offset, displayPath(rel), lineNo))
	}
	res := pr.result(rel, -1)
	// A name long enough to leave no room for lines still gets the cap.
	res.Output = Cap(res.Output+note, outputCap(t.w), "call read_file with a smaller limit")
	return res
}

// readAllSized reads f to its end, sized for the size fstat gave.
func readAllSized(f io.Reader, size int64) ([]byte, error) {
	buf := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
	_, err := buf.ReadFrom(f)
	return buf.Bytes(), err
}

// ctxReader fails reads once ctx is done.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// readLongLine returns the next line without its newline, keeping at most
// keep bytes of it and counting the characters dropped after that; err is
// io.EOF after the last line.
func readLongLine(br *bufio.Reader, keep int) (line []byte, dropped int, err error) {
	for {
		chunk, rerr := br.ReadSlice('\n')
		if rerr == nil {
			// ReadSlice found the newline.
			chunk = chunk[:len(chunk)-1]
		}
		room := max(keep-len(line), 0)
		n := min(room, len(chunk))
		// Keep whole characters only.
		for n < len(chunk) && n > 0 && !utf8.RuneStart(chunk[n]) {
			n--
		}
		line = append(line, chunk[:n]...)
		dropped += utf8.RuneCount(chunk[n:])
		if errors.Is(rerr, bufio.ErrBufferFull) {
			continue
		}
		return line, dropped, rerr
	}
}

// linePrinter renders numbered lines within a byte budget.
type linePrinter struct {
	b      strings.Builder
	budget int
	first  int  // number of the first line
	shown  int  // lines written
	capped bool // stopped because the budget ran out
}

// readFooterRoom is kept free in the budget for the note that says how to
// read more.
const readFooterRoom = 200

func newLinePrinter(capBytes, first int) *linePrinter {
	return &linePrinter{budget: max(capBytes-readFooterRoom, 0), first: first}
}

// add writes one line, of which dropped more characters were already left
// out; it reports false (writing nothing) when the line would exceed the
// budget. The first line is always written.
func (p *linePrinter) add(line []byte, dropped int) bool {
	if dropped == 0 {
		line = bytes.TrimSuffix(line, []byte{'\r'})
	}
	text := cutLineMore(line, readMaxLineChars, dropped)
	num := strconv.Itoa(p.first + p.shown)
	n := max(len(num), 6) + 1 + len(text) + 1
	if p.shown > 0 && p.b.Len()+n > p.budget {
		p.capped = true
		return false
	}
	for i := len(num); i < 6; i++ {
		p.b.WriteByte(' ')
	}
	p.b.WriteString(num)
	p.b.WriteByte('\t')
	p.b.WriteString(text)
	p.b.WriteByte('\n')
	p.shown++
	return true
}

// result finishes the output; total is the file's line count, or -1 when
// unknown (streamed files).
func (p *linePrinter) result(rel string, total int) Result {
	last := p.first + p.shown - 1
	out := p.b.String()
	var summary string
	switch {
	case total >= 0 && p.first == 1 && last == total:
		summary = fmt.Sprintf("%d lines", total)
		if total == 1 {
			summary = "1 line"
		}
	case total >= 0:
		summary = fmt.Sprintf("lines %d-%d of %d", p.first, last, total)
	default:
		summary = fmt.Sprintf("lines %d-%d", p.first, last)
	}
	if total < 0 || last < total {
		why := ""
		if p.capped {
			why = fmt.Sprintf(" (output limit of %s reached)", formatSize(p.budget+readFooterRoom))
		}
		of := ""
		if total >= 0 {
			of = fmt.Sprintf(" of %d", total)
		}
		out += fmt.Sprintf("\n[showing lines %d-%d%s%s; call read_file with offset=%d to read more]", p.first, last, of, why, last+1)
	}
	hint := fmt.Sprintf("call read_file on %s with a smaller limit", displayPath(rel))
	return Result{Status: StatusOK, Output: Cap(out, p.budget+readFooterRoom, hint), Summary: summary}
}

// cutLine shortens a line to maxChars characters, saying how many were cut.
func cutLine(line []byte, maxChars int) string { return cutLineMore(line, maxChars, 0) }

// cutLineMore is cutLine for a line of which dropped more characters were
// already left out.
func cutLineMore(line []byte, maxChars, dropped int) string {
	if len(line) <= maxChars && dropped == 0 {
		return string(line)
	}
	i, n := 0, 0
	for i < len(line) && n < maxChars {
		if line[i] < utf8.RuneSelf {
			i++
		} else {
			_, size := utf8.DecodeRune(line[i:])
			i += size
		}
		n++
	}
	more := utf8.RuneCount(line[i:]) + dropped
	if more == 0 {
		return string(line)
	}
	return string(line[:i]) + fmt.Sprintf("… [line cut: %d more chars]", more)
}

// binaryReason says why data (or its first 8 KiB) does not look like text,
// or "" when it does: a NUL byte, or mostly invalid UTF-8.
func binaryReason(data []byte) string {
	sample := data[:min(len(data), binarySniffLen)]
	if bytes.IndexByte(sample, 0) >= 0 {
		return "it contains NUL bytes"
	}
	invalid := 0
	for i := 0; i < len(sample); {
		if sample[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(sample[i:])
		if r == utf8.RuneError && size == 1 {
			// A character cut by the end of the sample is not an error.
			if len(sample) < len(data) && !utf8.FullRune(sample[i:]) {
				break
			}
			invalid++
		}
		i += size
	}
	if invalid*10 > len(sample) {
		return "most of it is not valid UTF-8 text"
	}
	return ""
}

// binaryRefusal is the error read_file gives for a binary file.
func binaryRefusal(rel, why string) string {
	return fmt.Sprintf("%s looks like a binary file (%s); read_file only shows text. "+
		"To inspect it, use run_shell with a command such as `file` or `xxd -l 256`.", displayPath(rel), why)
}

// secretRefusal explains why a secret file is not shown.
func secretRefusal(w *Workspace, rel string) string {
	return fmt.Sprintf("%s is a secret file (it matches one of the secret-file patterns %s); "+
		"tern does not show secrets to the model. The patterns are configurable.",
		displayPath(rel), strings.Join(w.Secrets, ", "))
}

// errorResult is a failed call whose output tells the model what went wrong.
func errorResult(msg string) Result {
	return Result{Status: StatusError, Output: msg, Summary: firstLine(msg)}
}

// firstLine returns s up to its first newline.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// imageResult is read_file's answer for a picture: what it is, in words,
// and the picture itself, scaled for a model (imaging.Prepare). The agent
// sends the picture to a model that takes images and tells one that does
// not; a picture that cannot be prepared is described only.
func imageResult(w *Workspace, rel string, data []byte) (Result, bool) {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return Result{}, false
	}
	out := fmt.Sprintf("%s is an image (%s, %d×%d pixels, %s).",
		displayPath(rel), strings.ToUpper(format), cfg.Width, cfg.Height, formatSize(len(data)))
	r := Result{Status: StatusOK, Output: out, Summary: fmt.Sprintf("image %d×%d", cfg.Width, cfg.Height)}
	img, err := w.prepareImage(rel, data)
	if err != nil {
		r.Output += fmt.Sprintf(" Its picture cannot be sent: %v.", err)
		return r, true
	}
	r.Images = []imaging.Image{img}
	return r, true
}
