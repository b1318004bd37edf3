package config

import (
	"fmt"
	"sort"
	"time"

	"github.com/ternhq/tern/tools/mcp"
)

// mcpServerFile is one [mcp_servers.NAME] table of config.toml, in the
// shape Codex reads.
type mcpServerFile struct {
	Command        string            `toml:"command"`
	Args           []string          `toml:"args"`
	Env            map[string]string `toml:"env"`
	URL            string            `toml:"url"`
	Headers        map[string]string `toml:"headers"`
	Enabled        *bool             `toml:"enabled"`
	StartupTimeout *seconds          `toml:"startup_timeout"`
	ToolTimeout    *seconds          `toml:"tool_timeout"`
}

// seconds is a timeout written as a number of seconds (10, 1.5) or as a
// duration ("90s").
type seconds time.Duration

// UnmarshalTOML reads a number of seconds or a duration string.
func (s *seconds) UnmarshalTOML(v any) error {
	switch x := v.(type) {
	case int64:
		*s = seconds(time.Duration(x) * time.Second)
	case float64:
		*s = seconds(time.Duration(x * float64(time.Second)))
	case string:
		d, err := time.ParseDuration(x)
		if err != nil {
			return fmt.Errorf("%q is not a duration; write seconds (10) or a duration (\"90s\")", x)
		}
		*s = seconds(d)
	default:
		return fmt.Errorf("%v is not a number of seconds", v)
	}
	if *s < 0 {
		return fmt.Errorf("%v: a timeout cannot be negative", v)
	}
	return nil
}

// resolveMCP reads the [mcp_servers.*] tables and mcp_trust_read_only.
func (c *Config) resolveMCP(fc fileConfig, file Source) []error {
	var errs []error
	c.MCPTrustReadOnly = Value[bool]{Source: Source{Kind: SourceDefault}}
	if fc.MCPTrustReadOnly != nil {
		c.MCPTrustReadOnly = Value[bool]{V: *fc.MCPTrustReadOnly, Source: file}
	}
	names := make([]string, 0, len(fc.MCPServers))
	for n := range fc.MCPServers {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		f := fc.MCPServers[n]
		s := mcp.ServerConfig{Name: n, Command: f.Command, Args: f.Args, Env: f.Env, URL: f.URL, Headers: f.Headers,
			Disabled: f.Enabled != nil && !*f.Enabled}
		if f.StartupTimeout != nil {
			s.StartupTimeout = time.Duration(*f.StartupTimeout)
		}
		if f.ToolTimeout != nil {
			s.ToolTimeout = time.Duration(*f.ToolTimeout)
		}
		if err := s.Validate(); err != nil {
			errs = append(errs, fmt.Errorf("%s: [mcp_servers.%s]: %w", file.Name, n, err))
			continue
		}
		c.MCPServers = append(c.MCPServers, s)
	}
	return errs
}
