package config

import (
	"fmt"
	"strings"
)

// DefaultContextWindow is the window, in tokens, assumed for a model whose
// window neither config.toml, the gateway nor the model database knows (as
// app.AssumedContextWindow).
const DefaultContextWindow = 128_000

// resolveModelFacts resolves default_context_window and the reasoning
// effort (--effort > reasoning_effort).
func (c *Config) resolveModelFacts(in Inputs, fc fileConfig, file Source) []error {
	var errs []error
	c.DefaultContextWindow = resolveInt(nil, "", fc.DefaultContextWindow, file, DefaultContextWindow)
	if v := c.DefaultContextWindow; v.V < 1024 {
		errs = append(errs, fmt.Errorf("default context window from %s is %d; use the window in tokens to assume for unknown models, at least 1024 (default %d)", v.Source, v.V, DefaultContextWindow))
	}
	noEnv := func(...string) (string, Source, bool) { return "", Source{}, false }
	c.ReasoningEffort = resolveString(in.Flags.Effort, FlagEffort, noEnv, nil, fc.ReasoningEffort, file, "")
	c.ReasoningEffort.V = strings.ToLower(strings.TrimSpace(c.ReasoningEffort.V))
	if v := c.ReasoningEffort; !validEffort(v.V) {
		errs = append(errs, fmt.Errorf("reasoning effort from %s is %q; use a level such as low, medium or high (/model lists a model's levels)", v.Source, v.V))
	}
	return errs
}

// validEffort accepts "" (the model's default) and a word of letters.
func validEffort(s string) bool {
	if len(s) > 16 {
		return false
	}
	for _, r := range s {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return true
}
