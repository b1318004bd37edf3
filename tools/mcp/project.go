package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
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
	sum := sha256.Sum256(data)
	p := &Project{Path: path, Hash: hex.EncodeToString(sum[:]), Content: data}
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

// approvals maps a workspace root to the hash of its approved .mcp.json.
type approvals map[string]string

func readApprovals(home string) (approvals, error) {
	data, err := os.ReadFile(filepath.Join(home, approvalsFile))
	if errors.Is(err, fs.ErrNotExist) {
		return approvals{}, nil
	}
	if err != nil {
		return nil, err
	}
	a := approvals{}
	if err := json.Unmarshal(data, &a); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(home, approvalsFile), err)
	}
	return a, nil
}

// Approved reports whether the user approved this exact .mcp.json for the
// workspace root; a changed file is not approved.
func (p *Project) Approved(home, root string) bool {
	if home == "" {
		return false
	}
	a, err := readApprovals(home)
	return err == nil && a[root] == p.Hash
}

// Approve remembers this exact .mcp.json as approved for the workspace.
func (p *Project) Approve(home, root string) error {
	if home == "" {
		return errors.New("no tern home to remember the approval in: set TERN_HOME (or HOME)")
	}
	a, err := readApprovals(home)
	if err != nil {
		return err
	}
	a[root] = p.Hash
	data, err := json.MarshalIndent(a, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(home, 0o700); err != nil {
		return err
	}
	tmp := filepath.Join(home, approvalsFile+".tmp")
	if err := os.WriteFile(tmp, append(data, '\n'), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(home, approvalsFile))
}
