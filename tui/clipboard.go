package tui

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/internal/sanitize"
)

// clipboard is the ways /copy can hand text to the clipboard. The model
// holds one so that tests can see what would be copied without touching the
// clipboard of whoever runs them.
type clipboard struct {
	// osc52 asks the terminal to set its clipboard (OSC 52).
	osc52 func(text string) tea.Cmd
	// tmux loads text into tmux's paste buffer.
	tmux func(ctx context.Context, text string) error
	// tool pipes text to a local clipboard program, if one is installed.
	tool func(ctx context.Context, text string)
	// image reads a picture from the clipboard with a local program
	// (wl-paste, xclip); an error says none is there.
	image func(ctx context.Context) ([]byte, error)
}

// systemClipboard is the real clipboard: the terminal, tmux and the
// programs installed.
func systemClipboard() clipboard {
	return clipboard{osc52: tea.SetClipboard, tmux: copyWithTmux, tool: copyWithTool, image: imageFromTool}
}

// lastAnswer is the Markdown of the most recent assistant message.
func (m *model) lastAnswer() string {
	for i := len(m.tr.blocks) - 1; i >= 0; i-- {
		if b, ok := m.tr.blocks[i].(*assistantBlock); ok && strings.TrimSpace(b.text()) != "" {
			return b.text()
		}
	}
	return ""
}

// cmdCopy copies the last answer and says truthfully how: inside tmux
// ($TMUX set) into tmux's buffer, which `tmux load-buffer -w` also hands
// to the outer terminal's clipboard, since tmux may swallow OSC 52; else
// OSC 52 through the terminal (works over SSH, if the terminal allows it)
// and a local clipboard tool when one is installed.
func (m *model) cmdCopy(string) tea.Cmd {
	text := m.lastAnswer()
	if text == "" {
		m.setNotice("nothing to copy yet", true)
		return nil
	}
	lines := strings.Count(strings.TrimRight(text, "\n"), "\n") + 1
	what := "the last answer (" + itoa(lines) + " lines)"
	ctx, clip := m.ctx, m.clip
	if m.getenv("TMUX") != "" {
		m.setNotice("copying "+what+"…", false)
		return func() tea.Msg {
			if err := clip.tmux(ctx, text); err != nil {
				return copiedMsg{text: text, what: what, tmuxErr: err}
			}
			return noticeMsg{text: "copied " + what + " via tmux buffer"}
		}
	}
	m.setNotice("sent "+what+" to the terminal via OSC 52 (your terminal must allow it)", false)
	return tea.Batch(clip.osc52(text), func() tea.Msg {
		clip.tool(ctx, text)
		return nil
	})
}

// copiedMsg reports a tmux copy that failed, so OSC 52 is tried instead.
type copiedMsg struct {
	text, what string
	tmuxErr    error
}

// onCopied falls back to OSC 52 when tmux would not take the text.
func (m *model) onCopied(msg copiedMsg) tea.Cmd {
	m.setNotice("tmux did not take it ("+sanitize.Clean(msg.tmuxErr.Error())+"); sent "+msg.what+" to the terminal via OSC 52 (your terminal must allow it)", false)
	return m.clip.osc52(msg.text)
}

// copyWithTmux loads text into tmux's paste buffer; -w also sets the outer
// terminal's clipboard when tmux's set-clipboard option allows it.
func copyWithTmux(ctx context.Context, text string) error {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	c := exec.CommandContext(ctx, "tmux", "load-buffer", "-w", "-")
	c.Stdin = strings.NewReader(text)
	if out, err := c.CombinedOutput(); err != nil {
		if s := strings.TrimSpace(string(out)); s != "" {
			return fmt.Errorf("%w: %s", err, s)
		}
		return err
	}
	return nil
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
