package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/cmd/tern/config"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/provider/mock"
	"github.com/ternhq/tern/provider/openai"
	"github.com/ternhq/tern/session"
	"github.com/ternhq/tern/tools"
	"github.com/ternhq/tern/tools/lsp"
	"github.com/ternhq/tern/tools/sandbox"
	"github.com/ternhq/tern/tui"
)

// app is a wired session: everything the interface or the headless runner
// needs. Its fields mirror tui.Options.
type app struct {
	// Agent is the agent with its events recorded in the session log.
	Agent         *recordedAgent
	Model         string
	Policy        agent.Policy
	Workspace     string
	Offline       bool
	Home          string
	ContextWindow int
	// Memory are the project memory files in the system prompt.
	Memory []agent.MemoryFile
	// Prices are the model's configured prices; nil when none are set.
	Prices *tui.Prices
	// Notices are shown once when the interface opens.
	Notices []string
	// Models lists the gateway's models (for /model).
	Models func(ctx context.Context) ([]string, error)
	// LookupWindow asks the gateway's model list for a model's context
	// window; nil offline.
	LookupWindow func(ctx context.Context, model string) (int, error)
	// Redact scrubs the API key from text before it is shown.
	Redact func(string) string
	// Registry holds the tools; `!` commands and @-mentions go through them.
	Registry *tools.Registry
	// Files lists workspace files for the @-mention picker.
	Files func(ctx context.Context, max int) ([]string, error)
	// Sandbox says how shell commands are confined. When its Warning is
	// set (the sandbox is on but Landlock is unavailable, or --no-network
	// cannot be enforced), the interface shows it once.
	Sandbox sandbox.Status
	// Permissions says where the approval settings came from and what the
	// sandbox allows, for /permissions.
	Permissions tui.PermissionsInfo
	// Resumed is the session continued, nil for a new one.
	Resumed *resumed
	// Pick opens the session picker at start (--resume without an id);
	// with PickFork the session chosen is forked.
	Pick, PickFork bool
	// log is the session log the agent's events are recorded in.
	log *sessionLog
	// unrecorded is the user's choice to go on after the log could not be
	// written or opened; nil when there is no log to fail.
	unrecorded func() bool
	// stopTap ends the recording of events.
	stopTap context.CancelFunc
	// titles names the session after its first answer; nil when it is not
	// named by a model (offline, headless).
	titles *titler
	// cleanup removes the session's temporary directory; Close calls it.
	cleanup func()
	// LSP runs the language servers (lsp.go); nil with lsp = false.
	LSP *lsp.Manager
}

// SessionID is the id of the session being recorded.
func (a *app) SessionID() string { return a.log.ID() }

// Close writes the rest of the session log and releases what the session
// holds outside the workspace (the sandbox's TMPDIR); call it when the
// session ends, after the agent's events are drained. It returns the
// error writing the log met, if any.
func (a *app) Close() error {
	var err error
	if a.titles != nil {
		a.titles.stop() // before the log closes: a late title is dropped
		a.titles = nil
	}
	if a.log != nil {
		err = a.log.close()
		a.log = nil
	}
	if a.stopTap != nil {
		a.stopTap()
		a.stopTap = nil
	}
	if a.cleanup != nil {
		a.cleanup()
		a.cleanup = nil
	}
	if a.LSP != nil {
		_ = a.LSP.Close() // the servers get a second to stop, then are killed
	}
	return err
}

// wireOptions say how the session will be used.
type wireOptions struct {
	// interactive streams the offline provider at a natural pace; headless
	// runs get its answers at once.
	interactive bool
	// notices receives the offline notice and what resuming had to adapt.
	notices io.Writer
	// session says whether to start a new session log or continue one.
	session sessionChoice
}

// loadConfig resolves the configuration for a command.
func (c *cli) loadConfig(flags *commonFlags) (*config.Config, error) {
	return config.Load(config.Inputs{Flags: flags.config(), Getenv: c.getenv, UserHome: c.userHome})
}

// wire builds provider, workspace, tools, system prompt and agent from the
// configuration. Every error it returns is a configuration error (exit 2):
// an invalid policy, a rule naming an unknown tool, an unusable workspace.
func (c *cli) wire(ctx context.Context, cfg *config.Config, opts wireOptions) (*app, error) {
	policy, err := agent.ParsePolicy(cfg.Approval.V)
	if err != nil {
		return nil, fmt.Errorf("approval policy from %s: %w", cfg.Approval.Source, err)
	}
	redact := func(s string) string { return config.Redact(s, cfg.APIKey.V) }

	model := cfg.Model.V
	var prov provider.Provider
	models := func(context.Context) ([]string, error) { return []string{model}, nil }
	var lookupWindow func(context.Context, string) (int, error)
	offline, why := cfg.Offline()
	// The offline notice waits until the session to continue is found: an
	// unknown session id is the only thing worth saying then.
	var offlineNotice string
	if offline {
		mo := mock.Options{}
		if opts.interactive {
			mo = mock.DefaultOptions()
		}
		prov = mock.New(mo)
		if cfg.Mock.V {
			offlineNotice = fmt.Sprintf("tern: %s: using the offline scripted provider.", why)
		} else {
			offlineNotice = mock.Notice()
		}
	} else {
		p, err := openai.New(openai.Config{
			BaseURL: cfg.BaseURL.V,
			APIKey:  cfg.APIKey.V,
			Model:   model,
			// Per model and chosen per request: /model and a resumed
			// session change the model after this.
			ModelHeaders: cfg.ModelHeaders(),
			MaxAttempts:  cfg.MaxAttempts.V,
			// 0 in config.toml is no limit; the provider's 0 is its default.
			FirstTokenTimeout: noLimit(cfg.Bounds.FirstTokenTimeout.V),
			StreamIdleTimeout: noLimit(cfg.Bounds.StreamIdleTimeout.V),
		})
		if err != nil {
			return nil, err
		}
		prov = p
		models = p.ListModels
		lookupWindow = p.ContextWindow
	}

	ws, err := tools.NewWorkspace(c.cwd)
	if err != nil {
		return nil, fmt.Errorf("open the workspace: %w", err)
	}
	ws.OutputCap = cfg.OutputCap.V
	ws.Secrets = cfg.SecretPatterns.V
	ws.SecretFiles = ternSecretFiles(cfg.File)
	servers := wireLSP(cfg, ws, c.environ)
	shell, sandboxStatus, cleanup, err := c.sandboxShell(ctx, cfg, ws.Root)
	if err != nil {
		return nil, err
	}
	wired := false
	defer func() {
		if !wired {
			cleanup()
		}
	}()
	reg := tools.DefaultRegistryWith(ws, c.environ, shell)
	memory, err := agent.LoadMemory(ws.Root, cfg.Home.V)
	if err != nil { // the files that could be read are still used
		c.printf(opts.notices, "tern: %v\n", err)
	}
	system := agent.BuildSystemPrompt(agent.SystemInfo{
		OS:        runtime.GOOS,
		Workspace: ws.Root,
		Date:      time.Now(),
		GitRepo:   inGitRepo(ws.Root),
		Memory:    memory,
	}, reg)
	if cfg.Home.V == "" && opts.session.mode != resumeNone {
		return nil, errors.New("no tern home to find sessions in: set TERN_HOME (or HOME)")
	}
	hash := toolsHash(reg)
	res, err := loadResumed(cfg.Home.V, ws.Root, opts.session)
	if err != nil {
		return nil, err
	}
	if offlineNotice != "" {
		c.printf(opts.notices, "%s\n", offlineNotice)
	}
	var history []provider.Message
	var grants []string
	// Changes the flags ask for on top of a resumed session's model and
	// policy, recorded once the log is open.
	var modelChange, policyChange bool
	policySource := cfg.Approval.Source.String()
	if cfg.Approval.Source.Kind == config.SourceDefault {
		policySource = "the default"
	}
	if res != nil {
		st := &res.state
		st.Adapt(session.Current{Workspace: ws.Root, Model: model, ToolsHash: hash})
		for _, w := range st.Warnings {
			c.printf(opts.notices, "tern: %s\n", redact(w))
		}
		system, history, grants = st.System, st.Messages, st.Grants
		if cfg.Model.Source.Kind == config.SourceFlag && model != st.Model {
			modelChange = true
		} else {
			model = st.Model
		}
		if cfg.Approval.Source.Kind == config.SourceFlag && policy != st.Policy {
			policyChange = true
		} else {
			policy = st.Policy
			policySource = "the resumed session"
		}
	}
	host := "offline"
	if !offline {
		host = session.HostOf(cfg.BaseURL.V)
	}
	// Without a home there is nowhere to record: tern says so and runs
	// without a log. A log that cannot be opened there (a full disk) stops
	// every turn before it runs, until the user chooses to go on
	// unrecorded (recordgate.go).
	var log *sessionLog
	var logFailed *openFailure
	if cfg.Home.V == "" {
		c.printf(opts.notices, "tern: neither TERN_HOME nor HOME is set: this session is not recorded and cannot be resumed\n")
	} else {
		log, err = openLog(ctx, cfg.Home.V, session.Header{
			TernVersion:    version,
			Workspace:      ws.Root,
			GitHead:        gitHead(ws.Root),
			Model:          model,
			GatewayHost:    host,
			ApprovalPolicy: policy.String(),
			SystemPrompt:   system,
			ToolsHash:      hash,
		}, res, opts.session.fork, ws)
		switch {
		case err != nil && res != nil:
			return nil, err // continuing that session was the point
		case err != nil:
			logFailed = &openFailure{err: err, interactive: opts.interactive}
			if opts.interactive {
				c.printf(opts.notices, "tern: %v; nothing runs until you choose to go on without recording (/unrecorded)\n", err)
			}
			log = nil
		default:
			log.interactive = opts.interactive
		}
	}
	a, err := agent.New(agent.Options{
		Provider:      prov,
		Model:         model,
		Tools:         reg,
		Workspace:     ws,
		Policy:        policy,
		Rules:         agent.Rules{Allow: cfg.Allow.V, Deny: cfg.Deny.V},
		SkipApprovals: cfg.SkipApprovals.V,
		TernHome:      cfg.Home.V,
		MaxSteps:      cfg.MaxSteps.V,
		MaxRepeats:    maxRepeats(cfg.MaxRepeats.V),
		System:        system,
		History:       history,
		Grants:        grants,
		// Automatic compaction needs a window: the configured one, else
		// the conservative default /context assumes too.
		ContextWindow:    cmp.Or(cfg.ModelSettings(model).ContextWindow, assumedContextWindow),
		CompactThreshold: compactThreshold(cfg.CompactThreshold.V),
		BeforeRequest:    recordGate(log, logFailed),
		BeforeTool:       recordGate(log, logFailed),
		MaxAnswerBytes:   answerLimit(cfg.Bounds.MaxAnswerBytes.V),
	})
	if err != nil {
		_ = log.close()
		return nil, err
	}
	if res != nil {
		if restored, removed := session.Reverted(res.log); len(restored)+len(removed) > 0 {
			// Reverted, and tern ended before the next message told the model.
			a.NoteReverted(restored, removed)
		}
	}
	if modelChange {
		log.recorder.ModelChanged(model)
	}
	if policyChange {
		log.recorder.PolicyChanged(policy)
	}
	tapCtx, stopTap := context.WithCancel(context.WithoutCancel(ctx))
	rec := newRecordedAgent(tapCtx, a, log)
	rec.window = &windowSource{
		ctx:        tapCtx,
		configured: func(m string) int { return cfg.ModelSettings(m).ContextWindow },
		lookup:     lookupWindow,
	}
	rec.window.follow(a, model)
	// Interactive sessions are named after their first answer; offline,
	// and in headless runs, the first prompt stays the name.
	var titles *titler
	if opts.interactive && !offline && log != nil {
		titles = newTitler(tapCtx, prov, cfg.TitleModel.V, a, log, debugLog(cfg.Home.V, redact))
		rec.events = titles.watch(rec.events)
	}
	wired = true
	return &app{
		Agent:         rec,
		LookupWindow:  lookupWindow,
		Resumed:       res,
		Pick:          opts.session.mode == resumePick,
		PickFork:      opts.session.fork,
		log:           log,
		unrecorded:    continueUnrecorded(log, logFailed),
		stopTap:       stopTap,
		titles:        titles,
		Model:         model,
		Policy:        policy,
		Workspace:     ws.Root,
		Offline:       offline,
		Home:          cfg.Home.V,
		ContextWindow: cfg.ModelSettings(model).ContextWindow,
		Models:        models,
		Redact:        redact,
		Registry:      reg,
		Files:         ws.ListFiles,
		Memory:        memory,
		Prices:        modelPrices(cfg.ModelSettings(model)),
		Sandbox:       sandboxStatus,
		Permissions:   permissionsInfo(cfg, policy, policySource, sandboxStatus),
		cleanup:       cleanup,
		LSP:           servers,
	}, nil
}

// assumedContextWindow is the context size, in tokens, assumed for a model
// whose window is not configured: small enough to be safe for today's models.
const assumedContextWindow = 128_000

// compactThreshold converts the config's threshold (0: off) to the agent's
// (negative: off).
func compactThreshold(pct int) int {
	if pct == 0 {
		return -1
	}
	return pct
}

// maxRepeats converts max_repeats (0: the loop guard is off) to the
// agent's MaxRepeats (negative: off, 0: its default).
func maxRepeats(n int) int {
	if n == 0 {
		return -1
	}
	return n
}

// noLimit converts a config wait (0: no limit) to the provider's (negative:
// no limit, 0: its default).
func noLimit(d time.Duration) time.Duration {
	if d == 0 {
		return -1
	}
	return d
}

// answerLimit converts the config's max_answer_bytes (0: no limit) to the
// agent's (negative: no limit, 0: its default).
func answerLimit(n int) int {
	if n == 0 {
		return -1
	}
	return n
}

// inGitRepo reports whether dir or one of its parents holds a .git entry
// (a directory, or a file for worktrees and submodules).
func inGitRepo(dir string) bool {
	for {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return false
		}
		dir = parent
	}
}

// modelPrices are a model's configured prices for /cost; nil when none are set.
func modelPrices(ms config.ModelSettings) *tui.Prices {
	if ms.PriceInput == 0 && ms.PriceCachedInput == 0 && ms.PriceOutput == 0 {
		return nil
	}
	return &tui.Prices{Input: ms.PriceInput, CachedInput: ms.PriceCachedInput, Output: ms.PriceOutput}
}
