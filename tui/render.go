package tui

import (
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/ternhq/tern/tui/markdown"
)

// renderCtx is what blocks need to draw themselves.
type renderCtx struct {
	width int
	gen   int // bumped when the theme changes, so caches know they are stale
	th    *theme
	now   time.Time
	spin  string // the spinner glyph of this frame
	mds   map[int]*markdown.Renderer
	keys  *keyMap // the hints in blocks name their keys from it
	// drawn counts the transcripts' layouts, to tell which blocks were
	// drawn least recently (transcript_evict.go).
	drawn int
}

// md returns the Markdown renderer for width columns, creating it once.
func (rc *renderCtx) md(width int) *markdown.Renderer {
	if r, ok := rc.mds[width]; ok {
		return r
	}
	r, err := markdown.NewRenderer(rc.th.md, width)
	if err != nil {
		return nil // only a broken built-in style fails; callers fall back to plain text
	}
	if rc.mds == nil || len(rc.mds) > 8 { // dragging a window edge makes many widths
		rc.mds = map[int]*markdown.Renderer{}
	}
	rc.mds[width] = r
	return r
}

// setTheme switches styles and makes every cached render stale.
func (rc *renderCtx) setTheme(th *theme) {
	rc.th = th
	rc.gen++
	rc.mds = nil
}

// wrap breaks plain text into lines of at most width cells, expanding tabs.
func wrap(s string, width int) []string {
	s = markdown.ExpandTabs(s)
	width = max(width, 4)
	var out []string
	for line := range strings.SplitSeq(s, "\n") {
		if ansi.StringWidth(line) <= width {
			out = append(out, line)
			continue
		}
		out = append(out, strings.Split(ansi.Wrap(line, width, ""), "\n")...)
	}
	return out
}

// truncate shortens one line to width cells with an ellipsis.
func truncate(s string, width int) string {
	if width <= 0 {
		return ""
	}
	s = markdown.ExpandTabs(s)
	if ansi.StringWidth(s) <= width {
		return s
	}
	return ansi.Truncate(s, width, "…")
}

// firstLine returns the first non-blank line of s, trimmed.
func firstLine(s string) string {
	for line := range strings.SplitSeq(s, "\n") {
		if t := strings.TrimSpace(line); t != "" {
			return t
		}
	}
	return ""
}

// lastLine returns the last non-blank line of s, trimmed.
func lastLine(s string) string {
	s = strings.TrimRight(s, " \t\n")
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return strings.TrimSpace(s)
}

// lastLines returns up to n trailing lines of s, without a trailing newline.
func lastLines(s string, n int) []string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return nil
	}
	end := len(s)
	for i := 0; i < n; i++ {
		j := strings.LastIndexByte(s[:end], '\n')
		if j < 0 {
			return strings.Split(s, "\n")
		}
		end = j
	}
	return strings.Split(s[end+1:], "\n")
}

// fmtDuration prints a duration the way the status line and cards show it.
func fmtDuration(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return "<1ms"
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	case d < time.Minute:
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}

// spinnerFrames is the spinner the status line and running cards share.
var spinnerFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// stringWidth is the number of cells s takes, ignoring escape sequences.
func stringWidth(s string) int { return ansi.StringWidth(s) }

func itoa(n int) string { return strconv.Itoa(n) }
