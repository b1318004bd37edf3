package tui

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/tools"
	"github.com/ternhq/tern/tui/sanitize"
)

// cardState is where a tool call is in its life.
type cardState int

const (
	cardStreaming cardState = iota + 1 // the model is still sending the arguments
	cardReady                          // arguments complete, not started
	cardAwaiting                       // waiting for the user's approval
	cardRunning
	cardDone
	cardFailed
	cardDenied
	cardCancelled
)

// maxCardOutput bounds the live output a card keeps (the tail is what shows).
const maxCardOutput = 64 << 10

// toolCard is one tool call in the transcript.
type toolCard struct {
	cache
	id       string
	name     string
	args     map[string]any
	raw      json.RawMessage // the arguments as sent, for todo_write
	main     string          // the argument that says what the call does
	state    cardState
	start    time.Time // when it started running
	took     time.Duration
	summary  string
	errText  string
	diff     string
	command  string // shell: the command line
	output   strings.Builder
	outSan   sanitize.Sanitizer
	trimmed  bool   // the start of the live output was dropped to bound memory
	result   string // the tool's output text, for the expanded view
	note     string // why it was denied or auto-decided
	exitCode int
	expanded bool
	shell    bool   // a `!` command the user ran, not a model call
	plan     string // propose_plan: the plan, Markdown, shown whole
	// sandboxed: the command failed with a permission error while
	// confined, so the sandbox may have refused part of it.
	sandboxed bool

	// Standard error is a stream of its own: its lines in output start
	// with errMark, and errLine says the last, unfinished line came from it.
	errSan  sanitize.Sanitizer
	errLine bool
}

func (c *toolCard) cacheRef() *cache { return &c.cache }

// setArgs records the parsed arguments and derives the main argument.
func (c *toolCard) setArgs(raw json.RawMessage) {
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		m = nil // the agent repairs arguments; an unparsable rest shows no detail
	}
	c.args, c.raw = m, raw
	str := func(k string) string { s, _ := m[k].(string); return sanitize.Visible(s) }
	switch c.name {
	case agent.ProposePlanTool:
		c.plan = sanitize.Clean(str("plan"))
	case "run_shell":
		c.command = str("command")
		c.main = firstLine(c.command)
	case "grep":
		c.main = str("pattern")
		if p := str("path"); p != "" {
			c.main += " in " + p
		}
	case "list_files":
		c.main = str("path")
		if c.main == "" {
			c.main = "."
		}
		if p := str("pattern"); p != "" {
			c.main += " " + p
		}
	default:
		c.main = str("path")
		if c.main == "" {
			for _, v := range m { // unknown tools: any string argument tells something
				if s, ok := v.(string); ok {
					c.main = firstLine(sanitize.Visible(s))
					break
				}
			}
		}
	}
	if c.diff == "" {
		c.diff = sanitize.Visible(diffFromArgs(c.name, m))
	}
}

// setPreview takes the diff and command from an approval preview.
func (c *toolCard) setPreview(p tools.Preview) {
	if p.Diff != "" {
		c.diff = sanitize.Visible(p.Diff)
	}
	if p.Command != "" {
		c.command = sanitize.Visible(p.Command)
	}
}

// errMark starts each line of the output a command wrote to standard error.
// Sanitized text holds no NUL, so the mark cannot be forged.
const errMark = "\x00"

// addOutput appends a live output chunk of standard output or standard
// error, keeping only the tail.
func (c *toolCard) addOutput(s string, stderr bool) {
	san := &c.outSan
	if stderr {
		san = &c.errSan
	}
	c.writeOutput(san.Write(s), stderr)
}

// writeOutput appends sanitized text, marking standard error line by line.
// A stream that changes in the middle of a line starts a new one, so that
// every line belongs to one stream.
func (c *toolCard) writeOutput(text string, stderr bool) {
	if text == "" {
		return
	}
	atStart := c.output.Len() == 0 || strings.HasSuffix(c.output.String(), "\n")
	if !atStart && c.errLine != stderr {
		c.output.WriteByte('\n')
		atStart = true
	}
	for line := range strings.Lines(text) {
		if atStart && stderr {
			c.output.WriteString(errMark)
		}
		c.output.WriteString(line)
		atStart = strings.HasSuffix(line, "\n")
	}
	c.errLine = stderr
	if c.output.Len() > 2*maxCardOutput {
		tail := c.output.String()[c.output.Len()-maxCardOutput:]
		if i := strings.IndexByte(tail, '\n'); i >= 0 {
			tail = tail[i+1:]
		}
		c.output.Reset()
		c.output.WriteString(tail)
		c.trimmed = true
	}
}

// flushOutput ends both output streams.
func (c *toolCard) flushOutput() {
	c.writeOutput(c.outSan.Flush(), false)
	c.writeOutput(c.errSan.Flush(), true)
}

// outputText is the live output as the command printed it, without marks.
func (c *toolCard) outputText() string {
	return strings.ReplaceAll(c.output.String(), errMark, "")
}

// finish records the result.
func (c *toolCard) finish(r *agent.ToolResult) {
	c.flushOutput()
	c.took = r.Duration
	c.summary = sanitize.Clean(firstLine(r.Summary))
	c.exitCode = r.ExitCode
	c.sandboxed = r.Sandboxed
	out := sanitize.Clean(r.Output)
	if len(out) > maxCardOutput {
		out = out[:maxCardOutput] + "\n…"
	}
	c.result = out
	switch r.Status {
	case tools.StatusOK:
		c.state = cardDone
		if c.name == "run_shell" && r.ExitCode != 0 {
			// A command that failed is news for the model, not an error of
			// the call, but for the user it failed all the same.
			c.state = cardFailed
		}
	case tools.StatusError:
		c.state = cardFailed
		c.errText = out
		if c.errText == "" && !c.shell {
			c.errText = c.summary
		}
	case tools.StatusDenied:
		c.state = cardDenied
	case tools.StatusCancelled:
		c.state = cardCancelled
	}
	c.invalidate()
}

// live reports whether the card changes with the clock (spinner, elapsed).
func (c *toolCard) live() bool { return c.state == cardRunning || c.state == cardStreaming }

func (c *toolCard) icon() string {
	if c.shell {
		return "!"
	}
	switch c.name {
	case "read_file":
		return "→"
	case "list_files":
		return "≡"
	case "grep":
		return "⌕"
	case "edit_file", "write_file":
		return "✎"
	case "run_shell":
		return "$"
	case todoTool:
		return "☑"
	}
	return "⚙"
}

func (c *toolCard) stateText(rc *renderCtx) string {
	th := rc.th
	switch c.state {
	case cardStreaming:
		return th.dim.Render(rc.spin + " preparing…")
	case cardReady:
		return th.dim.Render("…")
	case cardAwaiting:
		return th.warn.Render("⏸ awaiting approval")
	case cardRunning:
		return th.info.Render(fmt.Sprintf("%s running %.1fs", rc.spin, rc.now.Sub(c.start).Seconds()))
	case cardDone:
		s := "✓ " + fmtDuration(c.took)
		if c.summary != "" {
			s += " · " + c.summary
		}
		return th.ok.Render(s)
	case cardFailed:
		s := "✗ " + fmtDuration(c.took)
		switch {
		case c.summary != "": // "exit 3", "timed out after 2m", "could not start"
			s += " · " + c.summary
		case c.shell || c.name == "run_shell":
			s += fmt.Sprintf(" · exit %d", c.exitCode)
		}
		return th.bad.Render(s)
	case cardDenied:
		return th.bad.Render("⊘ denied")
	case cardCancelled:
		return th.warn.Render("⊘ cancelled")
	}
	return ""
}

// sandboxedLine marks a command the sandbox may have refused: it failed
// with a permission error while confined.
const sandboxedLine = "⊘ sandboxed: a permission error may come from the sandbox (writes outside the workspace, network) · /permissions shows what it allows"

// collapsed sizes of card bodies.
const (
	collapsedDiff   = 12
	collapsedOutput = 5
	expandedOutput  = 400
)

// cardDetail is how much of a card's body is drawn.
type cardDetail int

const (
	detailPreview  cardDetail = iota + 1 // the collapsed default: a short preview
	detailFolded                         // the preview of a card folded in the transcript view
	detailExpanded                       // ctrl+o in the conversation: the last expandedOutput lines
	detailFull                           // the transcript view: everything the card kept
)

// open reports whether the body is drawn unabridged (bounded only by what
// the card kept, and expandedOutput when merely expanded).
func (d cardDetail) open() bool { return d == detailExpanded || d == detailFull }

func (c *toolCard) render(rc *renderCtx) []string {
	d := detailPreview
	if c.expanded {
		d = detailExpanded
	}
	return c.draw(rc, d)
}

// draw renders the card for rc.width columns with the body at detail d.
func (c *toolCard) draw(rc *renderCtx, d cardDetail) []string {
	open := d.open()
	th := rc.th
	name := c.name
	switch {
	case c.shell:
		name = "shell"
	case c.name == agent.ProposePlanTool:
		name = "Plan"
	}
	head := th.accent.Render(c.icon()) + " " + th.cardTitle.Render(name)
	state := c.stateText(rc)
	room := rc.width - 6 - stringWidth(name) - stringWidth(state)
	if c.main != "" && room > 4 {
		head += " " + th.cardArg.Render(truncate(c.main, room))
	}
	out := []string{head + "  " + state}
	indent := "  "
	body := rc.width - 4
	if c.note != "" && (c.state == cardDenied || c.state == cardCancelled) {
		for _, l := range wrap(c.note, body) {
			out = append(out, indent+th.dim.Render(l))
		}
	}
	switch {
	case c.plan != "":
		// The plan is what the user decides on: shown whole, as Markdown.
		for _, l := range planLines(rc, c.plan, body) {
			out = append(out, indent+l)
		}
	case c.state == cardAwaiting:
		// The approval dialog shows the whole preview.
	case c.diff != "" && (c.name == "edit_file" || c.name == "write_file"):
		limit := collapsedDiff
		if open {
			limit = 0
		}
		lines, hidden := renderDiff(rc, c.diff, body, limit, open)
		for _, l := range lines {
			out = append(out, indent+l)
		}
		if hidden > 0 {
			more := firstKey(rc.keys.Expand) + " expands the latest card · " + firstKey(rc.keys.Transcript) + " shows all"
			if d == detailFolded {
				more = firstKey(rc.keys.View.Fold) + " unfolds"
			}
			out = append(out, indent+th.dim.Render(fmt.Sprintf("… %d more lines (%s)", hidden, more)))
		}
	case c.command != "" && (c.name == "run_shell" || c.shell):
		cmdLines := wrap(c.command, body-2)
		if !open && len(cmdLines) > 3 {
			cmdLines = append(cmdLines[:3], "…")
		}
		for i, l := range cmdLines {
			p := "$ "
			if i > 0 {
				p = "  "
			}
			out = append(out, indent+th.dim.Render(p)+l)
		}
		text := c.output.String()
		if text == "" && (c.state == cardDone || c.state == cardFailed) {
			text = c.result
		}
		out = append(out, c.tail(rc, text, body, d)...)
		if c.sandboxed {
			for _, l := range wrap(sandboxedLine, body) {
				out = append(out, indent+th.warn.Render(l))
			}
		}
	case open && c.result != "" && (c.state != cardFailed || c.errText != c.result):
		// A failed call's result is its error, drawn below in the error colour.
		out = append(out, c.tail(rc, c.result, body, d)...)
	}
	if c.state == cardFailed && c.errText != "" && c.name != "run_shell" {
		lines := wrap(c.errText, body)
		if !open && len(lines) > 3 {
			lines = append(lines[:3], "…")
		}
		for _, l := range lines {
			out = append(out, indent+th.bad.Render(l))
		}
	}
	return append(out, "")
}

// tail draws the last lines of a tool's output: a few in the preview, more
// when expanded, all that was kept in full.
func (c *toolCard) tail(rc *renderCtx, text string, width int, d cardDetail) []string {
	var lines []string
	switch d {
	case detailPreview, detailFolded:
		lines = lastLines(text, collapsedOutput)
	case detailExpanded:
		lines = lastLines(text, expandedOutput)
	case detailFull:
		lines = lastLines(text, maxCardOutput)
	}
	var out []string
	if c.trimmed && d.open() && text == c.output.String() {
		out = append(out, "  "+rc.th.dim.Render(fmt.Sprintf("… earlier output not kept (a card keeps the last %d KB)", maxCardOutput>>10)))
	}
	if total := strings.Count(strings.TrimRight(text, "\n"), "\n") + 1; len(lines) < total && text != "" {
		out = append(out, "  "+rc.th.dim.Render(fmt.Sprintf("… %d earlier lines", total-len(lines))))
	}
	bar, errBar := rc.th.dim.Render("│ "), rc.th.bad.Render("┃ ")
	for _, l := range lines {
		if e, ok := strings.CutPrefix(l, errMark); ok {
			// A heavier bar in the error colour: told apart without colour too.
			out = append(out, "  "+errBar+truncate(e, width-2))
			continue
		}
		out = append(out, "  "+bar+truncate(l, width-2))
	}
	return out
}

// planLines renders a proposed plan's Markdown for width columns.
func planLines(rc *renderCtx, plan string, width int) []string {
	if r := rc.md(width); r != nil {
		if lines, err := r.Lines(plan); err == nil {
			return lines
		}
	}
	return wrap(plan, width)
}
