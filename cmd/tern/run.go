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
	"time"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/cmd/tern/config"
	"github.com/ternhq/tern/cmd/tern/headless"
	"github.com/ternhq/tern/internal/app"
	"github.com/ternhq/tern/provider"
)

// maxPromptBytes bounds a prompt read from stdin.
const maxPromptBytes = 8 << 20

// run is `tern run [flags] PROMPT`: one turn without the interface.
func (c *cli) run(ctx context.Context, args []string) int {
	fs, common, rf := runFlags()
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return c.flagError("tern run", err, runUsage)
	}
	prompt, err := c.prompt(pos)
	if err != nil {
		c.printf(c.stderr, "tern run: %v\nRun 'tern run --help' for usage.\n", err)
		return exitUsage
	}
	images, err := c.loadImages(rf.images)
	if err != nil {
		c.printf(c.stderr, "tern run: %v\n", err)
		return exitUsage
	}
	flags := common.config()
	rf.budgetFlags(fs, &flags)
	cfg, err := config.Load(config.Inputs{Flags: flags, Getenv: c.getenv, UserHome: c.userHome})
	if err != nil {
		c.printf(c.stderr, "tern run: %v\nFix the configuration (docs/config.md); 'tern doctor' shows every setting and where it came from.\n", err)
		return exitUsage
	}
	if err := cfg.CheckBudget(cfg.Model.V); err != nil {
		c.printf(c.stderr, "tern run: %v\n", err)
		return exitUsage
	}
	choice := app.Choice{Mode: app.ResumeNone}
	switch {
	case rf.cont && rf.session != "":
		c.printf(c.stderr, "tern run: --continue and --session both pick a session; give one\n")
		return exitUsage
	case rf.cont:
		choice.Mode = app.ResumeLatest
	case rf.session != "":
		choice = app.Choice{Mode: app.ResumeID, ID: rf.session}
	}
	a, err := c.wire(ctx, cfg, wireOptions{notices: c.stderr, session: choice})
	if err != nil {
		c.printf(c.stderr, "tern run: %v\n", err)
		return exitUsage
	}
	if err := setBudget(cfg, a); err != nil {
		c.printf(c.stderr, "tern run: %v\n", err)
		_ = a.Close() // nothing ran; the log holds only its header
		return exitUsage
	}
	text, model := c.expandCommand(a.Session, prompt)
	code := c.runTurn(ctx, a, turnInput{prompt: text, model: model, images: images}, rf.json)
	// headless.Run has drained the agent's events: everything the session
	// holds is recorded, including an interrupted answer.
	if err := a.Close(); err != nil {
		c.printf(c.stderr, "tern run: %s\n", a.Redact(err.Error()))
		if code == exitOK {
			code = exitFailed
		}
	}
	return code
}

// turnInput is what one headless turn sends: the prompt, its pictures,
// and the model that answers it alone ("" for the session's).
type turnInput struct {
	prompt string
	images []provider.Image
	model  string
}

// runTurn runs the prompt headlessly on a wired session and returns the
// exit status.
func (c *cli) runTurn(ctx context.Context, a *wired, in turnInput, jsonOut bool) int {
	if a.Sandbox.Warning != "" && c.stderrIsTerminal {
		c.printf(c.stderr, "tern: %s\n", a.Sandbox.Warning)
	}

	// The first SIGINT cancels the turn; restoring the default handler then
	// lets a second one end tern at once if winding down hangs.
	sigCtx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	defer context.AfterFunc(sigCtx, stop)()
	c.reportMCPFailures(sigCtx, a.MCP, c.stderr, a.Redact)

	reason, err := headless.Run(sigCtx, headless.Options{
		Agent:  a.Session,
		Prompt: in.prompt,
		Images: in.images,
		Model:  in.model,
		JSON:   jsonOut,
		Session: headless.Session{
			Tern: version, Model: a.Session.Model(), Workspace: a.Workspace, Approval: a.Session.Policy().String(), Offline: a.Offline,
			ID: a.Session.ID(), Priced: a.Prices != nil, ListPrices: a.PriceSource == app.PricesList,
		},
		Policy:   a.Session.Policy(),
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
	case agent.FinishBudget:
		return exitBudget
	}
	return exitFailed
}

// setBudget gives the agent the run's budget; a cost limit needs the
// model's prices, configured or listed. The prices are set even without a limit, so the run
// reports its cost.
func setBudget(cfg *config.Config, a *wired) error {
	// List prices from the model database serve a cost limit too.
	if a.Prices == nil {
		if err := cfg.CheckBudget(a.Session.Model()); err != nil {
			return err
		}
	}
	b := agent.Budget{
		MaxCost:     cfg.Budget.MaxCost.V,
		MaxRequests: cfg.Budget.MaxRequests.V,
		MaxDuration: cfg.Budget.MaxDuration.V,
	}
	if a.Prices != nil {
		p := agent.Prices(*a.Prices)
		b.Prices = &p
	}
	return a.Session.SetBudget(b)
}

// exitBudget is the exit status of a run stopped by --max-cost,
// --max-requests or --max-duration.
const exitBudget = 3

// runOnlyFlags are the flags only `tern run` has.
type runOnlyFlags struct {
	json    bool
	cont    bool
	session string
	// The budget: a zero value is no limit; set says which were given.
	maxCost     float64
	maxRequests int
	maxDuration time.Duration
	// images are the --image paths, in order.
	images []string
}

// budgetFlags copies the budget flags the user gave into flags.
func (rf *runOnlyFlags) budgetFlags(fs *flag.FlagSet, flags *config.Flags) {
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case config.FlagMaxCost:
			flags.MaxCost = &rf.maxCost
		case config.FlagMaxRequests:
			flags.MaxRequests = &rf.maxRequests
		case config.FlagMaxDuration:
			flags.MaxDuration = &rf.maxDuration
		}
	})
}

// runFlags declares the flags of `tern run`.
func runFlags() (*flag.FlagSet, *commonFlags, *runOnlyFlags) {
	fs, common := newFlagSet("tern run")
	rf := &runOnlyFlags{}
	fs.BoolVar(&rf.json, "json", false, "print JSON Lines events (docs/protocol.md)")
	fs.BoolVar(&rf.cont, "continue", false, "continue the session of this workspace started last")
	fs.BoolVar(&rf.cont, "c", false, "short for --continue")
	fs.StringVar(&rf.session, "session", "", "continue the session with this id (or id prefix)")
	fs.Float64Var(&rf.maxCost, config.FlagMaxCost, 0, "stop the turn once it cost this much (needs the model's prices)")
	fs.IntVar(&rf.maxRequests, config.FlagMaxRequests, 0, "stop the turn after this many model requests")
	fs.DurationVar(&rf.maxDuration, config.FlagMaxDuration, 0, "stop the turn after this long, e.g. 10m")
	fs.Func("image", "attach an image to the prompt (repeatable)", func(p string) error {
		rf.images = append(rf.images, p)
		return nil
	})
	return fs, common, rf
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
