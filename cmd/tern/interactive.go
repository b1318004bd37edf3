package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/signal"
	"syscall"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/cmd/tern/config"
	"github.com/ternhq/tern/tools"
	"github.com/ternhq/tern/tui"
)

// interactive is `tern` without a subcommand: it wires a session and shows
// the full-screen interface on it.
func (c *cli) interactive(ctx context.Context, flags *commonFlags, choice sessionChoice) int {
	cfg, err := c.loadConfig(flags)
	if err != nil {
		c.printf(c.stderr, "tern: %v\nFix the configuration (docs/config.md); 'tern doctor' shows every setting and where it came from.\n", err)
		return exitUsage
	}
	a, err := c.wire(ctx, cfg, wireOptions{interactive: true, notices: c.stderr, session: choice})
	if err != nil {
		c.printf(c.stderr, "tern: %v\n", err)
		return exitUsage
	}
	if r := a.Resumed; r != nil {
		what := "resumed session " + r.log.Header.ID
		if choice.fork {
			what = "forked session " + r.log.Header.ID + " as " + a.SessionID()
		}
		note := fmt.Sprintf("%s: %d messages", what, len(r.state.Messages))
		c.printf(c.stderr, "tern: %s\n", note)
		a.Notices = append(a.Notices, note)
	}
	if a.Sandbox.Warning != "" {
		a.Notices = append(a.Notices, a.Sandbox.Warning)
	}
	// A closed terminal (SIGHUP, as tmux kill-session sends) or a SIGTERM
	// ends the interface like a quit, so the log is closed properly and a
	// session that never got a prompt is removed.
	sctx, stopSignals := signal.NotifyContext(ctx, syscall.SIGHUP, syscall.SIGTERM)
	defer stopSignals()
	code := c.showInterface(sctx, a, cfg)
	id, _, used := a.log.state()
	if err := a.Close(); err != nil {
		c.printf(c.stderr, "tern: %s\n", a.Redact(err.Error()))
		if code == exitOK {
			code = exitFailed
		}
	}
	if used && sctx.Err() == nil {
		// After the screen is restored, so it stays in the scrollback.
		c.printf(c.stdout, "resume with: tern -r %s\n", id)
	}
	return code
}

// showInterface runs the full-screen interface on a wired session and
// returns the exit status.
func (c *cli) showInterface(ctx context.Context, a *app, cfg *config.Config) int {
	actx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		a.Agent.Run(actx)
	}()
	// Once the interface is gone, stop the agent and drain its events, so
	// the Recorder has seen every one before the log is closed.
	defer func() {
		stop()
		for range a.Agent.Events() {
		}
		<-done
	}()
	opts := tui.Options{
		Agent:         a.Agent,
		Workspace:     a.Workspace,
		Offline:       a.Offline,
		Theme:         cfg.Theme.V,
		Mouse:         cfg.Mouse.V,
		RememberModel: cfg.RememberModel,
		Home:          a.Home,
		Models:        a.Models,
		LookupWindow:  a.LookupWindow,
		ContextWindow: a.ContextWindow,
		Shell:         userShell(a.Registry),
		Attach:        attachFile(a.Registry),
		Files:         a.Files,
		Notices:       a.Notices,
		Permissions:   a.Permissions,
		Prices:        a.Prices,
		Memory:        tui.MemoryFromAgent(a.Memory),
		Context: func() tui.ContextInfo {
			return tui.ContextFromAgent(a.Agent.ContextBytes(agent.MemoryBytes(a.Memory)))
		},
		Remember: func(line string) (string, error) { return agent.AppendMemory(a.Workspace, line) },
	}
	if a.Resumed != nil {
		opts.Replay = a.Resumed.state.Replay()
	}
	opts.ContinueUnrecorded = a.unrecorded
	opts.LSP = lspServers(a.LSP)
	if a.log != nil {
		opts.Export, opts.Diff, opts.Undo = a.log.export, a.log.diff, a.log.undoFor(a.Agent.Agent)
		opts.Rename = a.log.rename
		opts.Sessions = &switcher{log: a.log, agent: a.Agent.Agent, workspace: a.Workspace, hash: toolsHash(a.Registry), redact: a.Redact, window: a.Agent.window}
		opts.ResumeAtStart, opts.ResumeFork = a.Pick, a.Pick && a.PickFork
	}
	if err := tui.Run(ctx, opts); err != nil {
		c.printf(c.stderr, "tern: %v\n", a.Redact(err.Error()))
		return exitFailed
	}
	return exitOK
}

// userShell runs a `!command` the user typed through run_shell, so it gets
// the same process-group handling, environment filtering and output cap as
// the model's commands (but no approval: the user asked for it).
func userShell(reg *tools.Registry) func(ctx context.Context, command string, output func(string, bool)) (int, error) {
	return func(ctx context.Context, command string, output func(string, bool)) (int, error) {
		t, ok := reg.Get(tools.RunShellName)
		if !ok {
			return 0, errors.New(tools.RunShellName + " is not available")
		}
		args, err := json.Marshal(map[string]string{"command": command})
		if err != nil {
			return 0, fmt.Errorf("encode the command: %w", err)
		}
		stdout := func(s string) { output(s, false) }
		var r tools.Result
		if sr, ok := t.(tools.StreamRunner); ok {
			r = sr.RunStreams(ctx, args, stdout, func(s string) { output(s, true) })
		} else {
			r = t.Run(ctx, args, stdout)
		}
		switch r.Status {
		case tools.StatusOK:
			if r.SandboxNote != "" {
				return r.ExitCode, &tui.SandboxRefused{Note: r.SandboxNote}
			}
			return r.ExitCode, nil
		case tools.StatusCancelled:
			return r.ExitCode, context.Canceled
		case tools.StatusError, tools.StatusDenied:
			return r.ExitCode, errors.New(r.Output)
		}
		return r.ExitCode, nil
	}
}

// attachFile reads an @-mentioned file through read_file, so mentions pass
// the same workspace guard, secret-file filter and clamp as the model's reads.
func attachFile(reg *tools.Registry) func(path string) (string, error) {
	return func(path string) (string, error) {
		t, ok := reg.Get(tools.ReadFileName)
		if !ok {
			return "", errors.New(tools.ReadFileName + " is not available")
		}
		args, err := json.Marshal(map[string]string{"path": path})
		if err != nil {
			return "", fmt.Errorf("encode the path: %w", err)
		}
		r := t.Run(context.Background(), args, nil)
		switch r.Status {
		case tools.StatusOK:
			return r.Output, nil
		case tools.StatusError, tools.StatusDenied, tools.StatusCancelled:
			return "", errors.New(r.Output)
		}
		return "", errors.New(r.Output)
	}
}
