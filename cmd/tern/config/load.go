package config

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/ternhq/tern/tools"
	"github.com/ternhq/tern/tools/sandbox"
)

// Environment variables tern reads. The LLM_* names win over the OPENAI_*
// fallbacks, so switching gateway takes a change of two variables.
const (
	EnvHome          = "TERN_HOME"
	EnvBaseURL       = "LLM_BASE_URL"
	EnvAPIKey        = "LLM_API_KEY"
	EnvModel         = "LLM_MODEL"
	EnvMock          = "MOCK"
	EnvOpenAIBaseURL = "OPENAI_BASE_URL"
	EnvOpenAIAPIKey  = "OPENAI_API_KEY"
	EnvOpenAIModel   = "OPENAI_MODEL"
)

// Flag names, as given on the command line without dashes.
const (
	FlagBaseURL       = "base-url"
	FlagModel         = "model"
	FlagMock          = "mock"
	FlagApproval      = "approval"
	FlagMaxSteps      = "max-steps"
	FlagMaxAttempts   = "max-attempts"
	FlagSkipApprovals = "dangerously-skip-approvals"
	FlagSandbox       = "sandbox"
	FlagNoNetwork     = "no-network"
	FlagTheme         = "theme"
	FlagEffort        = "effort"
)

// Flags holds the command-line values the user actually set; nil means the
// flag was not given.
type Flags struct {
	BaseURL       *string
	Model         *string
	Mock          *bool
	Approval      *string
	MaxSteps      *int
	MaxAttempts   *int
	SkipApprovals *bool
	// Sandbox is "on" or "off" as given to --sandbox.
	Sandbox   *string
	NoNetwork *bool
	// Theme is --theme: auto, dark or light.
	Theme *string
	// Effort is --effort, the reasoning effort.
	Effort *string
	// MaxCost, MaxRequests and MaxDuration are `tern run`'s budget flags.
	MaxCost     *float64
	MaxRequests *int
	MaxDuration *time.Duration
}

// Inputs are everything Load reads, passed in so tests need no process state.
type Inputs struct {
	Flags Flags
	// Getenv returns an environment variable; empty means unset.
	Getenv func(string) string
	// UserHome is the user's home directory, for the default TERN_HOME.
	UserHome string
}

// Load resolves the configuration: flags > environment > config file >
// defaults. It always returns a usable Config; the error lists every problem
// found (a bad config file, an invalid value), so `tern doctor` can show them
// all while other commands refuse to start.
func Load(in Inputs) (*Config, error) {
	getenv := in.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	var errs []error
	c := &Config{}

	switch h := getenv(EnvHome); {
	case h != "":
		c.Home = Value[string]{V: h, Source: Source{Kind: SourceEnv, Name: EnvHome}}
	case in.UserHome != "":
		c.Home = Value[string]{V: filepath.Join(in.UserHome, ".tern"), Source: Source{Kind: SourceDefault}}
	}
	var fc fileConfig
	if c.Home.V != "" {
		c.File = filepath.Join(c.Home.V, "config.toml")
		var err error
		fc, c.FileLoaded, err = readFile(c.File)
		if err != nil {
			errs = append(errs, err)
		}
	}
	file := Source{Kind: SourceFile, Name: c.File}
	env := func(names ...string) (string, Source, bool) {
		for _, n := range names {
			if v := getenv(n); v != "" {
				return v, Source{Kind: SourceEnv, Name: n}, true
			}
		}
		return "", Source{}, false
	}

	c.BaseURL = resolveString(in.Flags.BaseURL, FlagBaseURL, env, []string{EnvBaseURL, EnvOpenAIBaseURL}, fc.BaseURL, file, DefaultBaseURL)
	c.BaseURL.V = strings.TrimRight(strings.TrimSpace(c.BaseURL.V), "/")
	if err := checkBaseURL(c.BaseURL.V); err != nil {
		errs = append(errs, fmt.Errorf("base URL from %s: %w", c.BaseURL.Source, err))
	}
	c.APIKey = resolveString(nil, "", env, []string{EnvAPIKey, EnvOpenAIAPIKey}, fc.APIKey, file, "")
	c.APIKey.V = strings.TrimSpace(c.APIKey.V)
	fileModel, modelSrc, err := c.rememberedModel(fc.Model, file)
	if err != nil {
		errs = append(errs, err)
	}
	c.Model = resolveString(in.Flags.Model, FlagModel, env, []string{EnvModel, EnvOpenAIModel}, fileModel, modelSrc, DefaultModel)
	if strings.TrimSpace(c.Model.V) == "" {
		errs = append(errs, fmt.Errorf("model from %s is empty; set a model id with --model or %s", c.Model.Source, EnvModel))
	}

	c.Mock = Value[bool]{Source: Source{Kind: SourceDefault}}
	switch v, src, ok := env(EnvMock); {
	case in.Flags.Mock != nil:
		c.Mock = Value[bool]{V: *in.Flags.Mock, Source: Source{Kind: SourceFlag, Name: FlagMock}}
	case ok:
		b, err := parseBool(v)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s=%q: %w", EnvMock, v, err))
		}
		c.Mock = Value[bool]{V: b, Source: src}
	case fc.Mock != nil:
		c.Mock = Value[bool]{V: *fc.Mock, Source: file}
	}

	c.Approval = resolveString(in.Flags.Approval, FlagApproval, env, nil, fc.Approval, file, DefaultApproval)
	c.SkipApprovals = Value[bool]{Source: Source{Kind: SourceDefault}}
	if in.Flags.SkipApprovals != nil {
		c.SkipApprovals = Value[bool]{V: *in.Flags.SkipApprovals, Source: Source{Kind: SourceFlag, Name: FlagSkipApprovals}}
	}
	c.Allow = resolveList(fc.Allow, file, nil)
	c.Deny = resolveList(fc.Deny, file, nil)
	c.SecretPatterns = resolveList(fc.SecretPatterns, file, tools.DefaultSecretPatterns)

	c.MaxSteps = resolveInt(in.Flags.MaxSteps, FlagMaxSteps, fc.MaxSteps, file, DefaultMaxSteps)
	c.MaxAttempts = resolveInt(in.Flags.MaxAttempts, FlagMaxAttempts, fc.MaxAttempts, file, DefaultMaxAttempts)
	c.OutputCap = resolveInt(nil, "", fc.OutputCap, file, tools.DefaultOutputCap)
	c.MaxRepeats = resolveInt(nil, "", fc.MaxRepeats, file, DefaultMaxRepeats)
	if v := c.MaxRepeats; v.V < 0 || v.V == 1 {
		errs = append(errs, fmt.Errorf("max repeats from %s is %d; use 2 or more identical tool calls to end a turn, or 0 to turn the loop guard off", v.Source, v.V))
	}
	c.SubagentModel = resolveString(nil, "", env, nil, fc.SubagentModel, file, "")
	c.MaxParallel = resolveInt(nil, "", fc.MaxParallel, file, DefaultMaxParallel)
	if v := c.MaxParallel; v.V < 1 {
		errs = append(errs, fmt.Errorf("max parallel from %s is %d; use 1 (one call at a time) or more", v.Source, v.V))
	}
	c.CompactThreshold = resolveInt(nil, "", fc.CompactThreshold, file, DefaultCompactThreshold)
	if v := c.CompactThreshold; v.V < 0 || v.V > 100 {
		errs = append(errs, fmt.Errorf("compact threshold from %s is %d; use a percentage of the context window from 1 to 100, or 0 to turn automatic compaction off", v.Source, v.V))
	}
	errs = append(errs, c.resolveSandbox(in, fc, file)...)
	errs = append(errs, c.resolveBudget(in, fc, file)...)
	errs = append(errs, c.resolveBounds(fc, file)...)
	errs = append(errs, c.resolveLSP(fc, file)...)
	for _, v := range []struct {
		name string
		val  Value[int]
		min  int
	}{
		{"max steps", c.MaxSteps, 1},
		{"max attempts", c.MaxAttempts, 1},
		{"output cap", c.OutputCap, 1024},
	} {
		if v.val.V < v.min {
			errs = append(errs, fmt.Errorf("%s from %s is %d; it must be at least %d", v.name, v.val.Source, v.val.V, v.min))
		}
	}
	c.Theme = resolveString(in.Flags.Theme, FlagTheme, env, nil, fc.Theme, file, DefaultTheme)
	switch c.Theme.V {
	case "auto", "dark", "light":
	default:
		errs = append(errs, fmt.Errorf("theme from %s is %q; use auto, dark or light", c.Theme.Source, c.Theme.V))
	}
	c.Mouse = Value[bool]{Source: Source{Kind: SourceDefault}}
	if fc.Mouse != nil {
		c.Mouse = Value[bool]{V: *fc.Mouse, Source: file}
	}
	c.TitleModel = resolveString(nil, "", env, nil, fc.TitleModel, file, "")
	errs = append(errs, c.resolveMCP(fc, file)...)
	c.WebFetchAllowPrivate = Value[bool]{Source: Source{Kind: SourceDefault}}
	if fc.WebFetchAllowPrivate != nil {
		c.WebFetchAllowPrivate = Value[bool]{V: *fc.WebFetchAllowPrivate, Source: file}
	}
	errs = append(errs, c.resolveModelFacts(in, fc, file)...)
	if len(fc.Hooks) > 0 {
		data, _ := os.ReadFile(c.File) // read once already; only the lines are looked up
		hs, err := resolveHooks(c.File, data, fc.Hooks)
		c.Hooks = hs
		errs = append(errs, err)
	}
	c.Models = fc.Models
	if c.Models == nil {
		c.Models = map[string]ModelSettings{}
	}
	return c, errors.Join(errs...)
}

// rememberedModel is the model config.toml stands for: the one picked with
// /model (state.json) while config.toml still names the model it named
// then, else config.toml's own. So the newer of the two choices wins, and
// flags and environment variables win over both.
func (c *Config) rememberedModel(fileModel *string, file Source) (*string, Source, error) {
	if fileModel != nil {
		c.fileModel = *fileModel
	}
	if c.Home.V == "" {
		return fileModel, file, nil
	}
	path := filepath.Join(c.Home.V, StateFile)
	st, err := readState(path)
	if err != nil || st.Model == "" || st.ConfigModel != c.fileModel {
		return fileModel, file, err
	}
	return &st.Model, Source{Kind: SourceState, Name: path}, nil
}

// resolveSandbox sets the sandbox settings: --sandbox and --no-network over
// the file's sandbox, no_network, writable_roots and deny_read, over the
// defaults (on; network open; no extra roots; ~/.ssh, ~/.aws, ~/.gnupg and
// tern's config.toml unreadable).
func (c *Config) resolveSandbox(in Inputs, fc fileConfig, file Source) []error {
	var errs []error
	c.Sandbox = Value[bool]{V: true, Source: Source{Kind: SourceDefault}}
	switch {
	case in.Flags.Sandbox != nil:
		on, err := parseOnOff(*in.Flags.Sandbox)
		if err != nil {
			errs = append(errs, fmt.Errorf("--%s: %w", FlagSandbox, err))
		}
		c.Sandbox = Value[bool]{V: on, Source: Source{Kind: SourceFlag, Name: FlagSandbox}}
	case fc.Sandbox != nil:
		c.Sandbox = Value[bool]{V: bool(*fc.Sandbox), Source: file}
	}
	c.NoNetwork = Value[bool]{Source: Source{Kind: SourceDefault}}
	switch {
	case in.Flags.NoNetwork != nil:
		c.NoNetwork = Value[bool]{V: *in.Flags.NoNetwork, Source: Source{Kind: SourceFlag, Name: FlagNoNetwork}}
	case fc.NoNetwork != nil:
		c.NoNetwork = Value[bool]{V: *fc.NoNetwork, Source: file}
	}
	c.WritableRoots = resolveList(fc.WritableRoots, file, nil)
	c.DenyRead = resolveList(fc.DenyRead, file, sandbox.DefaultDenyRead(in.UserHome, c.Home.V))
	for _, l := range []struct {
		key string
		val *Value[[]string]
	}{{"writable_roots", &c.WritableRoots}, {"deny_read", &c.DenyRead}} {
		for i, p := range l.val.V {
			abs, err := expandPath(p, in.UserHome)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s from %s: %w", l.key, l.val.Source, err))
				continue
			}
			l.val.V[i] = abs
		}
	}
	return errs
}

// expandPath turns "~" and "~/..." into paths under home and checks that
// the result is absolute.
func expandPath(p, home string) (string, error) {
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home == "" {
			return "", fmt.Errorf("%q starts with ~ but the home directory is unknown; write an absolute path", p)
		}
		p = filepath.Join(home, p[1:])
	}
	if !filepath.IsAbs(p) {
		return "", fmt.Errorf("%q is not an absolute path; write /abs/path or ~/path", p)
	}
	return filepath.Clean(p), nil
}

// parseOnOff reads a switch given as on/off (or the spellings parseBool
// accepts).
func parseOnOff(s string) (bool, error) {
	b, err := parseBool(s)
	if err != nil {
		return false, fmt.Errorf("%q is not on or off", s)
	}
	return b, nil
}

type envLookup func(names ...string) (string, Source, bool)

func resolveString(flag *string, flagName string, env envLookup, envNames []string, file *string, fileSrc Source, def string) Value[string] {
	if flag != nil {
		return Value[string]{V: *flag, Source: Source{Kind: SourceFlag, Name: flagName}}
	}
	if v, src, ok := env(envNames...); ok {
		return Value[string]{V: v, Source: src}
	}
	if file != nil {
		return Value[string]{V: *file, Source: fileSrc}
	}
	return Value[string]{V: def, Source: Source{Kind: SourceDefault}}
}

func resolveInt(flag *int, flagName string, file *int, fileSrc Source, def int) Value[int] {
	if flag != nil {
		return Value[int]{V: *flag, Source: Source{Kind: SourceFlag, Name: flagName}}
	}
	if file != nil {
		return Value[int]{V: *file, Source: fileSrc}
	}
	return Value[int]{V: def, Source: Source{Kind: SourceDefault}}
}

func resolveList(file *[]string, fileSrc Source, def []string) Value[[]string] {
	if file != nil {
		return Value[[]string]{V: append([]string(nil), (*file)...), Source: fileSrc}
	}
	return Value[[]string]{V: append([]string(nil), def...), Source: Source{Kind: SourceDefault}}
}

// checkBaseURL accepts absolute http(s) URLs with a host.
func checkBaseURL(s string) error {
	u, err := url.Parse(s)
	if err != nil {
		return fmt.Errorf("%q is not a URL: %w", s, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%q is not an http(s) URL with a host; use e.g. %s or http://localhost:11434/v1", s, DefaultBaseURL)
	}
	return nil
}

// parseBool accepts the spellings people use in environment variables.
func parseBool(s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "yes", "on", "y":
		return true, nil
	case "no", "off", "n":
		return false, nil
	}
	b, err := strconv.ParseBool(strings.TrimSpace(s))
	if err != nil {
		return false, fmt.Errorf("not a boolean; use 1 or 0")
	}
	return b, nil
}
