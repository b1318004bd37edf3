package main

import (
	"fmt"
	"io"

	"github.com/ternhq/tern/cmd/tern/config"
	"github.com/ternhq/tern/internal/trust"
	"github.com/ternhq/tern/tools/hooks"
)

// hooksApprovals is the file in $TERN_HOME remembering approved project
// .tern/config.toml contents.
const hooksApprovals = "hooks-approved.json"

// hooksStore is where approvals of a project's hooks are kept.
func hooksStore(cfg *config.Config) trust.Store {
	return trust.Store{Home: cfg.Home.V, File: hooksApprovals}
}

// hooksRunner runs config.toml's hooks, then the workspace's
// .tern/config.toml hooks if the user approved that exact file (tern hooks
// approve); an unapproved or broken file is said on notices and runs
// nothing; the notice is also returned, for the interface to show. The
// runner is nil when no hook is configured.
func (c *cli) hooksRunner(cfg *config.Config, root string, notices io.Writer) (*hooks.Runner, string) {
	hs := append([]hooks.Hook(nil), cfg.Hooks...)
	p, err := config.LoadProjectHooks(root)
	notice := ""
	switch {
	case err != nil:
		notice = fmt.Sprintf("%v; its hooks do not run", err)
	case p == nil || len(p.Hooks) == 0:
	case hooksStore(cfg).Approved(root, p.Content):
		hs = append(hs, p.Hooks...)
	default:
		notice = fmt.Sprintf("%s defines %d hooks, not run: they run only once you approve this exact file; review it with `tern hooks approve`", p.Path, len(p.Hooks))
	}
	if notice != "" {
		c.printf(notices, "tern: %s\n", notice)
	}
	if len(hs) == 0 {
		return nil, notice
	}
	return hooks.New(hs, root), notice
}
