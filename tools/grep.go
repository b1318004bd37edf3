package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/bmatcuk/doublestar/v4"
)

const (
	// grepMaxMatches is the most matching lines grep returns in one call.
	grepMaxMatches = 200
	// grepMaxContext bounds context_lines.
	grepMaxContext = 10
	// grepMaxLineChars is where grep cuts a long line in its output.
	grepMaxLineChars = 300
	// grepMaxFileSize is the largest file grep searches; bigger ones are
	// skipped (and counted) so a few huge files cannot exhaust memory.
	grepMaxFileSize = 64 << 20
	// grepFooterRoom is kept free in the output budget for closing notes.
	grepFooterRoom = 400
)

// grepArgs are grep's parameters.
type grepArgs struct {
	Pattern      string `json:"pattern"`
	Path         string `json:"path"`
	Glob         string `json:"glob"`
	IgnoreCase   bool   `json:"ignore_case"`
	ContextLines int    `json:"context_lines"`
}

type grepTool struct{ w *Workspace }

// NewGrep returns the grep tool: a fast regular-expression search over the
// workspace's files, with .gitignore respected.
func NewGrep(w *Workspace) Tool { return &grepTool{w: w} }

var grepSchema = objectSchema(
	param{Name: "pattern", Type: "string", Required: true,
		Description: "Regular expression (RE2 syntax, as in Go and ripgrep), matched against each line. " +
			"Escape special characters to search for them literally, e.g. \"func main\\\\(\"."},
	param{Name: "path", Type: "string",
		Description: "File or directory to search, relative to the workspace root. Default: the root."},
	param{Name: "glob", Type: "string",
		Description: "Only search files matching this glob, e.g. \"*.go\", \"*.{ts,tsx}\" or \"internal/**/*.go\". " +
			"A glob without \"/\" matches file names at any depth; with \"/\" it matches paths relative to path. " +
			"A leading \"!\" excludes the matching files instead."},
	param{Name: "ignore_case", Type: "boolean",
		Description: "Match case-insensitively. Default false."},
	param{Name: "context_lines", Type: "integer", Minimum: minimum(0),
		Description: "Lines of context to show before and after each match (at most 10). Default 0."},
)

// GrepName is the name the model calls grep by.
const GrepName = "grep"

// grepGuidance is grep's rule in the system prompt.
const grepGuidance = "Use grep (RE2 regular expressions) to search file contents before reading whole files."

// Spec describes grep to the model.
func (t *grepTool) Spec() Spec {
	return Spec{
		Name:     GrepName,
		Guidance: grepGuidance,
		Description: "Search file contents with a regular expression, line by line. " +
			"Prints \"path:line: text\" for each matching line (context lines as \"path-line- text\", groups separated by \"--\"), " +
			"sorted by path then line. Files excluded by .gitignore, binary files and secret files are skipped. " +
			"At most 200 matching lines are returned; narrow the pattern, path or glob to see the rest.",
		Parameters: grepSchema,
	}
}

// Kind is KindRead: searching never asks for approval.
func (t *grepTool) Kind() Kind { return KindRead }

// Preview names the pattern and where it is searched.
func (t *grepTool) Preview(_ context.Context, args json.RawMessage) (Preview, error) {
	var a grepArgs
	if err := decodeToolArgs(args, &a); err != nil {
		return Preview{}, err
	}
	title := "grep " + strconv.Quote(a.Pattern)
	if a.Path != "" {
		where := a.Path
		if _, rel, err := t.w.Resolve(a.Path); err == nil {
			where = rel
		}
		title += " in " + displayPath(where)
	}
	if a.Glob != "" {
		title += " (" + displayPath(a.Glob) + ")"
	}
	return Preview{Title: title}, nil
}

// Run searches the files and reports the matching lines.
func (t *grepTool) Run(ctx context.Context, args json.RawMessage, _ func(string)) Result {
	var a grepArgs
	if err := decodeToolArgs(args, &a); err != nil {
		return errorResult(err.Error())
	}
	if a.Pattern == "" {
		return errorResult(`grep needs a non-empty "pattern"`)
	}
	if a.ContextLines < 0 {
		return errorResult("context_lines must be 0 or more")
	}
	a.ContextLines = min(a.ContextLines, grepMaxContext)
	m, err := compileLineMatcher(a.Pattern, a.IgnoreCase)
	if err != nil {
		return errorResult(err.Error())
	}
	keep, err := grepGlobFilter(a.Glob)
	if err != nil {
		return errorResult(err.Error())
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
		return errorResult(fmt.Sprintf("%s does not exist; use list_files to find the right path", displayPath(rel)))
	case err != nil:
		return errorResult(fmt.Sprintf("grep %s: %v", displayPath(rel), err))
	case !info.IsDir() && (t.w.IsSecret(rel) || t.w.IsSecret(a.Path)):
		return errorResult(secretRefusal(t.w, rel))
	}

	base := rel
	if base == "." {
		base = ""
	}
	var opts walkOptions
	if keep != nil {
		opts.keep = func(p string) bool {
			sub := p
			if info.IsDir() && base != "" {
				sub = strings.TrimPrefix(p, base+"/")
			} else if !info.IsDir() {
				sub = p[strings.LastIndexByte(p, '/')+1:]
			}
			return keep(sub)
		}
	}

	s := &grepSearch{m: m, context: a.ContextLines}
	stats, err := s.run(ctx, t.w, rel, opts)
	if err != nil {
		if ctx.Err() != nil {
			return Result{Status: StatusCancelled, Output: "grep cancelled"}
		}
		return errorResult(fmt.Sprintf("grep %s: %v", displayPath(rel), err))
	}
	out := s.result(t.w, a, rel, stats)
	if !info.IsDir() && s.binary > 0 {
		// Capped again: the note must not push the result over the cap.
		note := fmt.Sprintf("\n[%s is a binary file; grep skips binary files]", displayPath(rel))
		out.Output = Cap(out.Output+note, outputCap(t.w), "")
	}
	return out
}

// grepGlobFilter turns the glob parameter into a filter on paths relative to
// the search path; nil means every file.
func grepGlobFilter(glob string) (func(string) bool, error) {
	if glob == "" {
		return nil, nil
	}
	negate := strings.HasPrefix(glob, "!")
	pat := strings.TrimPrefix(strings.TrimPrefix(glob, "!"), "./")
	if pat == "" || !doublestar.ValidatePattern(pat) {
		return nil, fmt.Errorf("invalid glob %q: check brackets and braces; \"**\" must be a whole path segment, as in \"src/**/*.go\"", glob)
	}
	byName := !strings.Contains(pat, "/")
	return func(p string) bool {
		subject := p
		if byName {
			subject = p[strings.LastIndexByte(p, '/')+1:]
		}
		return doublestar.MatchUnvalidated(pat, subject) != negate
	}, nil
}

// grepLine is one line of grep output.
type grepLine struct {
	num   int
	text  string
	match bool
	// sep marks a gap before this line: a "--" separator is printed.
	sep bool
}

// grepFileResult is what searching one file produced.
type grepFileResult struct {
	rel     string
	matches int
	lines   []grepLine
	binary  bool
	large   bool
}

// grepSearch runs one search: walkers take folders from a shared queue
// and search their files as they find them; the results are put back in
// the walk's order at the end.
type grepSearch struct {
	m       *lineMatcher
	context int

	// cutoff, once set, is the last file (in walk order) that can still be
	// shown: the files before it hold enough matches, so files after it
	// only need counting.
	cutoff atomic.Pointer[string]

	mu      sync.Mutex
	kept    []grepFileResult // files that may be shown, in no order until sorted
	shown   int              // matches in kept
	matches int              // matches in all files
	files   int              // files with a match
	binary  int              // binary files skipped
	large   int              // files over grepMaxFileSize skipped
}

// run walks and searches; it returns when every file is searched or ctx is
// done, and leaves no goroutine behind.
func (s *grepSearch) run(ctx context.Context, w *Workspace, rel string, opts walkOptions) (walkStats, error) {
	opts.open = true
	newVisit := func() func(walkFile) error {
		var bufs grepBuffers
		return func(f walkFile) error {
			if err := ctx.Err(); err != nil {
				_ = syscall.Close(f.fd)
				return err
			}
			s.add(s.searchFile(f, &bufs))
			return nil
		}
	}
	stats, err := walkFilesParallel(ctx, w, rel, opts, max(runtime.GOMAXPROCS(0), 1), newVisit)
	if err == nil {
		err = ctx.Err()
	}
	s.prune()
	return stats, err
}

// grepBuffers are a worker's reusable buffers.
type grepBuffers struct {
	file  []byte // the file's content
	lower []byte // its lower-cased copy, for case-insensitive literals
}

// searchFile reads and searches one file.
func (s *grepSearch) searchFile(f walkFile, bufs *grepBuffers) grepFileResult {
	r := grepFileResult{rel: f.rel}
	data, buf, err := readFdSized(f.fd, f.size, bufs.file, grepMaxFileSize)
	_ = syscall.Close(f.fd)
	bufs.file = buf
	switch {
	case errors.Is(err, errTooLarge):
		r.large = true
		return r
	case err != nil || len(data) == 0:
		// Unreadable files are skipped, as they are by grep -s and ripgrep.
		return r
	}
	if isBinary(data) {
		r.binary = true
	} else {
		r.matches, r.lines = s.searchData(data, &bufs.lower, s.wantLines(f.rel))
	}
	// Do not keep huge buffers for the rest of the search.
	if cap(bufs.file) > 8<<20 {
		bufs.file = nil
	}
	if cap(bufs.lower) > 8<<20 {
		bufs.lower = nil
	}
	return r
}

// errTooLarge is returned by readRegularFile for files over its limit.
var errTooLarge = errors.New("file too large")

// readRegularFile reads a regular file into buf (grown as needed) with raw
// system calls: open, fstat, read, close. Going through os.File costs a
// netpoller registration and a finalizer per file, which with ~10 000 small
// files is a third of a search's time. O_NONBLOCK keeps a file that was
// swapped for a FIFO since the walk from blocking the open.
func readRegularFile(path string, buf []byte, limit int64) (data, newBuf []byte, err error) {
	fd, err := openRetry(path)
	if err != nil {
		return nil, buf, err
	}
	defer func() { _ = syscall.Close(fd) }()
	return readFd(fd, buf, limit)
}

// readFd is readRegularFile for a file already open; it does not close fd.
func readFd(fd int, buf []byte, limit int64) (data, newBuf []byte, err error) {
	return readFdSized(fd, -1, buf, limit)
}

// readFdSized is readFd for a file whose descriptor is known to be a
// regular file of size bytes (fstat'ed by the walk): it saves the fstat.
// A size of -1 asks fstat.
func readFdSized(fd int, size int64, buf []byte, limit int64) (data, newBuf []byte, err error) {
	if size < 0 {
		var st syscall.Stat_t
		if err := syscall.Fstat(fd, &st); err != nil {
			return nil, buf, err
		}
		if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
			return nil, buf, errors.New("not a regular file")
		}
		size = st.Size
	}
	if size > limit {
		return nil, buf, errTooLarge
	}
	if int64(cap(buf)) < size+1 {
		// Grow geometrically so a walk through ever larger files does not
		// allocate (and clear) a new buffer for each.
		buf = make([]byte, max(size+1, 2*int64(cap(buf)), 64<<10))
	}
	buf = buf[:cap(buf)]
	n := 0
	for {
		if n == len(buf) {
			if int64(n) > limit {
				return nil, buf, errTooLarge
			}
			// The file grew since fstat.
			buf = append(buf, make([]byte, len(buf))...)
			buf = buf[:cap(buf)]
		}
		m, err := syscall.Read(fd, buf[n:])
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return nil, buf, err
		}
		if m == 0 {
			return buf[:n], buf, nil
		}
		n += m
		if int64(n) == size && n < len(buf) {
			// Read exactly what fstat promised; one more read would only
			// confirm the end of the file.
			return buf[:n], buf, nil
		}
	}
}

// openRetry opens path read-only, retrying when a signal interrupts it.
func openRetry(path string) (int, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
		if !errors.Is(err, syscall.EINTR) {
			return fd, err
		}
	}
}

// isBinary reports a NUL byte in the first 8 KiB, as git and ripgrep do.
func isBinary(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), binarySniffLen)], 0) >= 0
}

// wantLines reports whether the file rel may be shown, so its matching
// lines are wanted, not only their count.
func (s *grepSearch) wantLines(rel string) bool {
	c := s.cutoff.Load()
	return c == nil || walkOrderLess(rel, *c)
}

// add gathers one file's result.
func (s *grepSearch) add(r grepFileResult) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.binary {
		s.binary++
	}
	if r.large {
		s.large++
	}
	if r.matches == 0 {
		return
	}
	s.matches += r.matches
	s.files++
	if len(r.lines) == 0 {
		return // past the cutoff: counted only
	}
	s.kept = append(s.kept, r)
	s.shown += r.matches
	if s.shown >= 2*grepMaxMatches {
		s.pruneLocked()
	}
}

// prune sorts the kept files into the walk's order and drops those that
// come after the first grepMaxMatches matches.
func (s *grepSearch) prune() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pruneLocked()
}

// pruneLocked is prune with s.mu held.
func (s *grepSearch) pruneLocked() {
	slices.SortFunc(s.kept, func(a, b grepFileResult) int {
		switch {
		case a.rel == b.rel:
			return 0
		case walkOrderLess(a.rel, b.rel):
			return -1
		default:
			return 1
		}
	})
	shown := 0
	for i := range s.kept {
		shown += s.kept[i].matches
		if shown >= grepMaxMatches {
			clear(s.kept[i+1:])
			s.kept = s.kept[:i+1]
			last := s.kept[i].rel
			s.cutoff.Store(&last)
			break
		}
	}
	s.shown = shown
}

// result renders the gathered matches within the output cap.
func (s *grepSearch) result(w *Workspace, a grepArgs, rel string, stats walkStats) Result {
	budget := outputCap(w) - grepFooterRoom
	var b strings.Builder
	shownMatches, shownFiles := 0, 0
render:
	for fi, r := range s.kept {
		name := displayPath(r.rel)
		fileHasShown := false
		for li, l := range r.lines {
			if l.match && shownMatches >= grepMaxMatches {
				break render
			}
			var line string
			if l.sep || (li == 0 && fi > 0 && s.context > 0) {
				line = "--\n"
			}
			if l.match {
				line += name + ":" + strconv.Itoa(l.num) + ": " + l.text + "\n"
			} else {
				line += name + "-" + strconv.Itoa(l.num) + "- " + l.text + "\n"
			}
			if b.Len()+len(line) > budget && shownMatches > 0 {
				break render
			}
			b.WriteString(line)
			if l.match {
				shownMatches++
				if !fileHasShown {
					fileHasShown = true
					shownFiles++
				}
			}
		}
	}

	where := "."
	if rel != "" {
		where = rel
	}
	if s.matches == 0 {
		fmt.Fprintf(&b, "No matches for %s in %s", strconv.Quote(a.Pattern), displayPath(where))
		if a.Glob != "" {
			fmt.Fprintf(&b, " (glob %s)", displayPath(a.Glob))
		}
		b.WriteString(".\n")
	}
	if left := s.matches - shownMatches; left > 0 {
		fmt.Fprintf(&b, "[%s left out: showing %d of %d matches, in %d of %d files; narrow the pattern, path or glob to see the rest]\n",
			pluralMatches(left), shownMatches, s.matches, shownFiles, s.files)
	}
	if stats.secret > 0 && s.matches == 0 {
		// Said only when nothing matched, where it may explain why; secret
		// files are never searched, so this reveals nothing of their content.
		fmt.Fprintf(&b, "[%s not searched: secret files such as .env are skipped (the patterns are configurable)]\n", plural(stats.secret, "secret file"))
	}
	if s.large > 0 {
		fmt.Fprintf(&b, "[%s larger than %s skipped; search them with run_shell and rg or grep]\n", plural(s.large, "file"), formatSize(grepMaxFileSize))
	}
	summary := pluralMatches(s.matches) + " in " + plural(s.files, "file")
	if s.matches == 0 {
		summary = "0 matches"
	}
	return Result{
		Status:  StatusOK,
		Output:  Cap(strings.TrimSuffix(b.String(), "\n"), outputCap(w), "narrow the pattern, path or glob"),
		Summary: summary,
	}
}

// pluralMatches renders a match count: "1 match", "7 matches".
func pluralMatches(n int) string {
	if n == 1 {
		return "1 match"
	}
	return strconv.Itoa(n) + " matches"
}

// searchData finds the matching lines of one file. It always counts every
// match; with wantLines it also returns up to grepMaxMatches of them with
// their context lines.
func (s *grepSearch) searchData(data []byte, scratch *[]byte, wantLines bool) (int, []grepLine) {
	type hit struct{ num, start, end int }
	var hits []hit
	count := 0
	lineNo, counted := 1, 0
	s.m.scan(data, scratch, func(start, end int) {
		count++
		if !wantLines || len(hits) >= grepMaxMatches {
			return
		}
		lineNo += bytes.Count(data[counted:start], []byte{'\n'})
		counted = start
		hits = append(hits, hit{lineNo, start, end})
	})
	if len(hits) == 0 {
		return count, nil
	}
	lines := make([]grepLine, 0, len(hits)*(1+2*s.context))
	last := 0 // number of the last line emitted
	for i, h := range hits {
		// Context before: back from the match to the line after the last
		// emitted one.
		from := max(h.num-s.context, last+1, 1)
		sep := last > 0 && from > last+1
		var before []grepLine
		pos := h.start
		for n := h.num - 1; n >= from; n-- {
			ls := bytes.LastIndexByte(data[:pos-1], '\n') + 1
			before = append(before, grepLine{num: n, text: grepText(data[ls : pos-1])})
			pos = ls
		}
		for j := len(before) - 1; j >= 0; j-- {
			l := before[j]
			l.sep = sep && j == len(before)-1
			lines = append(lines, l)
		}
		lines = append(lines, grepLine{num: h.num, text: grepText(data[h.start:h.end]), match: true, sep: sep && len(before) == 0})
		last = h.num
		// Context after: up to the next match.
		until := h.num + s.context
		if i+1 < len(hits) {
			until = min(until, hits[i+1].num-1)
		}
		pos = h.end
		for n := h.num + 1; n <= until && pos < len(data); n++ {
			ls := pos + 1
			if ls >= len(data) {
				break
			}
			le := bytes.IndexByte(data[ls:], '\n')
			if le < 0 {
				le = len(data)
			} else {
				le += ls
			}
			lines = append(lines, grepLine{num: n, text: grepText(data[ls:le])})
			last = n
			pos = le
		}
	}
	return count, lines
}

// grepText renders a line for output: without a trailing CR, cut when long.
func grepText(line []byte) string {
	return cutLine(bytes.TrimSuffix(line, []byte{'\r'}), grepMaxLineChars)
}
