// Package tui is tern's full-screen terminal interface: one Bubble Tea
// program that renders the agent's events (streamed Markdown, tool cards,
// approval dialogs) and owns the keyboard. It never talks to a provider; all
// it knows of the model is the agent's event stream and the Backend calls.
package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/ternhq/tern/agent"
)

// Backend is what the interface drives: *agent.Agent satisfies it. The
// caller starts the agent's Run goroutine.
type Backend interface {
	Events() <-chan agent.Event
	Submit(text string) error
	Cancel()
	SetPolicy(agent.Policy)
	Policy() agent.Policy
	SetModel(string)
	Model() string
	// Reset starts a new conversation; the interface calls it from a
	// command, off the Update loop, as it may create and sync files.
	// agent.ErrBusy means nothing was reset; any other error tells what
	// went wrong once the conversation was reset (a new session log that
	// could not be started), and is shown as a notice.
	Reset() error
	// Permissions and Revoke are /permissions: the policy, rules and
	// session grants in force, and taking a grant back.
	Permissions() agent.Permissions
	Revoke(key string) bool
}

// The agent is the interface's backend; checked here, at compile time.
var _ Backend = (*agent.Agent)(nil)

// Options configure the interface.
type Options struct {
	// Agent is the conversation the interface drives.
	Agent Backend
	// Workspace is the directory tern works in (shown shortened, and the
	// root of @-mention completion).
	Workspace string
	// Offline shows the "offline" badge: the scripted provider answers.
	Offline bool
	// Theme is "auto" (ask the terminal), "dark" or "light".
	Theme string
	// Mouse starts with mouse capture on (/mouse toggles it).
	Mouse bool
	// RememberModel makes a model picked with /model the default of new
	// sessions; nil: the pick holds for this session only.
	RememberModel func(id string) error
	// Home is TERN_HOME; the prompt history lives in Home/history.
	Home string
	// Models lists the gateway's models for /model; nil when unknown.
	Models func(ctx context.Context) ([]string, error)
	// ContextWindow is the model's context size in tokens from the config;
	// 0 when unknown.
	ContextWindow int
	// LookupWindow asks the gateway's model list for a model's context
	// size (0 when it does not say); it is used, once, when ContextWindow
	// is 0. nil: the window is assumed.
	LookupWindow func(ctx context.Context, model string) (int, error)
	// Shell runs a `!` command, streaming its output and telling standard
	// error apart; nil disables `!`.
	Shell func(ctx context.Context, command string, output func(text string, stderr bool)) (exitCode int, err error)
	// Attach reads an @-mentioned file for the model (clamped, secrets
	// refused); nil attaches nothing.
	Attach func(path string) (string, error)
	// Files lists up to max workspace files for the @-mention picker, with
	// the tools' rules (.gitignore, secrets, links); nil offers none.
	Files func(ctx context.Context, max int) ([]string, error)
	// Permissions says where the approval settings came from and what
	// the shell sandbox allows, for /permissions.
	Permissions PermissionsInfo
	// LSP lists the language servers, for /lsp and the status line's
	// badge; nil when they are off.
	LSP func() []LSPServer
	// Notices are shown once in the welcome block, e.g. that the shell
	// sandbox is unavailable or that a session was resumed.
	Notices []string
	// Prices are the starting model's prices, for /cost; nil when unknown.
	// They are not applied to requests made after /model switches away.
	Prices *Prices
	// Context measures what the next request will contain, for /context
	// (ContextFromAgent converts the agent's figures); nil disables it.
	Context func() ContextInfo
	// Memory lists the project memory files in the system prompt, for /memory.
	Memory []MemoryFile
	// Remember adds a `#` line to the project's AGENTS.md and returns the
	// file's path (agent.AppendMemory); nil sends such lines to the model.
	Remember func(line string) (path string, err error)
	// Replay are a resumed session's events (session.State.Replay); they
	// are rendered like live ones before the agent's events are read.
	Replay []agent.Event
	// Export writes the conversation as Markdown to path (a default one
	// when path is "") and returns where it went, for /export; nil
	// disables it.
	Export func(path string) (written string, err error)
	// Rename gives the session a title and returns it as recorded, for
	// /rename; nil disables it.
	Rename func(title string) (string, error)
	// Diff returns every file change of the session as concatenated
	// unified diffs, for /diff; nil disables it.
	Diff func(ctx context.Context) (string, error)
	// Undo reverts the last turn's file changes and says what it did, for
	// /undo. Without force it changes nothing when files changed outside
	// tern and returns *UndoConflicts; with force it overwrites them. nil
	// disables it.
	Undo func(ctx context.Context, force bool) (summary string, err error)
	// Sessions lists, resumes, forks and rewinds saved sessions, for
	// /resume, /fork, /rewind and esc esc; nil disables them.
	Sessions Sessions
	// ResumeAtStart opens the session picker when the interface starts
	// (tern --resume without an id); with ResumeFork choosing one forks it.
	ResumeAtStart, ResumeFork bool
	// ContinueUnrecorded is the user's choice, after the session log could
	// not be written (an agent.ErrRecording failure), to go on without
	// recording; it reports whether recording had failed. nil: /unrecorded
	// has nothing to do (the session is not recorded at all).
	ContinueUnrecorded func() bool
}

// Run shows the interface until the user quits or ctx is cancelled. It
// returns nil on a normal quit.
func Run(ctx context.Context, opts Options) error {
	if opts.Agent == nil {
		return errors.New("tui: no agent to drive")
	}
	m := newModel(ctx, opts, os.Getenv)
	// lipgloss detected stdout's colour profile when it was loaded; Bubble Tea
	// would detect it again, the same way, and inside tmux that runs
	// `tmux info` a second time, a process on the way to the first frame.
	// Bubble Tea's default 60 frames a second, not its most (120): 120 shows
	// keystrokes and the first frame sooner but costs a slow stream more
	// CPU, and that target of the end-to-end benchmark
	// (cmd/tern/e2e_bench_test.go) has less room than the other two.
	p := tea.NewProgram(m, tea.WithContext(ctx), tea.WithColorProfile(lipgloss.Writer.Profile))
	_, err := p.Run()
	// Alternate-scroll mode is ours to undo: Bubble Tea does not know it.
	_, _ = io.WriteString(os.Stdout, altScrollOff)
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
