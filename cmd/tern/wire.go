package main

import (
	"context"
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
	"github.com/ternhq/tern/tools"
	"github.com/ternhq/tern/tools/sandbox"
)

// app is a wired session: everything the interface or the headless runner
// needs. Its fields mirror tui.Options.
type app struct {
	Agent         *agent.Agent
	Model         string
	Policy        agent.Policy
	Workspace     string
	Offline       bool
	Home          string
	ContextWindow int
	// Models lists the gateway's models (for /model).
	Models func(ctx context.Context) ([]string, error)
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
	// cleanup removes the session's temporary directory; Close calls it.
	cleanup func()
}

// Close releases what the session holds outside the workspace (the
// sandbox's TMPDIR); call it when the session ends.
func (a *app) Close() {
	if a.cleanup != nil {
		a.cleanup()
		a.cleanup = nil
	}
}

// wireOptions say how the session will be used.
type wireOptions struct {
	// interactive streams the offline provider at a natural pace; headless
	// runs get its answers at once.
	interactive bool
	// notices receives the offline notice.
	notices io.Writer
}

// loadConfig resolves the configuration for a command.
func (c *cli) loadConfig(flags *commonFlags) (*config.Config, error) {
	return config.Load(config.Inputs{Flags: flags.config(), Getenv: c.getenv, UserHome: c.userHome})
}

// wire builds provider, workspace, tools, system prompt and agent from the
// configuration. Every error it returns is a configuration error (exit 2):
// an invalid policy, a rule naming an unknown tool, an unusable workspace.
func (c *cli) wire(cfg *config.Config, opts wireOptions) (*app, error) {
	policy, err := agent.ParsePolicy(cfg.Approval.V)
	if err != nil {
		return nil, fmt.Errorf("approval policy from %s: %w", cfg.Approval.Source, err)
	}
	redact := func(s string) string { return config.Redact(s, cfg.APIKey.V) }

	model := cfg.Model.V
	var prov provider.Provider
	models := func(context.Context) ([]string, error) { return []string{model}, nil }
	offline, why := cfg.Offline()
	if offline {
		mo := mock.Options{}
		if opts.interactive {
			mo = mock.DefaultOptions()
		}
		prov = mock.New(mo)
		if cfg.Mock.V {
			c.printf(opts.notices, "tern: %s: using the offline scripted provider.\n", why)
		} else {
			c.printf(opts.notices, "%s\n", mock.Notice())
		}
	} else {
		p, err := openai.New(openai.Config{
			BaseURL:     cfg.BaseURL.V,
			APIKey:      cfg.APIKey.V,
			Model:       model,
			Headers:     cfg.ModelSettings(model).Headers,
			MaxAttempts: cfg.MaxAttempts.V,
		})
		if err != nil {
			return nil, err
		}
		prov = p
		models = p.ListModels
	}

	ws, err := tools.NewWorkspace(c.cwd)
	if err != nil {
		return nil, fmt.Errorf("open the workspace: %w", err)
	}
	ws.OutputCap = cfg.OutputCap.V
	ws.Secrets = cfg.SecretPatterns.V
	shell, sandboxStatus, cleanup, err := c.sandboxShell(cfg)
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
	system := agent.BuildSystemPrompt(agent.SystemInfo{
		OS:        runtime.GOOS,
		Workspace: ws.Root,
		Date:      time.Now(),
		GitRepo:   inGitRepo(ws.Root),
	}, reg)
	a, err := agent.New(agent.Options{
		Provider:      prov,
		Model:         model,
		Tools:         reg,
		Workspace:     ws,
		Policy:        policy,
		Rules:         agent.Rules{Allow: cfg.Allow.V, Deny: cfg.Deny.V},
		SkipApprovals: cfg.SkipApprovals.V,
		MaxSteps:      cfg.MaxSteps.V,
		System:        system,
	})
	if err != nil {
		return nil, err
	}
	wired = true
	return &app{
		Agent:         a,
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
		Sandbox:       sandboxStatus,
		cleanup:       cleanup,
	}, nil
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
