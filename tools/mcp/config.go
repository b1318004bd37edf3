package mcp

import (
	"errors"
	"fmt"
	"time"
)

// Default waits, used when a server's configuration gives none.
const (
	DefaultStartupTimeout = 10 * time.Second
	DefaultToolTimeout    = 60 * time.Second
)

// ServerConfig is one configured server: a command to start (stdio) or a
// URL (Streamable HTTP).
type ServerConfig struct {
	// Name is the server's name in the configuration and in its tools'
	// names (mcp__<name>__<tool>).
	Name string
	// Command and Args start a stdio server; Env are the variables it gets
	// besides PATH, HOME, LANG and TMPDIR (values may name $VARS).
	Command string
	Args    []string
	Env     map[string]string
	// URL is a Streamable HTTP server's endpoint; Headers are sent with
	// every request (values may name $VARS, and are never logged).
	URL     string
	Headers map[string]string
	// Disabled servers are listed but not started.
	Disabled bool
	// StartupTimeout bounds connecting and the first tool list;
	// ToolTimeout bounds each call. Zero means the defaults.
	StartupTimeout time.Duration
	ToolTimeout    time.Duration
	// Project is set for servers from the workspace's .mcp.json.
	Project bool
	// Literal env and header values are used as given, without $VAR
	// expansion (an editor's, which sends values).
	Literal bool
}

// Validate reports what makes the configuration unusable.
func (c ServerConfig) Validate() error {
	if !ValidServerName(c.Name) {
		return fmt.Errorf("MCP server name %q: use letters, digits, _ and - (no double underscore)", c.Name)
	}
	switch {
	case c.Command == "" && c.URL == "":
		return fmt.Errorf("MCP server %s: set command (a program to start) or url", c.Name)
	case c.Command != "" && c.URL != "":
		return fmt.Errorf("MCP server %s: set command or url, not both", c.Name)
	case c.URL != "" && (len(c.Args) > 0 || len(c.Env) > 0):
		return fmt.Errorf("MCP server %s: args and env are for a command; a url server takes headers", c.Name)
	case c.Command != "" && len(c.Headers) > 0:
		return fmt.Errorf("MCP server %s: headers are for a url server; a command takes env", c.Name)
	case c.StartupTimeout < 0 || c.ToolTimeout < 0:
		return errors.New("MCP server " + c.Name + ": timeouts must not be negative")
	}
	return nil
}

func (c ServerConfig) startupTimeout() time.Duration {
	if c.StartupTimeout > 0 {
		return c.StartupTimeout
	}
	return DefaultStartupTimeout
}

func (c ServerConfig) toolTimeout() time.Duration {
	if c.ToolTimeout > 0 {
		return c.ToolTimeout
	}
	return DefaultToolTimeout
}

// Transport says how the server is reached, for listings.
func (c ServerConfig) Transport() string {
	if c.URL != "" {
		return "http"
	}
	return "stdio"
}

// State is where a server is in its life; the set is closed.
type State int

// The states.
const (
	// StateStarting is connecting or listing its tools.
	StateStarting State = iota + 1
	// StateReady offers its tools.
	StateReady
	// StateFailed did not start, crashed or timed out; Status.Err says why.
	StateFailed
	// StateDisabled is configured with enabled = false.
	StateDisabled
)

// String names the state for listings.
func (s State) String() string {
	switch s {
	case StateStarting:
		return "starting"
	case StateReady:
		return "ready"
	case StateFailed:
		return "failed"
	case StateDisabled:
		return "disabled"
	}
	return "unknown"
}

// ToolInfo describes one tool of a server, for listings.
type ToolInfo struct {
	// Name is the name offered to the model; Remote the server's own.
	Name, Remote string
	Description  string
	ReadOnlyHint bool
}

// Status is a server's state at one moment.
type Status struct {
	Name      string
	Transport string
	Project   bool
	State     State
	// Err says why a failed server failed.
	Err     string
	Tools   []ToolInfo
	Prompts []PromptInfo
}
