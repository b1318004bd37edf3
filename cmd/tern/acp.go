package main

import (
	"context"
	"fmt"
	"log/slog"
	"os/signal"
	"syscall"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/cmd/tern/config"
	"github.com/ternhq/tern/internal/acp"
	"github.com/ternhq/tern/internal/app"
	"github.com/ternhq/tern/tools"
	"github.com/ternhq/tern/tools/mcp"
)

const acpUsage = `Usage: tern acp [flags]

Speaks the Agent Client Protocol (version 1) on stdin and stdout, so an
editor (Zed, JetBrains, Neovim, Emacs) drives tern sessions: it sends the
prompts, receives the answers, tool calls and diffs as they stream, and
answers every approval. Each session/new works in the directory the editor
names; sessions are recorded as in the interface (tern -r resumes them).
stdout carries protocol messages only: diagnostics go to stderr.
See docs/acp.md.

` + commonFlagsUsage

// acpCmd is `tern acp`: the ACP agent on stdio until stdin ends.
func (c *cli) acpCmd(ctx context.Context, args []string) int {
	fs, common := newFlagSet("tern acp")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return c.flagError("tern acp", err, acpUsage)
	}
	if len(pos) > 0 {
		c.printf(c.stderr, "tern acp: unexpected argument %q: the editor sends the prompts\n", pos[0])
		return exitUsage
	}
	cfg, err := config.Load(config.Inputs{Flags: common.config(), Getenv: c.getenv, UserHome: c.userHome})
	if err != nil {
		c.printf(c.stderr, "tern acp: %v\nFix the configuration (docs/config.md); 'tern doctor' shows every setting and where it came from.\n", err)
		return exitUsage
	}
	// What can be checked before any session is, so a bad setting is a
	// usage error at start rather than an error for every session/new.
	if _, err := agent.ParsePolicy(cfg.Approval.V); err != nil {
		c.printf(c.stderr, "tern acp: approval policy from %s: %v\n", cfg.Approval.Source, err)
		return exitUsage
	}
	// An editor stops its agent with SIGTERM or by closing stdin; both end
	// the running turns and close the session logs.
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	log := slog.New(slog.NewTextHandler(c.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	factory := func(ctx context.Context, cwd string, editor tools.EditorFiles, servers []mcp.ServerConfig) (app.Service, error) {
		sc := *c
		sc.cwd = cwd
		w, err := sc.wire(ctx, cfg, wireOptions{notices: c.stderr, session: app.Choice{Mode: app.ResumeNone}, editor: editor, mcp: servers})
		if err != nil {
			return nil, err
		}
		// The budgets in config.toml (max_cost, max_requests,
		// max_duration) limit each editor turn as they limit tern run's;
		// the model's prices are set either way, so /cost tells the cost.
		if err := setBudget(cfg, w); err != nil {
			_ = w.Close() // nothing ran
			return nil, err
		}
		return acpSession{Session: w.Session, w: w}, nil
	}
	if err := acp.Serve(ctx, c.stdin, c.stdout, acp.Options{New: factory, Version: version, Log: log}); err != nil {
		c.printf(c.stderr, "tern acp: %v\n", err)
		return exitFailed
	}
	return exitOK
}

// acpSession is a wired session for the ACP server, which closes it (log
// and sandbox directory) once it stopped.
type acpSession struct {
	*app.Session
	w *wired
}

// Close closes the session's log and releases its directories.
func (s acpSession) Close() error {
	if err := s.w.Close(); err != nil {
		return fmt.Errorf("close session %s: %w", s.ID(), err)
	}
	return nil
}
