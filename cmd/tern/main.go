// Command tern is a terminal coding agent for any OpenAI-compatible gateway.
// This package parses flags, loads the configuration and wires the layers
// (provider, tools, agent, interface); it holds no agent logic.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/charmbracelet/x/term"

	// Builds the width tables the first frame needs while packages load.
	"github.com/ternhq/tern/internal/app"
	_ "github.com/ternhq/tern/internal/warm"
	"github.com/ternhq/tern/tools/sandbox"
)

// version is set at build time: go build -ldflags "-X main.version=v1.2.3".
var version = "dev"

// Exit statuses; docs/cli.md documents them.
const (
	exitOK          = 0
	exitFailed      = 1
	exitUsage       = 2
	exitInterrupted = 130
)

func main() {
	// Shell commands start through this binary in its sandbox launcher
	// mode, which confines itself and then runs the command; it never
	// returns here.
	sandbox.MaybeRunLauncher()
	// Processes of the same user, the commands tern runs among them, cannot
	// read tern's key from its environment or memory, and no descriptor
	// tern inherited reaches the programs it starts.
	if err := sandbox.Harden(); err != nil {
		_, _ = fmt.Fprintf(os.Stderr, "tern: %v\n", err)
	}
	if term.IsTerminal(os.Stdout.Fd()) {
		// The interface may be about to draw its first frame; after it,
		// a small heap is given room to grow between collections.
		pauseCollector(collectorPause, func(percent int) { tuneCollector(heapHeadroom, percent) })
	}
	c := newCLI()
	hideKeyFromChildren()
	stop := startCPUProfile(os.Getenv)
	stopTrace := startTrace(os.Getenv)
	code := c.main(context.Background(), os.Args[1:])
	stopTrace()
	stop()
	os.Exit(code)
}

// cli holds the process state the commands use, so tests can replace it.
type cli struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	// stdinIsTerminal and stderrIsTerminal decide where prompts come from
	// and whether progress lines are shown.
	stdinIsTerminal  bool
	stderrIsTerminal bool
	getenv           func(string) string
	environ          []string
	userHome         string
	cwd              string
}

func newCLI() *cli {
	home, _ := os.UserHomeDir() // no home only means no default TERN_HOME
	cwd, _ := os.Getwd()        // checked when the workspace is opened
	environ := os.Environ()
	return &cli{
		stdin:            os.Stdin,
		stdout:           os.Stdout,
		stderr:           os.Stderr,
		stdinIsTerminal:  term.IsTerminal(os.Stdin.Fd()),
		stderrIsTerminal: term.IsTerminal(os.Stderr.Fd()),
		getenv:           getenvFrom(environ),
		environ:          environ,
		userHome:         home,
		cwd:              cwd,
	}
}

// main dispatches on the subcommand and returns the exit status.
func (c *cli) main(ctx context.Context, args []string) int {
	if len(args) > 0 {
		switch args[0] {
		case "run":
			return c.run(ctx, args[1:])
		case "acp":
			return c.acpCmd(ctx, args[1:])
		case "doctor":
			return c.doctor(ctx, args[1:])
		case "sessions":
			return c.sessions(ctx, args[1:])
		case "hooks":
			return c.hooksCmd(args[1:])
		case "mcp":
			return c.mcpCommand(ctx, args[1:])
		case "help":
			c.printf(c.stdout, "%s", rootUsage)
			return exitOK
		case "version":
			c.printf(c.stdout, "tern %s\n", version)
			return exitOK
		}
	}
	return c.root(ctx, args)
}

// root handles `tern [flags]`, and `tern [flags] run|doctor ...` by passing
// the flags on to the subcommand.
func (c *cli) root(ctx context.Context, args []string) int {
	fs, common, rf := rootFlags()
	if err := fs.Parse(markBareResume(args)); err != nil {
		return c.flagError("tern", err, rootUsage)
	}
	if rf.version {
		c.printf(c.stdout, "tern %s\n", version)
		return exitOK
	}
	if rest := fs.Args(); len(rest) > 0 {
		flags := args[:len(args)-len(rest)]
		sub := append(append([]string(nil), flags...), rest[1:]...)
		switch rest[0] {
		case "run":
			return c.run(ctx, sub)
		case "acp":
			return c.acpCmd(ctx, sub)
		case "doctor":
			return c.doctor(ctx, sub)
		case "sessions":
			return c.sessions(ctx, sub)
		}
		c.printf(c.stderr, "tern: unknown command %q\nTo run a prompt without the interface: tern run %q\nRun 'tern --help' for usage.\n", rest[0], rest[0])
		return exitUsage
	}
	switch common.theme {
	case "auto", "dark", "light":
	default:
		c.printf(c.stderr, "tern: --theme %q is not a theme; use auto, dark or light\n", common.theme)
		return exitUsage
	}
	choice, code, ok := c.rootSession(ctx, common, rf)
	if !ok {
		return code
	}
	return c.interactive(ctx, common, choice)
}

// rootOnlyFlags are the flags only `tern` itself has.
type rootOnlyFlags struct {
	version bool
	cont    bool
	resume  string
	fork    bool
}

// rootFlags declares the flags of `tern` itself.
func rootFlags() (*flag.FlagSet, *commonFlags, *rootOnlyFlags) {
	fs, common := newFlagSet("tern")
	rf := &rootOnlyFlags{}
	fs.BoolVar(&rf.version, "version", false, "print the version and exit")
	fs.StringVar(&common.theme, "theme", "auto", "colours: auto, dark or light")
	fs.BoolVar(&rf.cont, "continue", false, "continue the session of this workspace started last")
	fs.BoolVar(&rf.cont, "c", false, "short for --continue")
	fs.StringVar(&rf.resume, "resume", "", "continue the session with this id")
	fs.StringVar(&rf.resume, "r", "", "short for --resume")
	fs.BoolVar(&rf.fork, "fork", false, "with --continue or --resume: continue in a new session")
	return fs, common, rf
}

// printf writes to w; a failed write to stdout or stderr has nowhere to be
// reported, so it is dropped.
func (c *cli) printf(w io.Writer, format string, args ...any) {
	_, _ = fmt.Fprintf(w, format, args...)
}

// bareResume stands for `--resume` given without an id.
const bareResume = "\x00pick"

// markBareResume lets --resume (-r) go without an id, which the flag
// package cannot express: a -r that ends the flags or is followed by
// another flag gets the value bareResume.
func markBareResume(args []string) []string {
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...)
		}
		switch a {
		case "-r", "--r", "-resume", "--resume":
			if i+1 == len(args) || strings.HasPrefix(args[i+1], "-") {
				out = append(out, a+"="+bareResume)
				continue
			}
		}
		out = append(out, a)
	}
	return out
}

// rootSession turns --continue, --resume and --fork into a session choice.
// When it returns ok false, the command ends with code.
func (c *cli) rootSession(ctx context.Context, common *commonFlags, rf *rootOnlyFlags) (app.Choice, int, bool) {
	choice := app.Choice{Mode: app.ResumeNone, Fork: rf.fork}
	switch {
	case rf.cont && rf.resume != "":
		c.printf(c.stderr, "tern: --continue and --resume both pick a session; give one\n")
		return choice, exitUsage, false
	case rf.resume == bareResume && c.stdinIsTerminal:
		choice.Mode = app.ResumePick // the interface opens the session picker
	case rf.resume == bareResume:
		// No terminal for the picker: list the sessions to choose from.
		c.printf(c.stderr, "tern: --resume without an id opens a picker, which needs a terminal; the sessions of this workspace:\n")
		if code := c.listSessions(ctx, common, c.stderr, false, false); code != exitOK {
			return choice, code, false
		}
		c.printf(c.stderr, "Run 'tern --resume ID' (an id prefix is enough), or 'tern --continue' for the one used last.\n")
		return choice, exitUsage, false
	case rf.cont:
		choice.Mode = app.ResumeLatest
	case rf.resume != "":
		choice.Mode, choice.ID = app.ResumeID, rf.resume
	case rf.fork:
		c.printf(c.stderr, "tern: --fork needs --continue or --resume ID: it starts a new session from an earlier one\n")
		return choice, exitUsage, false
	}
	return choice, exitOK, true
}
