package main

import (
	"context"
	"errors"
	"fmt"
	"os/signal"
	"slices"
	"syscall"

	"github.com/ternhq/tern/cmd/tern/config"
	"github.com/ternhq/tern/internal/app"
	"github.com/ternhq/tern/tui"
)

// interactive is `tern` without a subcommand: it wires a session and shows
// the full-screen interface on it.
func (c *cli) interactive(ctx context.Context, flags *commonFlags, choice app.Choice) int {
	cfg, err := c.loadConfig(flags)
	if err != nil {
		c.printf(c.stderr, "tern: %v\nFix the configuration (docs/config.md); 'tern doctor' shows every setting and where it came from.\n", err)
		return exitUsage
	}
	a, err := c.wire(ctx, cfg, wireOptions{interactive: true, notices: c.stderr, session: choice, later: true})
	if err != nil {
		c.printf(c.stderr, "tern: %v\n", err)
		return exitUsage
	}
	if r := a.Saved; r != nil {
		what := "resumed session " + r.ID()
		if choice.Fork {
			what = "forked session " + r.ID() + " as " + a.Session.ID()
		}
		note := fmt.Sprintf("%s: %d messages", what, r.Messages())
		c.printf(c.stderr, "tern: %s\n", note)
		a.Notices = append(a.Notices, note)
	}
	if r := a.Continue; r != nil {
		// The interface says how many messages once it has read them.
		what := "resuming session " + r.ID()
		if r.Fork() {
			what = "forking session " + r.ID()
		}
		c.printf(c.stderr, "tern: %s\n", what)
	}
	if a.Sandbox.Warning != "" {
		a.Notices = append(a.Notices, a.Sandbox.Warning)
	}
	// A closed terminal (SIGHUP, as tmux kill-session sends) or a SIGTERM
	// ends the interface like a quit, so the log is closed properly and a
	// session that never got a prompt is removed.
	sctx, stopSignals := signal.NotifyContext(ctx, syscall.SIGHUP, syscall.SIGTERM)
	defer stopSignals()
	stopMemStats := memStatsOnSignal(sctx, c.getenv(envMemStats))
	code := c.showInterface(sctx, a, cfg)
	stopMemStats()
	id, used := a.Session.ID(), a.Session.Used()
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
func (c *cli) showInterface(ctx context.Context, a *wired, cfg *config.Config) int {
	s := a.Session
	actx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.Run(actx)
	}()
	// Once the interface is gone, stop the agent and drain its events, so
	// the Recorder has seen every one before the log is closed.
	defer func() {
		stop()
		for range s.Events() {
		}
		<-done
	}()
	opts := tui.Options{
		App:           s,
		Workspace:     a.Workspace,
		Offline:       a.Offline,
		Theme:         cfg.Theme.V,
		Mouse:         cfg.Mouse.V,
		Home:          a.Home,
		Notices:       a.Notices,
		Permissions:   a.Permissions,
		Memory:        tui.MemoryFromAgent(a.Memory),
		ResumeAtStart: a.Pick && s.Recorded(),
		ResumeFork:    a.Pick && a.PickFork,
	}
	if a.Saved != nil {
		opts.Replay = a.Saved.Replay()
	}
	if r := a.Continue; r != nil {
		opts.Replay = slices.Values(r.Preview())
		opts.Continue, opts.ContinueFork = r.ID(), r.Fork()
	}
	if err := tui.Run(ctx, opts); err != nil {
		c.printf(c.stderr, "tern: %v\n", a.Redact(err.Error()))
		var ce *tui.ContinueError
		if errors.As(err, &ce) {
			return exitUsage // as when the session was read before the interface
		}
		return exitFailed
	}
	return exitOK
}
