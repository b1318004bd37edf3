package config

import (
	"fmt"
	"time"
)

// Flag names of the budget flags of `tern run`.
const (
	FlagMaxCost     = "max-cost"
	FlagMaxRequests = "max-requests"
	FlagMaxDuration = "max-duration"
)

// Budget holds the limits of a headless run (`tern run`); zero is no limit.
type Budget struct {
	// MaxCost is the most a run may spend, in the currency of the model's
	// prices ([models."<id>"] price_input, price_output).
	MaxCost Value[float64]
	// MaxRequests is the most model requests a run may send.
	MaxRequests Value[int]
	// MaxDuration is the most wall-clock time a run may take.
	MaxDuration Value[time.Duration]
}

// resolveBudget sets the budget from the flags over the file's max_cost,
// max_requests and max_duration.
func (c *Config) resolveBudget(in Inputs, fc fileConfig, file Source) []error {
	var errs []error
	b := &c.Budget
	b.MaxCost = Value[float64]{Source: Source{Kind: SourceDefault}}
	switch {
	case in.Flags.MaxCost != nil:
		b.MaxCost = Value[float64]{V: *in.Flags.MaxCost, Source: Source{Kind: SourceFlag, Name: FlagMaxCost}}
	case fc.MaxCost != nil:
		b.MaxCost = Value[float64]{V: *fc.MaxCost, Source: file}
	}
	b.MaxRequests = resolveInt(in.Flags.MaxRequests, FlagMaxRequests, fc.MaxRequests, file, 0)
	b.MaxDuration = Value[time.Duration]{Source: Source{Kind: SourceDefault}}
	switch {
	case in.Flags.MaxDuration != nil:
		b.MaxDuration = Value[time.Duration]{V: *in.Flags.MaxDuration, Source: Source{Kind: SourceFlag, Name: FlagMaxDuration}}
	case fc.MaxDuration != nil:
		d, err := time.ParseDuration(*fc.MaxDuration)
		if err != nil {
			errs = append(errs, fmt.Errorf("max_duration from %s: %q is not a duration such as \"10m\" or \"1h30m\"", file, *fc.MaxDuration))
		}
		b.MaxDuration = Value[time.Duration]{V: d, Source: file}
	}
	if b.MaxCost.V < 0 {
		errs = append(errs, fmt.Errorf("max cost from %s is negative; give an amount such as 0.50, or 0 for no limit", b.MaxCost.Source))
	}
	if b.MaxRequests.V < 0 {
		errs = append(errs, fmt.Errorf("max requests from %s is negative; give a count, or 0 for no limit", b.MaxRequests.Source))
	}
	if b.MaxDuration.V < 0 {
		errs = append(errs, fmt.Errorf("max duration from %s is negative; give a duration such as 10m, or 0 for no limit", b.MaxDuration.Source))
	}
	return errs
}

// CheckBudget reports a budget that cannot be enforced for model: a cost
// limit without the model's prices.
func (c *Config) CheckBudget(model string) error {
	if c.Budget.MaxCost.V <= 0 {
		return nil
	}
	ms := c.ModelSettings(model)
	if ms.PriceInput == 0 && ms.PriceOutput == 0 {
		return fmt.Errorf("the cost limit (from %s) needs the prices of model %q: add them to %s, e.g. "+
			"[models.%q] price_input = 0.15 and price_output = 0.60 (per million tokens)",
			c.Budget.MaxCost.Source, model, c.fileName(), model)
	}
	return nil
}

// fileName names the config file for messages.
func (c *Config) fileName() string {
	if c.File == "" {
		return "$TERN_HOME/config.toml"
	}
	return c.File
}
