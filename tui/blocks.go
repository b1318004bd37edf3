package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/ternhq/tern/internal/sanitize"
	"github.com/ternhq/tern/tui/markdown"
)

// userBlock is a message the user sent.
type userBlock struct {
	cache
	text  string
	chips []string // attachments: files, pasted blocks, shell output
}

func (b *userBlock) cacheRef() *cache { return &b.cache }

func (b *userBlock) render(rc *renderCtx) []string {
	bar := rc.th.userBar.Render("▌") + " "
	var out []string
	for _, l := range wrap(b.text, rc.width-4) {
		out = append(out, bar+rc.th.user.Render(l))
	}
	if len(b.chips) > 0 {
		var cs []string
		for _, c := range b.chips {
			cs = append(cs, rc.th.chip.Render(c))
		}
		for _, l := range wrap(strings.Join(cs, " "), rc.width-4) {
			out = append(out, bar+l)
		}
	}
	return append(out, "")
}

// assistantBlock is an answer streamed as Markdown.
type assistantBlock struct {
	cache
	src         *strings.Builder
	san         sanitize.Sanitizer
	stream      *markdown.Stream // while streaming, for the current width
	done        bool
	interrupted bool
	// full is the exact render made in the background once the answer
	// ended (reference links resolve only in a whole-document render).
	full      []string
	fullWidth int
	fullGen   int
}

func newAssistantBlock() *assistantBlock { return &assistantBlock{src: &strings.Builder{}} }

func (b *assistantBlock) cacheRef() *cache { return &b.cache }

// append adds a streamed fragment, stripped of control sequences. The
// source grows by doubling: appended to as it came, past 256 bytes append
// grew it by a quarter at a time, copying a 60 KB answer about five times
// over (a sixth of the interface's allocated bytes in
// BenchmarkAnswer60KBFast).
func (b *assistantBlock) append(s string) {
	s = b.san.Write(s)
	if b.src.Cap()-b.src.Len() < len(s) {
		b.src.Grow(len(s)) // to twice its capacity and s
	}
	b.src.WriteString(s)
}

// finish ends the stream.
func (b *assistantBlock) finish() {
	b.src.WriteString(b.san.Flush())
	b.done = true
	b.invalidate()
}

// text is the Markdown source received so far.
func (b *assistantBlock) text() string { return b.src.String() }

func (b *assistantBlock) render(rc *renderCtx) []string {
	src := b.src.String()
	r := rc.md(rc.width)
	var lines []string
	var err error
	fresh := true // lines may be added to in place (a stream leaves room past its layout, which it lays out again from its own state)
	switch {
	case r == nil:
		lines = wrap(src, rc.width-2)
	case b.done && b.full != nil && b.fullWidth == rc.width && b.fullGen == rc.gen:
		lines, fresh = b.full, false
		b.stream = nil
	case !b.done || !markdown.HasRefDefinitions(src):
		// The incremental render equals a full one (reference links defined
		// after their use are the exception); it draws only what fill asks for.
		if b.stream == nil || b.stream.Renderer() != r {
			b.stream = markdown.NewStream(r)
		}
		lines, err = b.stream.Layout(src, b.done)
	default:
		b.stream = nil
		lines, err = r.Lines(src)
	}
	if err != nil {
		b.stream = nil
		lines = wrap(src, rc.width-2)
	}
	out := lines
	if !fresh || cap(lines)-len(lines) < 2 {
		out = make([]string, 0, len(lines)+2)
		out = append(out, lines...)
	}
	if b.interrupted {
		out = append(out, "  "+rc.th.warn.Render("⏸ interrupted"))
	}
	if len(out) == 0 {
		return nil
	}
	return append(out, "")
}

// fill renders the parts of the answer among lines [from, to) that are still
// placeholders, updating the cached lines; shift is how far the lines at and
// below from moved.
func (b *assistantBlock) fill(rc *renderCtx, from, to int) (bool, int) {
	if b.stream == nil || b.stream.Renderer() != rc.md(rc.width) {
		return false, 0
	}
	if !b.stream.Fill(from, to) {
		return false, 0
	}
	b.lines = b.render(rc)
	if b.lines == nil {
		b.lines = []string{}
	}
	if b.stream == nil {
		return true, 0
	}
	return true, b.stream.Shift()
}

// fullRenderMsg carries the background render of a finished answer.
type fullRenderMsg struct {
	b     *assistantBlock
	width int
	gen   int
	lines []string
}

// fullRender renders a finished answer in the background with its own
// renderer (renderers are not safe to share between goroutines).
func fullRender(b *assistantBlock, style markdown.Style, width, gen int) func() fullRenderMsg {
	src := b.src.String()
	return func() fullRenderMsg {
		r, err := markdown.NewRenderer(style, width)
		if err != nil {
			return fullRenderMsg{}
		}
		lines, err := r.Lines(src)
		if err != nil {
			return fullRenderMsg{}
		}
		return fullRenderMsg{b: b, width: width, gen: gen, lines: lines}
	}
}

// reasoningBlock is the model's reasoning, shown dim on one line.
type reasoningBlock struct {
	cache
	src      *strings.Builder
	san      sanitize.Sanitizer
	start    time.Time
	took     time.Duration
	done     bool
	expanded bool
}

func (b *reasoningBlock) cacheRef() *cache { return &b.cache }

func (b *reasoningBlock) append(s string) { b.src.WriteString(b.san.Write(s)) }

func (b *reasoningBlock) finish(now time.Time) {
	if b.done {
		return
	}
	b.src.WriteString(b.san.Flush())
	b.done, b.took = true, now.Sub(b.start)
	b.invalidate()
}

func (b *reasoningBlock) render(rc *renderCtx) []string { return b.draw(rc, b.expanded) }

// draw renders the reasoning whole when expanded, else on one line.
func (b *reasoningBlock) draw(rc *renderCtx, expanded bool) []string {
	head := "∴ thinking… "
	if b.done {
		head = fmt.Sprintf("∴ thought for %s ", fmtDuration(b.took))
	}
	if expanded {
		out := []string{rc.th.reasoning.Render(strings.TrimSpace(head) + " (" + firstKey(rc.keys.Expand) + " to collapse)")}
		for _, l := range wrap(strings.TrimSpace(b.src.String()), rc.width-4) {
			out = append(out, "  "+rc.th.reasoning.Render(l))
		}
		return append(out, "")
	}
	snippet := lastLine(b.src.String())
	if b.done {
		snippet = firstLine(b.src.String())
	}
	return []string{rc.th.reasoning.Render(truncate(head+snippet, rc.width-2)), ""}
}

// noticeBlock is a line or two from tern itself: the welcome, retries,
// command output.
type noticeBlock struct {
	cache
	lines []string // already styled
	// hangs[i], when set, indents the continuation lines of lines[i] so a
	// wrapped description stays in its column; unset, they keep the line's
	// own indentation, so a wrapped item stays inside its list.
	hangs []int
}

func (b *noticeBlock) cacheRef() *cache { return &b.cache }

func (b *noticeBlock) render(rc *renderCtx) []string {
	var out []string
	for i, l := range b.lines {
		hang := 0
		if i < len(b.hangs) {
			hang = b.hangs[i]
		}
		if hang == 0 {
			plain := ansi.Strip(l)
			hang = len(plain) - len(strings.TrimLeft(plain, " "))
		}
		if hang == 0 || hang > rc.width/2 {
			out = append(out, wrap(l, rc.width-2)...)
			continue
		}
		parts := wrap(l, rc.width-2)
		if len(parts) > 1 {
			// Re-wrap the rest to the narrower column.
			rest := strings.Join(parts[1:], " ")
			parts = append(parts[:1], wrap(rest, rc.width-2-hang)...)
			for j := 1; j < len(parts); j++ {
				parts[j] = strings.Repeat(" ", hang) + parts[j]
			}
		}
		out = append(out, parts...)
	}
	return append(out, "")
}

// errorBlock is a card that says what went wrong and what to do.
type errorBlock struct {
	cache
	title string
	body  string
	hint  string
}

func (b *errorBlock) cacheRef() *cache { return &b.cache }

func (b *errorBlock) render(rc *renderCtx) []string {
	bar := rc.th.bad.Render("┃") + " "
	out := []string{bar + rc.th.errTitle.Render("✗ "+b.title)}
	for _, l := range wrap(b.body, rc.width-4) {
		out = append(out, bar+rc.th.errBody.Render(l))
	}
	if b.hint != "" {
		for _, l := range wrap("→ "+b.hint, rc.width-4) {
			out = append(out, bar+rc.th.warn.Render(l))
		}
	}
	return append(out, "")
}
