package main

import (
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
	"github.com/ternhq/tern/internal/app"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/provider/mock"
	"github.com/ternhq/tern/provider/openai"
	"github.com/ternhq/tern/session"
	"github.com/ternhq/tern/tools"
	"github.com/ternhq/tern/tools/lsp"
	"github.com/ternhq/tern/tools/mcp"
	"github.com/ternhq/tern/tools/sandbox"
	"github.com/ternhq/tern/tui"
)

// wired is a session and what the front ends show of its configuration.
type wired struct {
	// Session is the session service the front end drives.
	Session *app.Session
	// Workspace is the workspace root; Offline says the scripted provider
	// answers.
	Workspace string
	Offline   bool
	Home      string
	// Memory are the project memory files in the system prompt.
	Memory []agent.MemoryFile
	// Registry holds the session's tools.
	Registry *tools.Registry
	// Prices are the starting model's prices, configured or the model
	// database's list prices (PriceSource says which); nil when neither.
	Prices      *tui.Prices
	PriceSource app.PriceSource
	// Notices are shown once when the interface opens.
	Notices []string
	// Redact scrubs the API key from text before it is shown.
	Redact func(string) string
	// Sandbox says how shell commands are confined. When its Warning is
	// set (the sandbox is on but Landlock is unavailable, or --no-network
	// cannot be enforced), the interface shows it once.
	Sandbox sandbox.Status
	// Permissions says where the approval settings came from and what the
	// sandbox allows, for /permissions.
	Permissions tui.PermissionsInfo
	// Saved is the session continued, nil for a new one.
	Saved *app.Saved
	// Continue is the session the interface continues once it is up
	// (wireOptions.later): Session starts new, and the interface opens it.
	Continue *app.Located
	// Pick opens the session picker at start (--resume without an id);
	// with PickFork the session chosen is forked.
	Pick, PickFork bool
	// cleanup removes the session's temporary directory; Close calls it.
	cleanup func()
	// MCP runs the session's MCP servers; nil when none is configured.
	MCP *mcp.Manager
	// LSP runs the language servers (lsp.go); nil with lsp = false.
	LSP *lsp.Manager
}

// Close closes the session (writing the rest of its log) and releases
// what it holds outside the workspace (the sandbox's TMPDIR); call it when
// the session ends, after the agent's events are drained.
func (w *wired) Close() error {
	err := w.Session.Close()
	if w.cleanup != nil {
		w.cleanup()
		w.cleanup = nil
	}
	if w.MCP != nil {
		_ = w.MCP.Close() // the servers are stopped; how they exited does not matter now
		w.MCP = nil
	}
	if w.LSP != nil {
		_ = w.LSP.Close() // the servers get a second to stop, then are killed
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
	session app.Choice
	// later leaves a session to continue unread: wired.Continue names it
	// for the interface to open after its first frame (the log of a long
	// session takes far longer to read than the rest of the start).
	later bool
	// editor, when set, is the editor the file tools read and write
	// through (tern acp with a client that offers it).
	editor tools.EditorFiles
	// mcp are MCP servers to run besides the configured ones (those an
	// editor passes to tern acp).
	mcp []mcp.ServerConfig
}

// loadConfig resolves the configuration for a command.
func (c *cli) loadConfig(flags *commonFlags) (*config.Config, error) {
	return config.Load(config.Inputs{Flags: flags.config(), Getenv: c.getenv, UserHome: c.userHome})
}

// wire builds provider, workspace, tools, system prompt and agent from the
// configuration. Every error it returns is a configuration error (exit 2):
// an invalid policy, a rule naming an unknown tool, an unusable workspace.
func (c *cli) wire(ctx context.Context, cfg *config.Config, opts wireOptions) (*wired, error) {
	policy, err := agent.ParsePolicy(cfg.Approval.V)
	if err != nil {
		return nil, fmt.Errorf("approval policy from %s: %w", cfg.Approval.Source, err)
	}
	redact := func(s string) string { return config.Redact(s, cfg.APIKey.V) }

	model := cfg.Model.V
	var prov provider.Provider
	models := func(context.Context) ([]string, error) { return []string{model}, nil }
	var lookupModel func(context.Context, string) (app.GatewayModel, error)
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
		lookupModel = func(ctx context.Context, id string) (app.GatewayModel, error) {
			m, err := p.Model(ctx, id)
			return app.GatewayModel{Window: m.ContextWindow, Images: m.Images}, err
		}
	}

	ws, err := tools.NewWorkspace(c.cwd)
	if err != nil {
		return nil, fmt.Errorf("open the workspace: %w", err)
	}
	ws.OutputCap = cfg.OutputCap.V
	ws.Secrets = cfg.SecretPatterns.V
	ws.SecretFiles = ternSecretFiles(cfg.File)
	ws.Editor = opts.editor
	servers := wireLSP(cfg, ws, c.environ)
	shell, sandboxStatus, cleanup, err := c.sandboxShell(ctx, cfg, ws.Root)
	if err != nil {
		return nil, err
	}
	done := false
	defer func() {
		if !done {
			cleanup()
		}
	}()
	reg := tools.DefaultRegistryWith(ws, c.environ, tools.RegistryOptions{
		Shell:    shell,
		WebFetch: tools.WebFetchOptions{AllowPrivate: cfg.WebFetchAllowPrivate.V},
	})
	mcpServers := c.startMCP(ctx, cfg, ws.Root, opts.notices, opts.interactive, opts.mcp)
	defer func() {
		if !done && mcpServers != nil {
			_ = mcpServers.Close()
		}
	}()
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
	if cfg.Home.V == "" && opts.session.Mode != app.ResumeNone {
		return nil, errors.New("no tern home to find sessions in: set TERN_HOME (or HOME)")
	}
	var saved *app.Saved
	var later *app.Located
	if opts.later {
		later, err = app.Locate(cfg.Home.V, ws.Root, opts.session)
	} else {
		saved, err = app.Find(cfg.Home.V, ws.Root, opts.session)
	}
	if err != nil {
		return nil, err
	}
	// A session read after the first frame starts new: on the session's own
	// model (as its header names it), so the status line does not name
	// another one while it is read. Opening it sets the model it ended with.
	startModel := model
	if later != nil && cfg.Model.Source.Kind != config.SourceFlag && later.Model() != "" {
		startModel = later.Model()
	}
	if offlineNotice != "" {
		c.printf(opts.notices, "%s\n", offlineNotice)
	}
	policySource := cfg.Approval.Source.String()
	switch {
	case (saved != nil || later != nil) && cfg.Approval.Source.Kind != config.SourceFlag:
		policySource = "the resumed session"
	case cfg.Approval.Source.Kind == config.SourceDefault:
		policySource = "the default"
	}
	host := "offline"
	if !offline {
		host = session.HostOf(cfg.BaseURL.V)
	}
	var remember func(string) error
	if cfg.Home.V != "" {
		remember = cfg.RememberModel
	}
	hookRunner, hookNotice := c.hooksRunner(cfg, ws.Root, opts.notices)
	sess, err := app.New(ctx, app.Options{
		Version:      version,
		Provider:     prov,
		Offline:      offline,
		Host:         host,
		Workspace:    ws,
		Registry:     reg,
		System:       system,
		Memory:       memory,
		Model:        startModel,
		ModelChosen:  cfg.Model.Source.Kind == config.SourceFlag,
		Policy:       policy,
		PolicyChosen: cfg.Approval.Source.Kind == config.SourceFlag,
		Agent: agent.Options{
			Rules:            agent.Rules{Allow: cfg.Allow.V, Deny: cfg.Deny.V},
			SkipApprovals:    cfg.SkipApprovals.V,
			MaxSteps:         cfg.MaxSteps.V,
			MaxRepeats:       maxRepeats(cfg.MaxRepeats.V),
			CompactThreshold: compactThreshold(cfg.CompactThreshold.V),
			MaxAnswerBytes:   answerLimit(cfg.Bounds.MaxAnswerBytes.V),
			External:         mcpSource(mcpServers),
			TrustReadOnlyMCP: cfg.MCPTrustReadOnly.V,
			Subagents:        subagents(ws.Root, cfg.Home.V, cfg.SubagentModel.V, func(s string) { c.printf(opts.notices, "tern: %s\n", s) }),
			MaxParallel:      cfg.MaxParallel.V,
		},
		Home:          cfg.Home.V,
		Saved:         saved,
		Continue:      later,
		Fork:          opts.session.Fork,
		Interactive:   opts.interactive,
		TitleModel:    cfg.TitleModel.V,
		Window:        func(m string) int { return cfg.ModelSettings(m).ContextWindow },
		LookupModel:   lookupModel,
		ModelInfo:     modelInfo(cfg, offline),
		Vision:        func(m string) *bool { return cfg.ModelSettings(m).Vision },
		AssumedWindow: cfg.DefaultContextWindow.V,
		Prices:        func(m string) *agent.Prices { return modelPrices(cfg.ModelSettings(m)) },
		Effort:        cfg.ReasoningEffort.V,
		EffortChosen:  cfg.ReasoningEffort.Source.Kind == config.SourceFlag,
		Models:        models,
		RememberModel: remember,
		MCP:           mcpServers,
		LSP:           servers,
		Redact:        redact,
		Notify:        func(s string) { c.printf(opts.notices, "tern: %s\n", s) },
		Debug:         debugLog(cfg.Home.V, redact),
		Hooks:         hookRunner,
	})
	if err != nil {
		return nil, err
	}
	done = true
	prices, priceSource := startPrices(sess)
	var notices []string
	if hookNotice != "" {
		notices = append(notices, hookNotice)
	}
	return &wired{
		Notices:     notices,
		Session:     sess,
		Saved:       saved,
		Continue:    later,
		Pick:        opts.session.Mode == app.ResumePick,
		PickFork:    opts.session.Fork,
		Workspace:   ws.Root,
		Offline:     offline,
		Home:        cfg.Home.V,
		Redact:      redact,
		Memory:      memory,
		Registry:    reg,
		Prices:      prices,
		PriceSource: priceSource,
		Sandbox:     sandboxStatus,
		Permissions: permissionsInfo(cfg, sess.Policy(), policySource, sandboxStatus),
		cleanup:     cleanup,
		MCP:         mcpServers,
		LSP:         servers,
	}, nil
}

// subagents is the task tool's configuration: the custom subagents of
// the workspace's .tern/agents/ and $TERN_HOME/agents/ (a file that cannot
// be used is reported through notify and skipped) and subagent_model.
func subagents(root, home, model string, notify func(string)) *agent.Subagents {
	dirs := []string{filepath.Join(root, ".tern", "agents")}
	if home != "" {
		dirs = append(dirs, filepath.Join(home, "agents"))
	}
	defs, err := agent.LoadSubagents(dirs...)
	if err != nil {
		notify(err.Error())
	}
	return &agent.Subagents{Model: model, Agents: defs}
}

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

// modelPrices are a model's configured prices; nil when none are set.
func modelPrices(ms config.ModelSettings) *agent.Prices {
	if ms.PriceInput == 0 && ms.PriceCachedInput == 0 && ms.PriceOutput == 0 {
		return nil
	}
	return &agent.Prices{Input: ms.PriceInput, CachedInput: ms.PriceCachedInput, Output: ms.PriceOutput}
}
