package doctor

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/cmd/tern/config"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools/sandbox"
)

// DefaultTimeout bounds each network check.
const DefaultTimeout = 5 * time.Second

// Gateway is what doctor needs from the provider: the model list and a
// stream. *openai.Provider satisfies it.
type Gateway interface {
	provider.Provider
	ListModels(ctx context.Context) ([]string, error)
}

// Options configure a doctor run.
type Options struct {
	Config *config.Config
	// ConfigErr lists the problems found while loading Config.
	ConfigErr error
	// Gateway talks to the configured gateway; it is not used offline. When
	// it is nil online, GatewayErr says why it could not be built.
	Gateway    Gateway
	GatewayErr error
	// Timeout bounds each network check; 0 means DefaultTimeout.
	Timeout time.Duration
	// Facts say where the model's window and prices come from
	// (modelfacts.go).
	Facts ModelFacts
}

// Run performs the checks in order and returns one Check per line.
func Run(ctx context.Context, opts Options) []Check {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	c := opts.Config
	var checks []Check
	add := func(ch Check) { checks = append(checks, ch) }

	add(configFileCheck(c, opts.ConfigErr))
	for _, err := range unjoin(opts.ConfigErr) {
		add(Check{Mark: Fail, Name: "config", Detail: err.Error(), Fix: "see docs/config.md"})
	}
	if perm := keyFileCheck(c); perm != nil {
		add(*perm)
	}
	add(Check{Mark: Pass, Name: "base URL", Detail: fmt.Sprintf("%s (%s)", c.BaseURL.V, c.BaseURL.Source)})
	add(Check{Mark: Pass, Name: "model", Detail: fmt.Sprintf("%s (%s)", c.Model.V, c.Model.Source)})
	offline, why := c.Offline()
	add(keyCheck(c, offline))
	if offline {
		add(Check{Mark: Pass, Name: "provider", Detail: "offline scripted provider: " + why + "; answers are canned, no gateway is contacted"})
	} else {
		add(Check{Mark: Pass, Name: "provider", Detail: "OpenAI-compatible gateway at " + c.BaseURL.V})
	}
	add(policyCheck(c))
	add(rulesCheck(c))
	add(mcpCheck(c))
	add(Check{Mark: Pass, Name: "limits", Detail: fmt.Sprintf("max_steps %d (%s), max_attempts %d (%s), output_cap %d bytes (%s)",
		c.MaxSteps.V, c.MaxSteps.Source, c.MaxAttempts.V, c.MaxAttempts.Source, c.OutputCap.V, c.OutputCap.Source)})
	add(Check{Mark: Pass, Name: "secret files", Detail: fmt.Sprintf("%s (%s)", strings.Join(c.SecretPatterns.V, " "), c.SecretPatterns.Source)})
	add(sandboxCheck(c, sandbox.Check(c.Sandbox.V, c.NoNetwork.V)))
	if len(c.Hooks) > 0 {
		add(hooksCheck(c))
	}
	add(Check{Mark: Pass, Name: "interface", Detail: fmt.Sprintf("theme %s (%s), mouse %t (%s)", c.Theme.V, c.Theme.Source, c.Mouse.V, c.Mouse.Source)})
	checks = append(checks, modelChecks(ctx, c, opts.Facts, opts.Timeout)...)
	add(lspCheck(c))

	if offline {
		for _, name := range []string{"gateway", "model listed", "streaming"} {
			add(Check{Mark: Skip, Name: name, Detail: "not checked: tern is offline"})
		}
		return checks
	}
	if opts.Gateway == nil {
		err := opts.GatewayErr
		if err == nil {
			err = errors.New("no gateway client")
		}
		add(Check{Mark: Fail, Name: "gateway", Detail: err.Error(), Fix: "fix the base URL (see above)"})
		return checks
	}
	return append(checks, gatewayChecks(ctx, c, opts.Gateway, opts.Timeout)...)
}

func configFileCheck(c *config.Config, loadErr error) Check {
	switch {
	case c.File == "":
		return Check{Mark: Pass, Name: "config file", Detail: "none: TERN_HOME is not set and the home directory is unknown"}
	case c.FileLoaded:
		return Check{Mark: Pass, Name: "config file", Detail: fmt.Sprintf("%s (TERN_HOME from %s)", c.File, c.Home.Source)}
	}
	for _, err := range unjoin(loadErr) {
		if strings.Contains(err.Error(), c.File) {
			return Check{Mark: Fail, Name: "config file", Detail: c.File + " could not be used (see below)", Fix: "correct the file or move it aside"}
		}
	}
	return Check{Mark: Pass, Name: "config file", Detail: fmt.Sprintf("%s does not exist; defaults apply (TERN_HOME from %s)", c.File, c.Home.Source)}
}

// keyFileCheck flags a config file that holds the API key and that other
// users can read.
func keyFileCheck(c *config.Config) *Check {
	if c.APIKey.Source.Kind != config.SourceFile {
		return nil
	}
	fi, err := os.Stat(c.File)
	if err != nil || fi.Mode().Perm()&0o077 == 0 {
		return nil
	}
	return &Check{Mark: Fail, Name: "key file", Detail: fmt.Sprintf("%s holds the API key and other users can read it (mode %v)", c.File, fi.Mode().Perm()),
		Fix: "chmod 600 " + c.File}
}

func keyCheck(c *config.Config, offline bool) Check {
	k := c.APIKey
	if k.V != "" {
		return Check{Mark: Pass, Name: "API key", Detail: fmt.Sprintf("%s (%s)", config.Mask(k.V), k.Source)}
	}
	switch {
	case c.Mock.V:
		return Check{Mark: Pass, Name: "API key", Detail: "not set; not needed in mock mode"}
	case !offline:
		return Check{Mark: Pass, Name: "API key", Detail: "not set; the local server at " + c.BaseURL.V + " is used without one"}
	}
	return Check{Mark: Fail, Name: "API key", Detail: "not set, so tern falls back to the offline scripted provider",
		Fix: "export LLM_API_KEY=<your key> (or OPENAI_API_KEY), or set MOCK=1 to stay offline on purpose"}
}

func policyCheck(c *config.Config) Check {
	if _, err := agent.ParsePolicy(c.Approval.V); err != nil {
		return Check{Mark: Fail, Name: "approval", Detail: fmt.Sprintf("%v (%s)", err, c.Approval.Source), Fix: "use --approval ask, auto-edit, full-auto or read-only"}
	}
	d := fmt.Sprintf("%s (%s)", c.Approval.V, c.Approval.Source)
	if c.SkipApprovals.V {
		d += "; --dangerously-skip-approvals is on: even always-ask commands run unasked"
	}
	return Check{Mark: Pass, Name: "approval", Detail: d}
}

// sandboxCheck says whether shell commands run confined, and how: Landlock
// with its ABI version and the configured paths, off on purpose, or
// unavailable (then tern relies on approvals, which is not a failure of
// the configuration).
func sandboxCheck(c *config.Config, st sandbox.Status) Check {
	ch := Check{Mark: Pass, Name: "sandbox", Detail: st.Summary + " (sandbox " + c.Sandbox.Source.String() + ")"}
	switch {
	case st.Active:
		list := func(v config.Value[[]string]) string {
			if len(v.V) == 0 {
				return "none (" + v.Source.String() + ")"
			}
			return strings.Join(v.V, " ") + " (" + v.Source.String() + ")"
		}
		ch.Detail += "; deny_read " + list(c.DenyRead) + "; writable_roots " + list(c.WritableRoots)
		if st.Warning != "" {
			ch.Mark, ch.Fix = Fail, "drop --no-network / no_network, or run tern on Linux 6.7 or later"
		}
	case c.Sandbox.V:
		ch.Mark = Skip
	}
	return ch
}

func rulesCheck(c *config.Config) Check {
	r := agent.Rules{Allow: c.Allow.V, Deny: c.Deny.V}
	if err := r.Validate(); err != nil {
		return Check{Mark: Fail, Name: "rules", Detail: err.Error(), Fix: `write rules as "tool:pattern", e.g. "run_shell:go test *" or "edit_file:docs/**" (docs/config.md)`}
	}
	list := func(rs []string) string {
		if len(rs) == 0 {
			return "none"
		}
		q := make([]string, len(rs))
		for i, s := range rs {
			q[i] = fmt.Sprintf("%q", s)
		}
		return strings.Join(q, ", ")
	}
	return Check{Mark: Pass, Name: "rules", Detail: fmt.Sprintf("allow %s; deny %s (%s)", list(r.Allow), list(r.Deny), c.Allow.Source)}
}

// hooksCheck lists config.toml's hooks, which run outside the sandbox.
func hooksCheck(c *config.Config) Check {
	list := make([]string, 0, len(c.Hooks))
	for _, h := range c.Hooks {
		on := string(h.Event)
		if h.Match != "" {
			on += " " + h.Match
		}
		list = append(list, fmt.Sprintf("%s: %q (line %d)", on, h.Command, h.Line))
	}
	return Check{Mark: Pass, Name: "hooks", Detail: strings.Join(list, "; ") + " — run with your rights, outside the sandbox; a project's own: tern hooks"}
}

// mcpCheck lists config.toml's MCP servers without starting them (`tern
// mcp list` starts them); a workspace's .mcp.json is not read here.
func mcpCheck(c *config.Config) Check {
	trust := fmt.Sprintf("mcp_trust_read_only %t (%s)", c.MCPTrustReadOnly.V, c.MCPTrustReadOnly.Source)
	if len(c.MCPServers) == 0 {
		return Check{Mark: Pass, Name: "MCP servers", Detail: "none in config.toml; " + trust}
	}
	names := make([]string, len(c.MCPServers))
	for i, s := range c.MCPServers {
		names[i] = s.Name + " (" + s.Transport()
		if s.Disabled {
			names[i] += ", disabled"
		}
		names[i] += ")"
	}
	return Check{Mark: Pass, Name: "MCP servers", Detail: strings.Join(names, ", ") + "; " + trust + "; `tern mcp list` starts them and shows their tools"}
}

// gatewayChecks lists the models, looks for the configured one, and streams
// a one-token answer.
func gatewayChecks(ctx context.Context, c *config.Config, g Gateway, timeout time.Duration) []Check {
	var checks []Check
	base := c.BaseURL.V
	model := c.Model.V

	lctx, cancel := context.WithTimeout(ctx, timeout)
	start := time.Now()
	models, err := g.ListModels(lctx)
	elapsed := time.Since(start)
	timedOut := lctx.Err() == context.DeadlineExceeded
	cancel()
	listed := err == nil
	switch {
	case err == nil:
		checks = append(checks, Check{Mark: Pass, Name: "gateway", Detail: fmt.Sprintf("GET %s/models answered in %s, listing %s", base, ms(elapsed), plural(len(models), "model"))})
	case timedOut:
		return append(checks,
			Check{Mark: Fail, Name: "gateway", Detail: fmt.Sprintf("GET %s/models: no answer within %s", base, timeout),
				Fix: "check that the server is up and not overloaded, or allow more time with --timeout"},
			Check{Mark: Skip, Name: "model listed", Detail: "not checked: the gateway did not answer"},
			Check{Mark: Skip, Name: "streaming", Detail: "not checked: the gateway did not answer"})
	case provider.KindOf(err) == provider.ErrBadRequest && statusOf(err) == 404:
		// Reachable, but with no model list (some servers): the streaming
		// check still tells whether the base URL and model work.
		checks = append(checks, Check{Mark: Pass, Name: "gateway", Detail: fmt.Sprintf("%s is reachable but lists no models (GET /models: HTTP 404)", base)})
	default:
		ch := Check{Mark: Fail, Name: "gateway", Detail: fmt.Sprintf("GET %s/models: %s", base, whatHappened(err)), Fix: fixFor(err)}
		checks = append(checks, ch)
		switch provider.KindOf(err) {
		case provider.ErrNetwork, provider.ErrAuth, provider.ErrCancelled:
			return append(checks,
				Check{Mark: Skip, Name: "model listed", Detail: "not checked: the gateway check failed"},
				Check{Mark: Skip, Name: "streaming", Detail: "not checked: the gateway check failed"})
		case provider.ErrRateLimited, provider.ErrServer, provider.ErrContextTooLong, provider.ErrBadRequest,
			provider.ErrModelNotFound, provider.ErrProtocol:
		}
	}

	switch {
	case !listed:
		checks = append(checks, Check{Mark: Skip, Name: "model listed", Detail: "not checked: no model list"})
	case len(models) == 0:
		checks = append(checks, Check{Mark: Skip, Name: "model listed", Detail: "not checked: the gateway's model list is empty"})
	case slices.Contains(models, model):
		checks = append(checks, Check{Mark: Pass, Name: "model listed", Detail: fmt.Sprintf("%q is offered by the gateway", model)})
	default:
		checks = append(checks, Check{Mark: Fail, Name: "model listed",
			Detail: fmt.Sprintf("%q is not among the %s the gateway lists", model, plural(len(models), "model")),
			Fix:    "set LLM_MODEL or --model to one of: " + suggest(models, model)})
	}
	return append(checks, streamCheck(ctx, g, model, timeout))
}

// streamCheck asks for one token and reports the time to the first delta.
func streamCheck(ctx context.Context, g Gateway, model string, timeout time.Duration) Check {
	sctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	start := time.Now()
	var ttft time.Duration
	err := func() error {
		s, err := g.Stream(sctx, provider.Request{
			Model:     model,
			Messages:  []provider.Message{{Role: provider.RoleUser, Content: "Reply with the single word OK."}},
			MaxTokens: 1,
		})
		if err != nil {
			return err
		}
		defer func() { _ = s.Close() }()
		for s.Next() {
			if ttft == 0 {
				ttft = time.Since(start)
			}
		}
		return s.Err()
	}()
	total := time.Since(start)
	switch {
	case err == nil:
		return Check{Mark: Pass, Name: "streaming", Detail: fmt.Sprintf("one-token answer from %q: first token after %s, done in %s", model, ms(ttft), ms(total))}
	case sctx.Err() == context.DeadlineExceeded:
		return Check{Mark: Fail, Name: "streaming", Detail: fmt.Sprintf("no complete answer from %q within %s", model, timeout),
			Fix: "the gateway or model is slow or stuck; try again, pick another model, or allow more time with --timeout"}
	}
	return Check{Mark: Fail, Name: "streaming", Detail: fmt.Sprintf("model %q: %s", model, whatHappened(err)), Fix: fixFor(err)}
}

// whatHappened renders a provider error without its advice: provider
// messages read "what happened (the gateway's words); what to do", and
// doctor prints what to do in its own fix.
func whatHappened(err error) string {
	var pe *provider.Error
	if !errors.As(err, &pe) {
		return err.Error()
	}
	msg := pe.Message
	if i := adviceStart(msg); i >= 0 {
		msg = msg[:i]
	}
	if pe.Status != 0 {
		return fmt.Sprintf("HTTP %d: %s", pe.Status, msg)
	}
	return msg
}

// adviceStart returns the index of the first ';' outside parentheses, or -1.
func adviceStart(msg string) int {
	depth := 0
	for i, r := range msg {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case ';':
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// fixFor says what to do about a provider error. Provider messages already
// say it; the fix repeats the essential action in doctor's format.
func fixFor(err error) string {
	switch provider.KindOf(err) {
	case provider.ErrAuth:
		return "set LLM_API_KEY (or OPENAI_API_KEY) to a valid key for this gateway"
	case provider.ErrNetwork:
		return "start the server, or point LLM_BASE_URL (or --base-url) at a running gateway"
	case provider.ErrModelNotFound:
		return "set LLM_MODEL or --model to a model the gateway offers"
	case provider.ErrRateLimited:
		return "wait and run tern doctor again, or check the account's limits"
	case provider.ErrServer:
		return "the gateway is failing; try again later or use another gateway"
	case provider.ErrBadRequest, provider.ErrContextTooLong:
		return "check the base URL (it usually ends in /v1) and the model id"
	case provider.ErrProtocol:
		return "check that LLM_BASE_URL points at an OpenAI-compatible API (usually ending in /v1)"
	case provider.ErrCancelled:
		return "run tern doctor again"
	}
	return "check the base URL and the key"
}

// suggest lists the models closest to the wanted id first: those that
// contain it or that it contains (a missing or extra vendor prefix), then
// the rest, at most eight.
func suggest(models []string, want string) string {
	w := strings.ToLower(want)
	var near, rest []string
	for _, m := range models {
		l := strings.ToLower(m)
		if strings.Contains(l, w) || strings.Contains(w, l) || strings.HasSuffix(l, "/"+w) {
			near = append(near, m)
		} else {
			rest = append(rest, m)
		}
	}
	all := append(near, rest...)
	const most = 8
	if len(all) > most {
		return strings.Join(all[:most], ", ") + fmt.Sprintf(", … (%d in all)", len(all))
	}
	return strings.Join(all, ", ")
}

func statusOf(err error) int {
	var pe *provider.Error
	if errors.As(err, &pe) {
		return pe.Status
	}
	return 0
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func ms(d time.Duration) string {
	return d.Round(time.Millisecond).String()
}

// unjoin splits an errors.Join result back into its parts.
func unjoin(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}
