package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
)

// fileConfig mirrors config.toml. Pointers tell "absent" from a zero value,
// so that an absent key falls through to the default.
type fileConfig struct {
	BaseURL          *string                  `toml:"base_url"`
	APIKey           *string                  `toml:"api_key"`
	Model            *string                  `toml:"model"`
	Mock             *bool                    `toml:"mock"`
	Approval         *string                  `toml:"approval"`
	Allow            *[]string                `toml:"allow"`
	Deny             *[]string                `toml:"deny"`
	MaxSteps         *int                     `toml:"max_steps"`
	MaxAttempts      *int                     `toml:"max_attempts"`
	MaxRepeats       *int                     `toml:"max_repeats"`
	SubagentModel    *string                  `toml:"subagent_model"`
	MaxParallel      *int                     `toml:"max_parallel"`
	OutputCap        *int                     `toml:"output_cap"`
	SecretPatterns   *[]string                `toml:"secret_patterns"`
	Sandbox          *onOff                   `toml:"sandbox"`
	NoNetwork        *bool                    `toml:"no_network"`
	WritableRoots    *[]string                `toml:"writable_roots"`
	DenyRead         *[]string                `toml:"deny_read"`
	CompactThreshold *int                     `toml:"compact_threshold"`
	MaxCost          *float64                 `toml:"max_cost"`
	MaxRequests      *int                     `toml:"max_requests"`
	MaxDuration      *string                  `toml:"max_duration"`
	Models           map[string]ModelSettings `toml:"models"`
	Theme            *string                  `toml:"theme"`
	Mouse            *bool                    `toml:"mouse"`
	TitleModel       *string                  `toml:"title_model"`
	// The language servers (lsp.go).
	LSP       *lspSetting `toml:"lsp"`
	LSPWait   *string     `toml:"lsp_wait"`
	LSPSettle *string     `toml:"lsp_settle"`
	// WebFetchAllowPrivate lets web_fetch reach private addresses.
	WebFetchAllowPrivate *bool `toml:"web_fetch_allow_private"`

	// What tern knows of models (modelfacts.go).
	DefaultContextWindow *int    `toml:"default_context_window"`
	ReasoningEffort      *string `toml:"reasoning_effort"`

	// The bounded waits and sizes (bounds.go).
	FirstTokenTimeout *string `toml:"first_token_timeout"`
	StreamIdleTimeout *string `toml:"stream_idle_timeout"`
	MaxAnswerBytes    *int    `toml:"max_answer_bytes"`

	// Hooks are the user's hooks (hooks.go).
	Hooks []HookSettings `toml:"hooks"`
	// The MCP servers (mcp.go).
	MCPServers       map[string]mcpServerFile `toml:"mcp_servers"`
	MCPTrustReadOnly *bool                    `toml:"mcp_trust_read_only"`
}

// onOff is a switch written as a boolean or as "on"/"off" (sandbox = "off").
type onOff bool

// UnmarshalTOML accepts true, false, "on" and "off".
func (o *onOff) UnmarshalTOML(v any) error {
	switch x := v.(type) {
	case bool:
		*o = onOff(x)
		return nil
	case string:
		b, err := parseOnOff(x)
		if err != nil {
			return err
		}
		*o = onOff(b)
		return nil
	}
	return fmt.Errorf("%v is not on or off", v)
}

// readFile loads path. A missing file is not an error: it returns ok=false.
// Unknown keys are an error naming them, because a misspelt key would
// otherwise be silently ignored.
func readFile(path string) (fc fileConfig, ok bool, err error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return fileConfig{}, false, nil
	}
	if err != nil {
		return fileConfig{}, false, fmt.Errorf("read config file: %w", err)
	}
	md, err := toml.Decode(string(data), &fc)
	if err != nil {
		return fileConfig{}, false, fmt.Errorf("config file %s: %w; fix the TOML syntax (see docs/config.md)", path, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		names := make([]string, 0, len(und))
		for _, k := range und {
			names = append(names, k.String())
		}
		sort.Strings(names)
		return fileConfig{}, false, fmt.Errorf("config file %s: unknown keys %s; the known keys are listed in docs/config.md", path, strings.Join(names, ", "))
	}
	return fc, true, nil
}
