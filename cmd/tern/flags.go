package main

import (
	"errors"
	"flag"
	"io"

	"github.com/ternhq/tern/cmd/tern/config"
)

// commonFlags are the flags every command accepts.
type commonFlags struct {
	fs          *flag.FlagSet
	baseURL     string
	model       string
	mock        bool
	approval    string
	maxSteps    int
	maxAttempts int
	skip        bool
	sandbox     string
	noNetwork   bool
	// theme is only registered for the interactive interface.
	theme string
	// effort is the reasoning effort (--effort).
	effort string
}

// newFlagSet returns a flag set with the common flags registered. Errors
// and usage are printed by the caller, in tern's words.
func newFlagSet(name string) (*flag.FlagSet, *commonFlags) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f := &commonFlags{fs: fs}
	fs.StringVar(&f.baseURL, config.FlagBaseURL, "", "gateway base URL")
	fs.StringVar(&f.model, config.FlagModel, "", "model id")
	fs.BoolVar(&f.mock, config.FlagMock, false, "use the offline scripted provider")
	fs.StringVar(&f.approval, config.FlagApproval, "", "approval policy")
	fs.IntVar(&f.maxSteps, config.FlagMaxSteps, 0, "model requests per turn")
	fs.IntVar(&f.maxAttempts, config.FlagMaxAttempts, 0, "attempts per model request")
	fs.BoolVar(&f.skip, config.FlagSkipApprovals, false, "run even always-ask commands without asking")
	fs.StringVar(&f.sandbox, config.FlagSandbox, "on", "confine shell commands: on or off")
	fs.BoolVar(&f.noNetwork, config.FlagNoNetwork, false, "deny shell commands the network")
	fs.StringVar(&f.effort, config.FlagEffort, "", "reasoning effort for models that reason: low, medium, high, ...")
	return fs, f
}

// config returns the flags the user set, for config.Load.
func (f *commonFlags) config() config.Flags {
	var out config.Flags
	f.fs.Visit(func(fl *flag.Flag) {
		switch fl.Name {
		case config.FlagBaseURL:
			out.BaseURL = &f.baseURL
		case config.FlagModel:
			out.Model = &f.model
		case config.FlagMock:
			out.Mock = &f.mock
		case config.FlagApproval:
			out.Approval = &f.approval
		case config.FlagMaxSteps:
			out.MaxSteps = &f.maxSteps
		case config.FlagMaxAttempts:
			out.MaxAttempts = &f.maxAttempts
		case config.FlagSkipApprovals:
			out.SkipApprovals = &f.skip
		case config.FlagSandbox:
			out.Sandbox = &f.sandbox
		case config.FlagNoNetwork:
			out.NoNetwork = &f.noNetwork
		case config.FlagTheme:
			out.Theme = &f.theme
		case config.FlagEffort:
			out.Effort = &f.effort
		}
	})
	return out
}

// parseInterspersed parses flags anywhere among the arguments, so that
// `tern run "fix it" --json` works, and returns the positional arguments.
// "--" ends the flags.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		consumed := len(args) - len(rest)
		if consumed > 0 && args[consumed-1] == "--" {
			return append(pos, rest...), nil
		}
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// flagError reports a flag parsing error: --help prints the usage and
// succeeds; anything else says what was wrong and exits with status 2.
func (c *cli) flagError(cmd string, err error, usage string) int {
	if errors.Is(err, flag.ErrHelp) {
		c.printf(c.stdout, "%s", usage)
		return exitOK
	}
	c.printf(c.stderr, "%s: %v\nRun '%s --help' for usage.\n", cmd, err, cmd)
	return exitUsage
}
