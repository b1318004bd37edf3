package tui

import (
	"context"
	"os/exec"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
)

// lastAnswer is the Markdown of the most recent assistant message.
func (m *model) lastAnswer() string {
	for i := len(m.tr.blocks) - 1; i >= 0; i-- {
		if b, ok := m.tr.blocks[i].(*assistantBlock); ok && strings.TrimSpace(b.text()) != "" {
			return b.text()
		}
	}
	return ""
}

// cmdCopy copies the last answer: OSC 52 through the terminal (works over
// SSH) and a local clipboard tool when one is installed.
func (m *model) cmdCopy(string) tea.Cmd {
	text := m.lastAnswer()
	if text == "" {
		m.setNotice("nothing to copy yet", true)
		return nil
	}
	lines := strings.Count(strings.TrimRight(text, "\n"), "\n") + 1
	m.setNotice("copied the last answer ("+itoa(lines)+" lines)", false)
	ctx := m.ctx
	return tea.Batch(tea.SetClipboard(text), func() tea.Msg {
		copyWithTool(ctx, text)
		return nil
	})
}

// copyWithTool pipes text to wl-copy, xclip or xsel, whichever exists; the
// OSC 52 copy already happened, so failures here are not reported.
func copyWithTool(ctx context.Context, text string) {
	tools := [][]string{
		{"wl-copy"},
		{"xclip", "-selection", "clipboard"},
		{"xsel", "--clipboard", "--input"},
		{"pbcopy"},
	}
	for _, t := range tools {
		if _, err := exec.LookPath(t[0]); err != nil {
			continue
		}
		ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		c := exec.CommandContext(ctx, t[0], t[1:]...) //nolint:gosec // fixed tool names
		c.Stdin = strings.NewReader(text)
		err := c.Run()
		cancel()
		if err == nil {
			return
		}
	}
}
