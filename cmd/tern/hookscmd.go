package main

import (
	"bufio"
	"strings"

	"github.com/ternhq/tern/cmd/tern/config"
	"github.com/ternhq/tern/internal/sanitize"
	"github.com/ternhq/tern/tools"
)

const hooksUsage = `Usage: tern hooks [list]
       tern hooks approve

list     the hooks configured in $TERN_HOME/config.toml and in this workspace's
         .tern/config.toml, with where each is written and whether it runs
approve  shows this workspace's .tern/config.toml and, if you agree, lets its
         hooks run until the file changes
Hooks run with your rights, outside the shell sandbox (docs/security.md).
`

// hooksCmd is `tern hooks`.
func (c *cli) hooksCmd(args []string) int {
	sub := "list"
	if len(args) > 0 {
		sub = args[0]
	}
	switch sub {
	case "list", "approve":
	case "-h", "--help", "help":
		c.printf(c.stdout, "%s", hooksUsage)
		return exitOK
	default:
		c.printf(c.stderr, "tern hooks: unknown command %q\n%s", sub, hooksUsage)
		return exitUsage
	}
	cfg, err := config.Load(config.Inputs{Getenv: c.getenv, UserHome: c.userHome})
	if err != nil {
		c.printf(c.stderr, "tern hooks: %v\n", err)
		return exitUsage
	}
	ws, err := tools.NewWorkspace(c.cwd)
	if err != nil {
		c.printf(c.stderr, "tern hooks: %v\n", err)
		return exitFailed
	}
	p, perr := config.LoadProjectHooks(ws.Root)
	if sub == "list" {
		for _, h := range cfg.Hooks {
			c.printf(c.stdout, "%s\n", hookLine(h.Where(), string(h.Event), h.Match, h.Command, ""))
		}
		if perr != nil {
			c.printf(c.stderr, "tern hooks: %v\n", perr)
		}
		if p != nil {
			state := " (not approved: not run; tern hooks approve)"
			if hooksStore(cfg).Approved(ws.Root, p.Content) {
				state = ""
			}
			for _, h := range p.Hooks {
				c.printf(c.stdout, "%s\n", hookLine(h.Where(), string(h.Event), h.Match, h.Command, state))
			}
		}
		if len(cfg.Hooks) == 0 && (p == nil || len(p.Hooks) == 0) {
			c.printf(c.stdout, "no hooks configured\n")
		}
		return exitOK
	}
	switch {
	case perr != nil:
		c.printf(c.stderr, "tern hooks approve: %v\n", perr)
		return exitFailed
	case p == nil:
		c.printf(c.stdout, "%s does not exist; nothing to approve\n", config.ProjectFile)
		return exitOK
	case hooksStore(cfg).Approved(ws.Root, p.Content):
		c.printf(c.stdout, "%s is already approved as it is\n", p.Path)
		return exitOK
	case !c.stdinIsTerminal:
		c.printf(c.stderr, "tern hooks approve: stdin is not a terminal; run it in a terminal to answer\n")
		return exitUsage
	}
	c.printf(c.stdout, "%s:\n\n%s\n", p.Path, sanitize.Clean(string(p.Content)))
	c.printf(c.stdout, "These hooks run with your rights, outside the sandbox, at the events named. Let them run? [y/N] ")
	line, _ := bufio.NewReader(c.stdin).ReadString('\n')
	if a := strings.ToLower(strings.TrimSpace(line)); a != "y" && a != "yes" {
		c.printf(c.stdout, "not approved; its hooks stay off\n")
		return exitOK
	}
	if err := hooksStore(cfg).Approve(ws.Root, p.Content); err != nil {
		c.printf(c.stderr, "tern hooks approve: %v\n", err)
		return exitFailed
	}
	c.printf(c.stdout, "approved; its hooks run from the next session until the file changes\n")
	return exitOK
}

// hookLine is one hook for `tern hooks` and `tern doctor`.
func hookLine(where, event, match, command, state string) string {
	on := event
	if match != "" {
		on += " " + match
	}
	return sanitize.Clean(where + "  " + on + "  " + command + state)
}
