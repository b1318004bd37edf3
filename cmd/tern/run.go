package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/cmd/tern/headless"
)

// maxPromptBytes bounds a prompt read from stdin.
const maxPromptBytes = 8 << 20

// run is `tern run [flags] PROMPT`: one turn without the interface.
func (c *cli) run(ctx context.Context, args []string) int {
	fs, common, jsonOut := runFlags()
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return c.flagError("tern run", err, runUsage)
	}
	prompt, err := c.prompt(pos)
	if err != nil {
		c.printf(c.stderr, "tern run: %v\nRun 'tern run --help' for usage.\n", err)
		return exitUsage
	}
	cfg, err := c.loadConfig(common)
	if err != nil {
		c.printf(c.stderr, "tern run: %v\nFix the configuration (docs/config.md); 'tern doctor' shows every setting and where it came from.\n", err)
		return exitUsage
	}
	a, err := c.wire(cfg, wireOptions{notices: c.stderr})
	if err != nil {
		c.printf(c.stderr, "tern run: %v\n", err)
		return exitUsage
	}
	defer a.Close()
	if a.Sandbox.Warning != "" && c.stderrIsTerminal {
		c.printf(c.stderr, "tern: %s\n", a.Sandbox.Warning)
	}

	// The first SIGINT cancels the turn; restoring the default handler then
	// lets a second one end tern at once if winding down hangs.
	sigCtx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	defer context.AfterFunc(sigCtx, stop)()

	reason, err := headless.Run(sigCtx, headless.Options{
		Agent:  a.Agent,
		Prompt: prompt,
		JSON:   *jsonOut,
		Session: headless.Session{
			Tern: version, Model: a.Model, Workspace: a.Workspace, Approval: a.Policy.String(), Offline: a.Offline,
		},
		Policy:   a.Policy,
		Stdout:   c.stdout,
		Stderr:   c.stderr,
		Progress: c.stderrIsTerminal,
		Redact:   a.Redact,
	})
	if err != nil {
		c.printf(c.stderr, "tern run: %s\n", a.Redact(err.Error()))
		return exitFailed
	}
	switch reason {
	case agent.FinishDone:
		return exitOK
	case agent.FinishFailed, agent.FinishStepLimit:
		return exitFailed
	case agent.FinishCancelled:
		return exitInterrupted
	}
	return exitFailed
}

// runFlags declares the flags of `tern run`.
func runFlags() (*flag.FlagSet, *commonFlags, *bool) {
	fs, common := newFlagSet("tern run")
	jsonOut := fs.Bool("json", false, "print JSON Lines events (docs/protocol.md)")
	return fs, common, jsonOut
}

// prompt returns the prompt from the arguments, or from stdin for "-" or
// when stdin is not a terminal and no argument was given.
func (c *cli) prompt(pos []string) (string, error) {
	var p string
	switch {
	case len(pos) == 1 && pos[0] == "-", len(pos) == 0 && !c.stdinIsTerminal:
		b, err := io.ReadAll(io.LimitReader(c.stdin, maxPromptBytes+1))
		if err != nil {
			return "", fmt.Errorf("read the prompt from stdin: %w", err)
		}
		if len(b) > maxPromptBytes {
			return "", fmt.Errorf("the prompt on stdin is larger than %d MiB", maxPromptBytes>>20)
		}
		p = string(b)
		if strings.TrimSpace(p) == "" {
			return "", errors.New(`no prompt: stdin was empty; give the prompt as an argument (tern run "fix the failing test"), or pipe it on stdin`)
		}
	case len(pos) == 0:
		return "", errors.New(`no prompt: give it as an argument (tern run "fix the failing test"), or pipe it on stdin`)
	default:
		p = strings.Join(pos, " ")
	}
	if strings.TrimSpace(p) == "" {
		return "", errors.New("the prompt is empty")
	}
	return p, nil
}
