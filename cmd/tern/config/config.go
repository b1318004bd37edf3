// Package config resolves tern's settings from flags, the environment, the
// optional $TERN_HOME/config.toml and defaults, in that order of precedence,
// and remembers where each value came from.
package config

import (
	"net"
	"net/url"
	"strings"

	"github.com/ternhq/tern/tools/hooks"
	"github.com/ternhq/tern/tools/mcp"
)

// Defaults for settings nobody configured.
const (
	// DefaultBaseURL is OpenAI's API; any OpenAI-compatible gateway works.
	DefaultBaseURL = "https://api.openai.com/v1"
	// DefaultModel is sent to the gateway as is; tern never parses model ids.
	DefaultModel = "gpt-4o-mini"
	// DefaultApproval is the approval policy name used when none is set.
	DefaultApproval = "ask"
	// DefaultMaxSteps limits model requests per turn.
	DefaultMaxSteps = 50
	// DefaultMaxAttempts is how often one model request is tried when the
	// gateway fails in a retryable way (rate limit, 5xx, network).
	DefaultMaxAttempts = 4
	// DefaultMaxRepeats is how many identical tool calls end a turn (as
	// agent.DefaultMaxRepeats).
	DefaultMaxRepeats = 5
	// DefaultMaxParallel is how many reads and tasks of one answer run at
	// once (as agent.DefaultMaxParallel).
	DefaultMaxParallel = 4
	// DefaultTheme picks dark or light from the terminal's background.
	DefaultTheme = "auto"
	// DefaultCompactThreshold is the context use, in percent of the window,
	// at which the conversation is compacted automatically (as
	// agent.DefaultCompactThreshold).
	DefaultCompactThreshold = 85
)

// Config is the resolved configuration. Every setting carries its source.
type Config struct {
	// Home is the TERN_HOME directory (default ~/.tern).
	Home Value[string]
	// File is the config file's path; FileLoaded says whether it existed.
	File       string
	FileLoaded bool

	BaseURL       Value[string]
	APIKey        Value[string]
	Model         Value[string]
	Mock          Value[bool]
	Approval      Value[string]
	SkipApprovals Value[bool]
	Allow         Value[[]string]
	Deny          Value[[]string]
	MaxSteps      Value[int]
	MaxAttempts   Value[int]
	// MaxRepeats is how many identical tool calls (same name and
	// arguments) end a turn; 0 turns the loop guard off.
	MaxRepeats Value[int]
	// OutputCap limits each tool result, in bytes.
	OutputCap Value[int]
	// SubagentModel is the model of the task tool's subagents; "" means
	// the session's model.
	SubagentModel Value[string]
	// MaxParallel is how many reads and tasks of one answer run at once.
	MaxParallel Value[int]
	// SecretPatterns are base-name globs of files the read tools refuse.
	SecretPatterns Value[[]string]
	// Sandbox is true when shell commands run confined (--sandbox on).
	Sandbox Value[bool]
	// NoNetwork denies confined commands the network (--no-network).
	NoNetwork Value[bool]
	// WritableRoots are directories confined commands may write besides the
	// workspace, the session's TMPDIR and the toolchain caches; absolute.
	WritableRoots Value[[]string]
	// DenyRead are paths confined commands may not read; absolute.
	DenyRead Value[[]string]
	// Budget limits headless runs (tern run).
	Budget Budget
	// Bounds limit the waits for a gateway and the size of an answer.
	Bounds Bounds
	// CompactThreshold is the context use, in percent of the model's
	// window, at which the conversation is compacted automatically; 0
	// turns automatic compaction off.
	CompactThreshold Value[int]
	// Models holds per-model settings keyed by model id.
	Models map[string]ModelSettings
	// Theme is the interface's colours: auto, dark or light.
	Theme Value[string]
	// Mouse turns mouse capture on when the interface starts (/mouse
	// toggles it).
	Mouse Value[bool]
	// WebFetchAllowPrivate lets web_fetch reach loopback, private,
	// link-local and metadata addresses (web_fetch_allow_private).
	WebFetchAllowPrivate Value[bool]
	// TitleModel is the model that names sessions; empty: the session's.
	TitleModel Value[string]
	// MCPServers are config.toml's [mcp_servers.*], sorted by name.
	MCPServers []mcp.ServerConfig
	// MCPTrustReadOnly lets the read-only policy run MCP tools their
	// server marks read-only.
	MCPTrustReadOnly Value[bool]
	// DefaultContextWindow is the window assumed, in tokens, for a model
	// nothing knows the window of (default_context_window).
	DefaultContextWindow Value[int]
	// ReasoningEffort is the reasoning effort sent to models that reason
	// (--effort, reasoning_effort); empty: the model's default.
	ReasoningEffort Value[string]
	// LSP are the language-server settings.
	LSP LSP

	// Hooks are config.toml's [[hooks]], with where each is written.
	Hooks []hooks.Hook

	// fileModel is config.toml's model ("" when it names none), kept with
	// a remembered /model choice to tell which of the two is newer.
	fileModel string
}

// ModelSettings are optional facts about one model id, from the config
// file's [models."<id>"] tables.
type ModelSettings struct {
	// ContextWindow is the model's context size in tokens (0: unknown).
	ContextWindow int `toml:"context_window"`
	// Prices are in currency units per million tokens (0: unknown).
	PriceInput       float64 `toml:"price_input"`
	PriceCachedInput float64 `toml:"price_cached_input"`
	PriceOutput      float64 `toml:"price_output"`
	// Headers are extra HTTP headers sent with requests for this model.
	Headers map[string]string `toml:"headers"`
	// Vision says whether the model accepts image input; nil leaves it to
	// the model database.
	Vision *bool `toml:"vision"`
}

// ModelSettings returns the settings for a model id (zero when there are none).
func (c *Config) ModelSettings(id string) ModelSettings {
	return c.Models[id]
}

// ModelHeaders returns every model's extra headers by model id, for a
// provider that picks them per request as the model changes.
func (c *Config) ModelHeaders() map[string]map[string]string {
	h := make(map[string]map[string]string, len(c.Models))
	for id, s := range c.Models {
		if len(s.Headers) > 0 {
			h[id] = s.Headers
		}
	}
	return h
}

// Offline reports whether tern must use the offline scripted provider, and
// why: MOCK=1 (or --mock, or mock = true), or no API key for a gateway that
// is not on this machine. Local servers (Ollama, vLLM, llama.cpp) often need
// no key, so a loopback base URL without a key still goes online.
func (c *Config) Offline() (bool, string) {
	if c.Mock.V {
		return true, "mock mode is on (" + c.Mock.Source.String() + ")"
	}
	if c.APIKey.V == "" && !IsLocal(c.BaseURL.V) {
		return true, "no API key is configured"
	}
	return false, ""
}

// IsLocal reports whether a base URL points at a server on this machine
// (localhost, a loopback address or the unspecified address).
func IsLocal(baseURL string) bool {
	u, err := url.Parse(baseURL)
	if err != nil {
		return false
	}
	host := strings.ToLower(u.Hostname())
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && (ip.IsLoopback() || ip.IsUnspecified())
}
