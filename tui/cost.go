package tui

import (
	"fmt"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/internal/app"
	"github.com/ternhq/tern/internal/sanitize"
	"github.com/ternhq/tern/provider"
)

// Prices are a model's prices in currency units per million tokens, from
// the per-model config; a zero CachedInput means cached tokens cost Input.
type Prices = agent.Prices

// meter adds up the session's model requests for /cost and the status
// line, from the agent's measures: EventRequest for what each request
// carried, EventUsage for what it used and how long it took.
type meter struct {
	requests int // EventRequest seen
	reported int // requests whose usage the gateway reported
	usage    provider.Usage
	// estimated sums tern's estimates for requests the gateway reported no
	// usage for (estimates of them); they are not in usage.
	estimated provider.Usage
	estimates int
	money     float64
	unpriced  int // requests made with a model that has no prices
	ttft      []time.Duration
	// sent and toolBytes sum the requests' bytes and their tool results.
	sent, toolBytes int
	// lastEstimated says the last request's usage is an estimate.
	lastEstimated bool
	// last measures the last request sent; nil before any.
	last *agent.RequestInfo
	// prevBytes is the size of the request before it, for the prefix.
	prevBytes int
	// window is the context window the session reported for a model.
	window modelWindowInfo
	// subRequests, subUsage and subMoney are the task calls' subagents'
	// requests, apart from the session's own (money includes subMoney).
	subRequests int
	subUsage    provider.Usage
	subMoney    float64
	// models splits the usage by model, in the order they were first used,
	// so /cost can tell them apart after a /model switch.
	models []modelCost
}

// modelCost is one model's share of the session.
type modelCost struct {
	name     string
	requests int
	usage    provider.Usage // reported and estimated
	money    float64
	priced   bool
}

// request counts a request as it goes out.
func (mt *meter) request(r *agent.RequestInfo) {
	if r == nil {
		return
	}
	mt.requests++
	if mt.last != nil {
		mt.prevBytes = mt.last.Bytes - mt.last.ToolsBytes
	}
	mt.last = r
	mt.sent += r.Bytes
	mt.toolBytes += r.ToolResultBytes
}

// add records one request's usage by model, priced when p is set. r is nil
// for usage that was not measured live (a resumed session's totals).
func (mt *meter) add(model string, u provider.Usage, r *agent.ResponseInfo, p *Prices) {
	i := slices.IndexFunc(mt.models, func(c modelCost) bool { return c.name == model })
	if i < 0 {
		mt.models = append(mt.models, modelCost{name: model, priced: p != nil})
		i = len(mt.models) - 1
	}
	mc := &mt.models[i]
	mc.requests++
	mc.usage = mc.usage.Add(u)
	if p != nil {
		mc.money += p.Cost(u)
	}
	mt.lastEstimated = r != nil && r.Estimated
	if mt.lastEstimated {
		mt.estimates++
		mt.estimated = mt.estimated.Add(u)
	} else {
		mt.reported++
		mt.usage = mt.usage.Add(u)
	}
	if r != nil && r.FirstToken > 0 {
		mt.ttft = append(mt.ttft, r.FirstToken)
	}
	if p != nil {
		mt.money += p.Cost(u)
	} else {
		mt.unpriced++
	}
}

// anyEstimated says some figure includes tern's estimates.
func (mt *meter) anyEstimated() bool { return mt.estimates > 0 }

// medianTTFT is the median time to first token; ok is false before any.
func (mt *meter) medianTTFT() (d time.Duration, ok bool) {
	if len(mt.ttft) == 0 {
		return 0, false
	}
	s := slices.Clone(mt.ttft)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2], true
	}
	return (s[n/2-1] + s[n/2]) / 2, true
}

// prices returns the prices for the current model; nil when it has none.
func (m *model) prices() *Prices {
	p, _ := m.pricesOf(m.be.Model())
	return p
}

// pricesOf returns model's prices and where they came from: Options.Prices
// for the model the session started with, else what the session knows
// (configured, else the model database's list prices).
func (m *model) pricesOf(model string) (*Prices, app.PriceSource) {
	if m.opts.Prices != nil && model == m.pricedModel {
		return m.opts.Prices, app.PricesConfigured
	}
	p, source := m.be.Prices(model)
	if source == app.PricesNone {
		return nil, source
	}
	return &p, source
}

// costStatus is the session's cost for the status line; "" before any is
// known. List prices are marked as such.
func (m *model) costStatus() string {
	mt := &m.meter
	if mt.money <= 0 {
		return ""
	}
	s := approx(mt.anyEstimated(), fmt.Sprintf("$%.4f", mt.money))
	if _, source := m.pricesOf(m.be.Model()); source == app.PricesList {
		s += " list"
	}
	return s
}

// approx prefixes "~" to a figure that includes estimates.
func approx(estimated bool, s string) string {
	if estimated {
		return "~" + s
	}
	return s
}

func (m *model) cmdCost(string) tea.Cmd {
	th := m.rc.th
	mt := &m.meter
	est := mt.anyEstimated()
	u := mt.usage.Add(mt.estimated)
	row := func(label, value string) string { return fmt.Sprintf("  %-20s %s", label, value) }
	lines := []string{th.bold.Render("Session cost")}
	model := sanitize.Clean(m.be.Model())
	lines = append(lines, row("model", model))
	lines = append(lines, row("model requests", fmt.Sprint(max(mt.requests, mt.reported+mt.estimates))))
	lines = append(lines,
		row("prompt tokens", approx(est && mt.estimated.PromptTokens > 0, fmt.Sprint(u.PromptTokens))),
		row("  cached", fmt.Sprint(u.CachedPromptTokens)),
		row("completion tokens", approx(est && mt.estimated.CompletionTokens > 0, fmt.Sprint(u.CompletionTokens))),
	)
	if mt.usage.PromptTokens > 0 {
		// Over the reported requests only: estimates have no cache figure.
		lines = append(lines, row("cache hit rate", fmt.Sprintf("%.0f%%", 100*float64(mt.usage.CachedPromptTokens)/float64(mt.usage.PromptTokens))))
	}
	if d, ok := mt.medianTTFT(); ok {
		lines = append(lines, row("first token (median)", fmtDuration(d)+th.dim.Render(fmt.Sprintf(" over %d requests", len(mt.ttft)))))
	}
	if mt.sent > 0 {
		lines = append(lines, row("sent", fmt.Sprintf("%s, %.0f%% tool results", bytesText(mt.sent), 100*float64(mt.toolBytes)/float64(mt.sent))))
	}
	current, source := m.pricesOf(m.be.Model())
	switch {
	case current == nil && mt.money == 0:
		lines = append(lines, row("cost", th.dim.Render("no prices configured for "+model+" (price_input, price_cached_input, price_output)")))
	case mt.unpriced > 0:
		lines = append(lines, row("cost", approx(est, fmt.Sprintf("$%.4f", mt.money))+th.warn.Render(fmt.Sprintf(" + %d requests on other models, not priced", mt.unpriced))))
	default:
		lines = append(lines, row("cost", approx(est, fmt.Sprintf("$%.4f", mt.money))))
	}
	if source == app.PricesList {
		lines = append(lines, row("prices", th.dim.Render(fmt.Sprintf("list prices from the model database: $%g in, $%g cached, $%g out per million tokens; set price_input, price_cached_input, price_output to use yours",
			current.Input, current.CachedInput, current.Output))))
	}
	if mt.subRequests > 0 {
		cost := ""
		if current != nil {
			cost = fmt.Sprintf(" · $%.4f (in the cost above)", mt.subMoney)
		}
		lines = append(lines, row("subagents", fmt.Sprintf("%s · %d prompt · %d completion tokens%s",
			plural(mt.subRequests, "request"), mt.subUsage.PromptTokens, mt.subUsage.CompletionTokens, cost)))
	}
	if len(mt.models) > 1 {
		lines = append(lines, row("by model", ""))
		for _, mc := range mt.models {
			cost := th.dim.Render("not priced")
			if mc.priced {
				cost = fmt.Sprintf("$%.4f", mc.money)
			}
			lines = append(lines, row("  "+sanitize.Clean(mc.name), fmt.Sprintf("%s · %d prompt · %d completion tokens · %s",
				plural(mc.requests, "request"), mc.usage.PromptTokens, mc.usage.CompletionTokens, cost)))
		}
	}
	if est {
		lines = append(lines, th.dim.Render(fmt.Sprintf("  ~ estimated at %d bytes a token: the gateway reported no usage for %d of %d requests",
			agent.BytesPerToken, mt.estimates, mt.reported+mt.estimates)))
	}
	m.tr.end()
	m.tr.add(&noticeBlock{lines: lines, hangs: slices.Repeat([]int{23}, len(lines))})
	return nil
}

// bytesText writes a byte count in B, KB or MB.
func bytesText(n int) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case n >= 1000:
		return fmt.Sprintf("%.1f KB", float64(n)/1e3)
	}
	return fmt.Sprintf("%d B", n)
}
