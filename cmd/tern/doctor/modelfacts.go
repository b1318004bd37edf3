package doctor

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ternhq/tern/cmd/tern/config"
	"github.com/ternhq/tern/provider/models"
)

// ModelFacts are where doctor learns what tern knows of the model beyond
// config.toml; either may be nil (offline: both are).
type ModelFacts struct {
	// Info looks the model up in the model database.
	Info func(model string) (models.Info, bool)
	// Window asks the gateway's model list for the model's window.
	Window func(ctx context.Context, model string) (int, error)
}

// modelChecks say where the model's context window and prices come from,
// in the order tern uses them, and what it knows of its reasoning.
func modelChecks(ctx context.Context, c *config.Config, f ModelFacts, timeout time.Duration) []Check {
	model := c.Model.V
	ms := c.ModelSettings(model)
	var info models.Info
	known := false
	if f.Info != nil {
		info, known = f.Info(model)
	}
	from := ""
	if known {
		from = fmt.Sprintf("the model database (%s's %s, %s)", info.Provider, info.ID, info.Match)
	}

	window := Check{Mark: Pass, Name: "context window"}
	gateway := 0
	if ms.ContextWindow <= 0 && f.Window != nil {
		wctx, cancel := context.WithTimeout(ctx, timeout)
		gateway, _ = f.Window(wctx, model) // a gateway that says nothing leaves the next source
		cancel()
	}
	switch {
	case ms.ContextWindow > 0:
		window.Detail = fmt.Sprintf("%d tokens from config.toml (context_window)", ms.ContextWindow)
	case gateway > 0:
		window.Detail = fmt.Sprintf("%d tokens from the gateway's model list", gateway)
	case known && info.ContextWindow > 0:
		window.Detail = fmt.Sprintf("%d tokens from %s", info.ContextWindow, from)
	default:
		window.Detail = fmt.Sprintf("%d tokens assumed (default_context_window, %s): nothing knows this model's window; automatic compaction uses the assumed one",
			c.DefaultContextWindow.V, c.DefaultContextWindow.Source)
		window.Fix = fmt.Sprintf("set context_window under [models.%q] in config.toml", model)
	}

	prices := Check{Mark: Pass, Name: "prices"}
	switch {
	case ms.PriceInput > 0 || ms.PriceOutput > 0:
		prices.Detail = fmt.Sprintf("configured (config.toml): $%g in, $%g cached, $%g out per million tokens", ms.PriceInput, ms.PriceCachedInput, ms.PriceOutput)
	case known && info.Prices.Priced():
		p := info.Prices
		prices.Detail = fmt.Sprintf("list prices from %s: $%g in, $%g cached, $%g out per million tokens", from, p.Input, p.CachedInput, p.Output)
	default:
		prices.Mark = Skip
		prices.Detail = "none known: /cost and tern run report tokens, not money"
		prices.Fix = fmt.Sprintf("set price_input and price_output under [models.%q] in config.toml", model)
	}

	reasoning := Check{Mark: Pass, Name: "reasoning"}
	effort := c.ReasoningEffort.V
	switch {
	case !known:
		reasoning.Mark = Skip
		reasoning.Detail = "unknown to the model database: no reasoning effort is sent"
	case !info.Reasons:
		reasoning.Detail = "the model does not reason: no reasoning effort is sent"
	case effort == "":
		reasoning.Detail = fmt.Sprintf("the model reasons (efforts %s); its default effort is used", levels(info))
	case info.AcceptsEffort(effort):
		reasoning.Detail = fmt.Sprintf("effort %s (%s) of %s", effort, c.ReasoningEffort.Source, levels(info))
	default:
		reasoning.Mark = Fail
		reasoning.Detail = fmt.Sprintf("effort %q (%s) is not one of the model's levels (%s): none is sent", effort, c.ReasoningEffort.Source, levels(info))
		reasoning.Fix = "use one of the model's levels with --effort or reasoning_effort"
	}
	return []Check{window, prices, reasoning}
}

// levels lists a model's effort levels.
func levels(info models.Info) string {
	if len(info.EffortLevels) == 0 {
		return "not listed"
	}
	return strings.Join(info.EffortLevels, ", ")
}
