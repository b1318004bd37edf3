package main

import (
	"context"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/ternhq/tern/cmd/tern/config"
	"github.com/ternhq/tern/tools"
	"github.com/ternhq/tern/tools/mcp"
)

// mcpServers are the servers a session runs: config.toml's, then those of
// the workspace's .mcp.json if the user approved its exact content (a
// server named in both is config.toml's). With ask, an unapproved file is
// shown and the user asked once on the terminal, before the interface
// opens; otherwise (tern run, no terminal) it is skipped with a notice, as
// is an unreadable one.
func (c *cli) mcpServers(cfg *config.Config, root string, notices io.Writer, ask bool) []mcp.ServerConfig {
	servers := append([]mcp.ServerConfig(nil), cfg.MCPServers...)
	p, err := mcp.LoadProject(root)
	if err != nil {
		c.printf(notices, "tern: %v; its servers are skipped\n", err)
	}
	if p == nil || len(p.Servers) == 0 {
		return servers
	}
	if !p.Approved(cfg.Home.V, root) && ask && c.stdinIsTerminal && c.askProject(cfg, p, root) {
		c.printf(notices, "tern: %s approved; its servers start now and with every session until it changes\n", mcp.ProjectFile)
	} else if !p.Approved(cfg.Home.V, root) {
		names := make([]string, len(p.Servers))
		for i, s := range p.Servers {
			names[i] = s.Name
		}
		c.printf(notices, "tern: %s lists MCP servers (%s) not started: they run only once you approve this exact file; review it with `tern mcp approve`\n",
			mcp.ProjectFile, strings.Join(names, ", "))
		return servers
	}
	for _, s := range p.Servers {
		taken := false
		for _, o := range cfg.MCPServers {
			taken = taken || o.Name == s.Name
		}
		if taken {
			c.printf(notices, "tern: %s's server %s is skipped: config.toml names one %s too\n", mcp.ProjectFile, s.Name, s.Name)
			continue
		}
		servers = append(servers, s)
	}
	return servers
}

// mcpStartDelay holds the servers of an interactive session back until the
// interface's first frame is out (as collectorPause, longer than that takes
// on a busy machine): starting node or npx costs more CPU than the frame,
// and on two cores it delayed the frame by a third. The first request waits
// for them anyway, and nobody sends one within this time.
const mcpStartDelay = collectorPause

// startMCP starts the session's MCP servers in the background; nil when
// none is configured. An interactive session lets an unapproved .mcp.json
// be approved on the terminal and starts the servers after mcpStartDelay.
// extra are servers to run too (an editor's), unless a configured one has
// the name. Close the manager when the session ends.
func (c *cli) startMCP(ctx context.Context, cfg *config.Config, root string, notices io.Writer, interactive bool, extra []mcp.ServerConfig) *mcp.Manager {
	servers := c.mcpServers(cfg, root, notices, interactive)
	for _, e := range extra {
		if slices.ContainsFunc(servers, func(s mcp.ServerConfig) bool { return s.Name == e.Name }) {
			c.printf(notices, "tern: the MCP server %s is configured already; the one passed by the editor is skipped\n", e.Name)
			continue
		}
		servers = append(servers, e)
	}
	if len(servers) == 0 {
		return nil
	}
	var delay time.Duration
	if interactive {
		delay = mcpStartDelay
	}
	m, err := mcp.New(mcp.Options{Servers: servers, Getenv: c.getenv, Dir: root, OutputCap: cfg.OutputCap.V, Version: version, Delay: delay,
		TrustReadOnly: cfg.MCPTrustReadOnly.V})
	if err != nil { // the valid servers still start
		c.printf(notices, "tern: %v\n", err)
	}
	m.Start(context.WithoutCancel(ctx))
	return m
}

// mcpSource is the manager as the agent's source of external tools (a nil
// interface when there is no manager).
func mcpSource(m *mcp.Manager) tools.Source {
	if m == nil {
		return nil
	}
	return m
}

// reportMCPFailures waits for the servers still starting, then prints one
// line per server that failed, naming it and its error.
func (c *cli) reportMCPFailures(ctx context.Context, m *mcp.Manager, w io.Writer, redact func(string) string) {
	if m == nil {
		return
	}
	m.Wait(ctx)
	for _, s := range m.Servers() {
		if s.State == mcp.StateFailed {
			c.printf(w, "tern: MCP server %s failed: %s\n", s.Name, redact(s.Err))
		}
	}
}
