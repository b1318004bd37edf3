package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/internal/app"
	"github.com/ternhq/tern/internal/sanitize"
)

// assumedWindow is the context size /context assumes when neither the
// config nor the caller knows the model's: small enough to be safe for
// today's models.
const assumedWindow = 128_000

// bytesPerToken is the estimate /context uses to turn bytes into tokens.
const bytesPerToken = agent.BytesPerToken

// contextWarnPercent is the context use from which the status line warns.
const contextWarnPercent = 80

// modelWindow is the current model's window as the session reported it
// (configured, from the gateway, the model database, or assumed), else
// assumedWindow (assumed) until it answered.
func (m *model) modelWindow() (tokens int, source app.WindowSource) {
	if w := &m.meter.window; w.model == m.be.Model() && w.tokens > 0 {
		return w.tokens, w.source
	}
	return assumedWindow, app.WindowAssumed
}

// modelWindowInfo is what the session said of a model's window.
type modelWindowInfo struct {
	model  string
	tokens int
	source app.WindowSource
	asked  bool
}

// windowMsg carries the session's answer about a model's window.
type windowMsg struct {
	model  string
	tokens int
	source app.WindowSource
}

// lookupWindow asks the session for the current model's window, once per
// model: it may ask the gateway, so it runs as a command.
func (m *model) lookupWindow() tea.Cmd {
	model := m.be.Model()
	w := &m.meter.window
	if w.asked && w.model == model {
		return nil
	}
	*w = modelWindowInfo{model: model, asked: true}
	be, ctx := m.be, m.ctx
	return func() tea.Msg {
		n, source := be.ContextWindow(ctx, model)
		return windowMsg{model: model, tokens: n, source: source}
	}
}

// onWindow keeps the window the session reported.
func (m *model) onWindow(msg windowMsg) {
	if w := &m.meter.window; w.model == msg.model {
		w.tokens, w.source = msg.tokens, msg.source
	}
}

func (m *model) cmdContext(string) tea.Cmd {
	m.tr.end()
	m.tr.add(&noticeBlock{lines: m.contextLines(m.be.Context())})
	return m.lookupWindow()
}

// contextLines renders the /context card: each part's estimated tokens,
// its share of the window and a bar.
func (m *model) contextLines(ci agent.ContextBytes) []string {
	th := m.rc.th
	window, source := m.modelWindow()
	short, detail := windowSourceText(source)
	head := fmt.Sprintf("Context · window %s tokens (%s)", kilo(window), short)
	lines := []string{th.bold.Render(head)}
	if info, ok := m.be.ModelInfo(m.be.Model()); ok && source == app.WindowDatabase {
		detail = fmt.Sprintf("%s's %s in the model database (%s); %s", sanitize.Clean(info.Provider), sanitize.Clean(info.ID), info.Match, detail)
	}
	if detail != "" {
		lines = append(lines, th.dim.Render("  "+detail))
	}
	parts := []struct {
		label string
		bytes int
	}{
		{"system prompt", ci.System},
		{"tool specs", ci.Tools},
		{"memory files", ci.Memory},
		{"user messages", ci.User},
		{"assistant", ci.Assistant},
		{"tool results", ci.ToolResults},
	}
	barWidth := min(20, max(0, m.width-44))
	used := 0
	for _, p := range parts {
		tok := tokensOf(p.bytes)
		used += tok
		lines = append(lines, contextRow(p.label, "~"+kilo(tok), tok, window, barWidth, th.accent.Render))
	}
	free := window - used
	lines = append(lines, contextRow("free space", "~"+kilo(max(free, 0)), max(free, 0), window, barWidth, th.dim.Render))
	if free < 0 {
		lines = append(lines, th.bad.Render(fmt.Sprintf("  ⚠ about %s tokens over the window: start a new conversation with /clear", kilo(-free))))
	} else if used*100 >= contextWarnPercent*window {
		lines = append(lines, th.warn.Render(fmt.Sprintf("  ⚠ %d%% of the window is in use: /clear starts a new conversation", used*100/window)))
	}
	if mt := &m.meter; mt.subRequests > 0 {
		lines = append(lines, th.dim.Render(fmt.Sprintf("  subagents: %s tokens in %s, in their own contexts (only their answers are in this one)",
			kilo(mt.subUsage.PromptTokens+mt.subUsage.CompletionTokens), plural(mt.subRequests, "request"))))
	}
	note := fmt.Sprintf("  ~ estimated at %d bytes per token", bytesPerToken)
	switch {
	case m.lastIn > 0 && m.lastInCompacted:
		note += fmt.Sprintf("; since the compaction the next request is estimated at ~%s tokens", kilo(m.lastIn))
	case m.lastIn > 0 && m.meter.lastEstimated:
		note += fmt.Sprintf("; the last request used ~%s tokens (estimated: the gateway reported none)", kilo(m.lastIn))
	case m.lastIn > 0:
		note += fmt.Sprintf("; the last request used %s tokens as the gateway reported", kilo(m.lastIn))
	}
	lines = append(lines, th.dim.Render(note))
	if r := m.meter.last; r != nil {
		line := fmt.Sprintf("  last request: %s sent in %d messages, %.0f%% tool results", bytesText(r.Bytes), r.Messages, 100*r.ToolResultShare())
		if m.meter.prevBytes > 0 {
			// The messages array of the previous request less its closing bracket.
			if r.PrefixBytes >= m.meter.prevBytes-1 {
				line += "; it began with the previous request unchanged (cacheable)"
			} else {
				line += fmt.Sprintf("; only its first %s matched the previous request", bytesText(r.PrefixBytes))
			}
		}
		lines = append(lines, th.dim.Render(line))
	}
	return lines
}

// tokensOf estimates the tokens of n bytes of text, rounding up.
func tokensOf(n int) int { return (max(n, 0) + bytesPerToken - 1) / bytesPerToken }

// contextRow is one line of the /context card.
func contextRow(label, tokens string, tok, window, barWidth int, style func(...string) string) string {
	pct := 0.0
	if window > 0 {
		pct = 100 * float64(tok) / float64(window)
	}
	row := fmt.Sprintf("  %-14s %8s %5.1f%%", label, tokens, pct)
	if barWidth > 0 {
		fill := min(barWidth, int(pct*float64(barWidth)/100+0.5))
		row += "  " + style(strings.Repeat("█", fill)) + strings.Repeat("·", barWidth-fill)
	}
	return row
}

// contextStatus is the status line's context use: the last request's
// tokens against the window, "~" when estimated, "of ~128k?" when the
// window is assumed, and a warning from contextWarnPercent on.
func (m *model) contextStatus() string {
	window, source := m.modelWindow()
	pct := min(999, m.lastIn*100/window)
	text := "ctx " + approx(m.meter.lastEstimated || m.lastInCompacted, fmt.Sprintf("%d%%", pct))
	if source == app.WindowAssumed {
		text += " of " + kilo(window) + " assumed"
	}
	if pct >= contextWarnPercent {
		return m.rc.th.warn.Render("⚠ " + text + " full · /compact")
	}
	return text
}

// windowSourceText says where the window came from, in a word and, for
// a window tern was not told, in a sentence: an assumed one is still what
// automatic compaction works against.
func windowSourceText(source app.WindowSource) (short, detail string) {
	switch source {
	case app.WindowConfigured:
		return "config.toml", ""
	case app.WindowGateway:
		return "from the gateway", ""
	case app.WindowDatabase:
		return "model database", "context_window in config.toml overrides it"
	case app.WindowAssumed:
		return "assumed", "assumed (default_context_window): nothing knows this model's window; automatic compaction uses it. " +
			"Set context_window for this model in config.toml"
	}
	return "", ""
}
