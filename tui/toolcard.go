package tui

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/internal/sanitize"
	"github.com/ternhq/tern/tools"
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
	id      string
	name    string
	args    map[string]any
	raw     json.RawMessage // the arguments as sent, for todo_write
	main    string          // the argument that says what the call does
	state   cardState
	start   time.Time // when it started running
	took    time.Duration
	summary string
	errText string
	diff    string // read through diffText
	// diffPending says diff is still to be made from args (diffText).
	diffPending bool
	command     string // shell: the command line
	output      strings.Builder
	outSan      sanitize.Sanitizer
	trimmed     bool   // the start of the live output was dropped to bound memory
	result      string // the tool's output text, for the expanded view
	note        string // why it was denied or auto-decided
	exitCode    int
	expanded    bool
	shell       bool      // a `!` command the user ran, not a model call
	plan        string    // propose_plan: the plan, Markdown, shown whole
	task        *taskView // task: what the subagent did
	// sandboxed: the command failed with a permission error while
	// confined, so the sandbox may have refused part of it.
	sandboxed bool
	// diagnostics counts the language server's problems an edit left,
	// "2 errors, 1 warning", shown under the diff.
	diagnostics string

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
	c.renderer().setArgs(c, m)
}

// diffText is the card's diff, made from its arguments the first time it
// is asked for: a resumed session replays thousands of edits, and making
// each diff when the card was replayed was a fifth of the interface's
// replay (pprof of tern -c on 2,000 turns) for cards mostly never drawn.
func (c *toolCard) diffText() string {
	if c.diffPending {
		c.diffPending = false
		if c.diff == "" {
			c.diff = sanitize.Visible(diffFromArgs(c.name, c.args))
		}
	}
	return c.diff
}

// setPreview takes the diff and command from an approval preview.
func (c *toolCard) setPreview(p tools.Preview) {
	if p.Diff != "" {
		c.diff, c.diffPending = sanitize.Visible(p.Diff), false
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
	c.setDiagnostics(r.Diagnostics)
	out := sanitize.Clean(r.Output)
	if len(out) > maxCardOutput {
		out = out[:maxCardOutput] + "\n…"
	}
	c.result = out
	switch r.Status {
	case tools.StatusOK:
		c.state = cardDone
		if isCommandCard(c) && r.ExitCode != 0 {
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
		case isCommandCard(c):
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
	th := rc.th
	r := c.renderer()
	name := c.name
	if t, ok := r.(titledRenderer); ok {
		name = t.title()
	}
	head := th.accent.Render(r.icon()) + " " + th.cardTitle.Render(name)
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
	out = append(out, r.body(c, rc, d, body)...)
	if c.state == cardFailed && c.errText != "" && !errorsInBody(r) {
		lines := wrap(c.errText, body)
		if !d.open() && len(lines) > 3 {
			lines = append(lines[:3], "…")
		}
		for _, l := range lines {
			out = append(out, indent+th.bad.Render(l))
		}
	}
	return append(out, "")
}

// isCommandCard reports whether the card is a command's, whose exit code
// tells how it ended.
func isCommandCard(c *toolCard) bool {
	_, ok := c.renderer().(commandRenderer)
	return ok
}

// errorsInBody reports whether r's cards already show a failed call's
// error in their body.
func errorsInBody(r cardRenderer) bool {
	cr, ok := r.(commandRenderer)
	return ok && cr.errorsInBody()
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
