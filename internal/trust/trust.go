// Package trust remembers, in $TERN_HOME, which exact content of a
// workspace's own configuration file the user approved, so a file a clone
// brings (project hooks, servers) runs nothing until the user has read it.
package trust

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Store is one file of approvals under a tern home ("hooks-approved.json"
// for a project's .tern/config.toml, "mcp-approved.json" for its .mcp.json):
// a JSON object mapping a workspace root to the SHA-256 of the approved
// content.
type Store struct {
	Home string
	File string
}

// Hash is the hex SHA-256 of content.
func Hash(content []byte) string {
	sum := sha256.Sum256(content)
	return hex.EncodeToString(sum[:])
}

func (s Store) path() string { return filepath.Join(s.Home, s.File) }

func (s Store) read() (map[string]string, error) {
	data, err := os.ReadFile(s.path())
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read approvals: %w", err)
	}
	a := map[string]string{}
	if err := json.Unmarshal(data, &a); err != nil {
		return nil, fmt.Errorf("%s: %w", s.path(), err)
	}
	return a, nil
}

// Approved reports whether the user approved exactly content for the
// workspace root; a changed file is not approved, nor is anything without
// a home.
func (s Store) Approved(root string, content []byte) bool {
	if s.Home == "" {
		return false
	}
	a, err := s.read()
	return err == nil && a[root] == Hash(content)
}

// Approve remembers content as approved for root, replacing what was
// approved before.
func (s Store) Approve(root string, content []byte) error {
	if s.Home == "" {
		return errors.New("no tern home to remember the approval in: set TERN_HOME (or HOME)")
	}
	a, err := s.read()
	if err != nil {
		return err
	}
	a[root] = Hash(content)
	data, err := json.MarshalIndent(a, "", "  ")
	if err != nil {
		return fmt.Errorf("encode approvals: %w", err)
	}
	if err := os.MkdirAll(s.Home, 0o700); err != nil {
		return fmt.Errorf("create %s: %w", s.Home, err)
	}
	tmp := s.path() + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("write approvals: %w", err)
	}
	if err := os.Rename(tmp, s.path()); err != nil {
		return fmt.Errorf("write approvals: %w", err)
	}
	return nil
}
