package models

import "slices"

// Info is what the database says of one model.
type Info struct {
	// ID is the model's id in the database; Provider the id of the
	// database provider it was found under (openai, openrouter, ...).
	ID       string
	Provider string
	// Match says how the id asked for was found.
	Match Match
	// ContextWindow is the context size in tokens; MaxTokens the default
	// output limit (0: not listed).
	ContextWindow int
	MaxTokens     int
	// Prices are list prices in US dollars per million tokens.
	Prices Prices
	// Reasons says the model reasons; EffortLevels are the reasoning
	// efforts it accepts (low, medium, high, ...), DefaultEffort the one it
	// uses when none is sent. Either may be empty for a model that reasons.
	Reasons       bool
	EffortLevels  []string
	DefaultEffort string
	// Images says the model accepts image input.
	Images bool
}

// Prices are list prices per million tokens; zero when not listed.
// CachedInput is the price of a prompt token read from the gateway's cache.
type Prices struct {
	Input, CachedInput, Output float64
}

// Priced says the database lists a price for the model.
func (p Prices) Priced() bool { return p.Input > 0 || p.Output > 0 }

// AcceptsEffort says effort can be sent to the model: it reasons, and
// effort is one of its levels (any level when none are listed).
func (i Info) AcceptsEffort(effort string) bool {
	if !i.Reasons || effort == "" {
		return false
	}
	return len(i.EffortLevels) == 0 || slices.Contains(i.EffortLevels, effort)
}

// Match is how a model id was found in the database.
type Match int

// The ways an id is found, best first.
const (
	// MatchExact found the id as given.
	MatchExact Match = iota + 1
	// MatchUnprefixed found it without its gateway prefix
	// (openai/gpt-4o-mini as gpt-4o-mini).
	MatchUnprefixed
	// MatchOtherProvider found the same model under another provider's id
	// (gpt-4o-mini as openrouter's openai/gpt-4o-mini).
	MatchOtherProvider
)

// String names the match for doctor and /context.
func (m Match) String() string {
	switch m {
	case MatchExact:
		return "exact id"
	case MatchUnprefixed:
		return "id without its prefix"
	case MatchOtherProvider:
		return "same model under another provider"
	}
	return "no match"
}
