package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/ternhq/tern/internal/trust"
)

// ProjectFile is the name of a workspace's list of servers, in the format
// Claude Code and others read.
const ProjectFile = ".mcp.json"

// approvalsFile, in $TERN_HOME, remembers the approved .mcp.json contents
// by workspace.
const approvalsFile = "mcp-approved.json"

// Project is a workspace's .mcp.json: its servers and the hash of its
// exact content, which the user approves.
type Project struct {
	Path    string
	Hash    string
	Content []byte
	Servers []ServerConfig
}

// projectFile mirrors .mcp.json.
type projectFile struct {
	MCPServers map[string]struct {
		Type    string            `json:"type"`
		Command string            `json:"command"`
		Args    []string          `json:"args"`
		Env     map[string]string `json:"env"`
		URL     string            `json:"url"`
		Headers map[string]string `json:"headers"`
	} `json:"mcpServers"`
}

// LoadProject reads root/.mcp.json; a missing file gives nil and no error.
func LoadProject(root string) (*Project, error) {
	path := filepath.Join(root, ProjectFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	var pf projectFile
	if err := json.Unmarshal(data, &pf); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	p := &Project{Path: path, Hash: trust.Hash(data), Content: data}
	names := make([]string, 0, len(pf.MCPServers))
	for n := range pf.MCPServers {
		names = append(names, n)
	}
	sort.Strings(names)
	var errs []error
	for _, n := range names {
		s := pf.MCPServers[n]
		c := ServerConfig{Name: n, Command: s.Command, Args: s.Args, Env: s.Env, URL: s.URL, Headers: s.Headers, Project: true}
		if err := c.Validate(); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", path, err))
			continue
		}
		p.Servers = append(p.Servers, c)
	}
	return p, errors.Join(errs...)
}

// approvals remembers the approved .mcp.json contents, in the format of
// every project file tern asks about (internal/trust).
func approvals(home string) trust.Store {
	return trust.Store{Home: home, File: approvalsFile}
}

// Approved reports whether the user approved this exact .mcp.json for the
// workspace root; a changed file is not approved.
func (p *Project) Approved(home, root string) bool {
	return approvals(home).Approved(root, p.Content)
}

// Approve remembers this exact .mcp.json as approved for the workspace.
func (p *Project) Approve(home, root string) error {
	if err := approvals(home).Approve(root, p.Content); err != nil {
		return fmt.Errorf("approve %s: %w", p.Path, err)
	}
	return nil
}
