package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/ternhq/tern/cmd/tern/config"
	"github.com/ternhq/tern/internal/sanitize"
	"github.com/ternhq/tern/tools"
	"github.com/ternhq/tern/tools/mcp"
)

const mcpUsage = `Usage: tern mcp list
       tern mcp add NAME [--env K=V]... [--startup-timeout S] [--tool-timeout S] -- COMMAND [ARGS...]
       tern mcp add NAME --url URL [--header K=V]...
       tern mcp remove NAME
       tern mcp approve

list     starts the configured MCP servers and shows each one's state, error and tools
add      adds a server to $TERN_HOME/config.toml (a command tern starts, or a Streamable
         HTTP URL); values may name environment variables ($GITHUB_TOKEN), read at start
remove   removes a server from config.toml
approve  shows this workspace's .mcp.json and, if you agree, lets its servers start
         (until the file changes)

config.toml is edited in place: its comments and order are kept.
`

// mcpCommand is `tern mcp SUBCOMMAND`.
func (c *cli) mcpCommand(ctx context.Context, args []string) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		c.printf(c.stdout, "%s", mcpUsage)
		return exitOK
	}
	cfg, err := config.Load(config.Inputs{Getenv: c.getenv, UserHome: c.userHome})
	if err != nil {
		c.printf(c.stderr, "tern mcp: %v\n", err)
		return exitUsage
	}
	// The workspace root as sessions see it (symbolic links resolved), so
	// an approval of .mcp.json here is the one a session looks up.
	root := c.cwd
	if ws, err := tools.NewWorkspace(c.cwd); err == nil {
		root = ws.Root
	}
	switch args[0] {
	case "list":
		return c.mcpList(ctx, cfg, root)
	case "add":
		return c.mcpAdd(cfg, args[1:])
	case "remove":
		if len(args) != 2 {
			c.printf(c.stderr, "tern mcp remove: give the server's name\n%s", mcpUsage)
			return exitUsage
		}
		if err := config.RemoveMCPServer(cfg.File, args[1]); err != nil {
			c.printf(c.stderr, "tern mcp remove: %v\n", err)
			return exitFailed
		}
		c.printf(c.stdout, "removed the MCP server %s from %s\n", args[1], cfg.File)
		return exitOK
	case "approve":
		return c.mcpApprove(cfg, root)
	}
	c.printf(c.stderr, "tern mcp: unknown subcommand %q\n%s", args[0], mcpUsage)
	return exitUsage
}

// mcpList starts the servers, waits for them and lists them.
func (c *cli) mcpList(ctx context.Context, cfg *config.Config, root string) int {
	m := c.startMCP(ctx, cfg, root, c.stderr, false, nil)
	if m == nil {
		c.printf(c.stdout, "no MCP servers are configured; add one with `tern mcp add`\n")
		return exitOK
	}
	defer func() { _ = m.Close() }()
	m.Wait(ctx)
	redact := func(s string) string { return sanitize.Visible(config.Redact(s, cfg.APIKey.V)) }
	tw := tabwriter.NewWriter(c.stdout, 0, 4, 2, ' ', 0)
	failed := false
	for _, s := range m.Servers() {
		origin := "config.toml"
		if s.Project {
			origin = mcp.ProjectFile
		}
		line := fmt.Sprintf("%s\t%s\t%s\t%d tools, %d prompts\t%s", s.Name, s.State, s.Transport, len(s.Tools), len(s.Prompts), origin)
		_, _ = fmt.Fprintln(tw, line)
		if s.Err != "" {
			failed = true
			_, _ = fmt.Fprintf(tw, "  error: %s\n", redact(s.Err))
		}
		for _, t := range s.Tools {
			desc, _, _ := strings.Cut(t.Description, "\n")
			if len(desc) > 80 {
				desc = desc[:77] + "..."
			}
			_, _ = fmt.Fprintf(tw, "  %s\t%s\n", t.Name, redact(desc))
		}
	}
	_ = tw.Flush()
	if failed {
		return exitFailed
	}
	return exitOK
}

// kvFlag collects repeated K=V flags.
type kvFlag map[string]string

func (k kvFlag) String() string { return "" }

// Set adds one K=V.
func (k kvFlag) Set(s string) error {
	name, v, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return fmt.Errorf("%q is not K=V", s)
	}
	k[name] = v
	return nil
}

// mcpAdd is `tern mcp add NAME ...`.
func (c *cli) mcpAdd(cfg *config.Config, args []string) int {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		c.printf(c.stderr, "tern mcp add: give the server's name first\n%s", mcpUsage)
		return exitUsage
	}
	name := args[0]
	rest := args[1:]
	var command []string
	for i, a := range rest {
		if a == "--" {
			rest, command = rest[:i], rest[i+1:]
			break
		}
	}
	fs := flag.NewFlagSet("tern mcp add", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	env, headers := kvFlag{}, kvFlag{}
	fs.Var(env, "env", "K=V for the server's environment")
	fs.Var(headers, "header", "K=V header for a URL server")
	url := fs.String("url", "", "Streamable HTTP endpoint")
	startup := fs.Duration("startup-timeout", 0, "")
	toolTimeout := fs.Duration("tool-timeout", 0, "")
	if err := fs.Parse(secondsArgs(rest)); err != nil {
		return c.flagError("tern mcp add", err, mcpUsage)
	}
	if fs.NArg() > 0 {
		c.printf(c.stderr, "tern mcp add: put the command after --, as in: tern mcp add %s -- %s\n", name, strings.Join(fs.Args(), " "))
		return exitUsage
	}
	s := mcp.ServerConfig{Name: name, URL: *url, Env: env, Headers: headers, StartupTimeout: *startup, ToolTimeout: *toolTimeout}
	if len(command) > 0 {
		s.Command, s.Args = command[0], command[1:]
	}
	if len(s.Env) == 0 {
		s.Env = nil
	}
	if len(s.Headers) == 0 {
		s.Headers = nil
	}
	if cfg.File == "" {
		c.printf(c.stderr, "tern mcp add: no tern home: set TERN_HOME (or HOME)\n")
		return exitUsage
	}
	if err := config.AddMCPServer(cfg.File, s); err != nil {
		c.printf(c.stderr, "tern mcp add: %v\n", err)
		return exitUsage
	}
	c.printf(c.stdout, "added the MCP server %s to %s; `tern mcp list` starts it and shows its tools\n", name, cfg.File)
	return exitOK
}

// secondsArgs lets --startup-timeout and --tool-timeout take plain
// seconds ("10") as well as durations ("10s").
func secondsArgs(args []string) []string {
	out := append([]string(nil), args...)
	for i, a := range out {
		for _, f := range []string{"--startup-timeout", "--tool-timeout", "-startup-timeout", "-tool-timeout"} {
			if a == f && i+1 < len(out) && isDigits(out[i+1]) {
				out[i+1] += "s"
			}
			if v, ok := strings.CutPrefix(a, f+"="); ok && isDigits(v) {
				out[i] = a + "s"
			}
		}
	}
	return out
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// mcpApprove shows the workspace's .mcp.json and records the user's
// approval of its exact content.
func (c *cli) mcpApprove(cfg *config.Config, root string) int {
	p, err := mcp.LoadProject(root)
	if err != nil {
		c.printf(c.stderr, "tern mcp approve: %v\n", err)
		return exitFailed
	}
	if p == nil {
		c.printf(c.stdout, "this workspace has no %s\n", mcp.ProjectFile)
		return exitOK
	}
	if p.Approved(cfg.Home.V, root) {
		c.printf(c.stdout, "%s is already approved as it is\n", p.Path)
		return exitOK
	}
	if !c.stdinIsTerminal {
		c.printf(c.stderr, "tern mcp approve: stdin is not a terminal; run it in a terminal to answer\n")
		return exitUsage
	}
	if !c.askProject(cfg, p, root) {
		c.printf(c.stdout, "not approved; its servers stay off\n")
		return exitOK
	}
	c.printf(c.stdout, "approved; its servers start with the next session\n")
	return exitOK
}

// askProject shows a .mcp.json and asks on the terminal whether its
// servers may start; yes is remembered by the file's hash.
func (c *cli) askProject(cfg *config.Config, p *mcp.Project, root string) bool {
	c.printf(c.stdout, "%s asks tern to start these programs, outside the sandbox:\n\n%s\n",
		p.Path, sanitize.Visible(string(p.Content)))
	c.printf(c.stdout, "\nStart these MCP servers in this workspace (asked again when the file changes)? [y/N] ")
	answer, err := bufio.NewReader(c.stdin).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return false
	}
	if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
		return false
	}
	if err := p.Approve(cfg.Home.V, root); err != nil {
		c.printf(c.stderr, "tern: %v\n", err)
		return false
	}
	return true
}
