package main

import "context"

// interactiveHint is shown by `tern` without a subcommand while this build
// has no full-screen interface.
const interactiveHint = `tern: this build has no interactive interface yet.
  Run a prompt without it:   tern run "explain this repository"
  Check your setup:          tern doctor
  All commands and flags:    tern --help
`

// interactive is `tern` without a subcommand: it wires a session and shows
// the full-screen interface on it.
func (c *cli) interactive(ctx context.Context, flags *commonFlags) int {
	cfg, err := c.loadConfig(flags)
	if err != nil {
		c.printf(c.stderr, "tern: %v\nFix the configuration (docs/config.md); 'tern doctor' shows every setting and where it came from.\n", err)
		return exitUsage
	}
	a, err := c.wire(cfg, wireOptions{interactive: true, notices: c.stderr})
	if err != nil {
		c.printf(c.stderr, "tern: %v\n", err)
		return exitUsage
	}
	return c.showInterface(ctx, a)
}

// showInterface runs the full-screen interface on a wired session and
// returns the exit status.
func (c *cli) showInterface(_ context.Context, _ *app) int {
	c.printf(c.stderr, "%s", interactiveHint)
	return exitOK
}
