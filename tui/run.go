// Package tui is tern's full-screen terminal interface: one Bubble Tea
// program that renders the agent's events (streamed Markdown, tool cards,
// approval dialogs) and owns the keyboard. It never talks to a provider: it
// drives the session through app.Service alone.
package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/term"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/internal/app"
)

// Options configure the interface. All it does with the session goes
// through App; the rest is data for the view.
type Options struct {
	// App is the session the interface drives.
	App app.Service
	// Workspace is the directory tern works in (shown shortened, and the
	// root of @-mention completion).
	Workspace string
	// Offline shows the "offline" badge: the scripted provider answers.
	Offline bool
	// Theme is "auto" (ask the terminal), "dark" or "light".
	Theme string
	// Mouse starts with mouse capture on (/mouse toggles it).
	Mouse bool
	// Home is TERN_HOME; the prompt history lives in Home/history.
	Home string
	// Permissions says where the approval settings came from and what
	// the shell sandbox allows, for /permissions.
	Permissions PermissionsInfo
	// Notices are shown once in the welcome block, e.g. that the shell
	// sandbox is unavailable or that a session was resumed.
	Notices []string
	// Prices are the starting model's prices, for /cost; nil when unknown.
	// They are not applied to requests made after /model switches away.
	Prices *Prices
	// Memory lists the project memory files in the system prompt, for /memory.
	Memory []MemoryFile
	// Replay are a resumed session's events (session.State.ReplayEach);
	// they are rendered like live ones, as they come, before the agent's
	// events are read.
	Replay iter.Seq[agent.Event]
	// ResumeAtStart opens the session picker when the interface starts
	// (tern --resume without an id); with ResumeFork choosing one forks it.
	// A session that is not recorded opens no picker.
	ResumeAtStart, ResumeFork bool
	// Continue is the id of a saved session to open as the interface starts
	// (tern -c, tern -r id), in a fork with ContinueFork: App starts as a
	// new session, Replay holds the saved one's last turns (app.Located
	// Preview) and the first frame shows them while App.Open reads the
	// whole log. Until it has, what is typed waits, queued; a session that
	// cannot be opened ends the interface with Run's error.
	Continue     string
	ContinueFork bool
}

// Run shows the interface until the user quits or ctx is cancelled. It
// returns nil on a normal quit.
func Run(ctx context.Context, opts Options) error {
	if opts.App == nil {
		return errors.New("tui: no session to drive")
	}
	// The model's work in the background (the picker's walk) ends with the
	// interface.
	mctx, cancel := context.WithCancel(ctx)
	defer cancel()
	m := newModel(mctx, opts, os.Getenv)
	// Laid out for the terminal's size from the start: at the default 80x24
	// until Bubble Tea's size message, a resumed transcript was wrapped
	// twice on the way to the first frame the user sees.
	if w, h, err := term.GetSize(os.Stdout.Fd()); err == nil && w > 0 && h > 0 {
		m.resize(w, h)
	}
	// lipgloss detected stdout's colour profile when it was loaded; Bubble Tea
	// would detect it again, the same way, and inside tmux that runs
	// `tmux info` a second time, a process on the way to the first frame.
	// Every view, the first included, is written to the terminal at once,
	// not at the next tick of Bubble Tea's ticker, which runs slowly (see
	// flushnow.go).
	popts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithColorProfile(lipgloss.Writer.Profile), tea.WithFPS(tickerFPS)}
	// tern's own handles on the terminal, where it has them (ttyfile_linux.go
	// says why); elsewhere Bubble Tea's standard files.
	in, inErr := openTTY(os.Stdin, true)
	if inErr == nil {
		popts = append(popts, tea.WithInput(in))
		m.tty = in
	}
	out, outErr := openTTY(os.Stdout, false)
	if outErr == nil {
		popts = append(popts, tea.WithOutput(out))
	}
	var p *tea.Program
	p = tea.NewProgram(inputFlusher{model: m, w: &screenWriter{p: &p, pending: true}}, popts...)
	_, err := p.Run()
	if inErr == nil {
		_ = in.Close() // ends Bubble Tea's reader, which shutting down does not
	}
	if outErr == nil {
		_ = out.Close()
	}
	// Alternate-scroll mode is ours to undo: Bubble Tea does not know it.
	_, _ = io.WriteString(os.Stdout, altScrollOff)
	if err == nil && m.continueErr != nil {
		return m.continueErr
	}
	switch {
	case err == nil:
		return nil
	case errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil:
		return nil // the caller cancelled: a normal end
	case errors.Is(err, tea.ErrInterrupted):
		return nil // SIGINT from outside: quit as ctrl+c would
	}
	return fmt.Errorf("terminal interface: %w", err)
}
