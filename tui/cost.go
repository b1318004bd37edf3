package tui

import (
	"fmt"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tui/sanitize"
)

// Prices are a model's prices in currency units per million tokens, from
// the per-model config; a zero CachedInput means cached tokens cost Input.
type Prices struct {
	Input, CachedInput, Output float64
}

// cost returns what u costs at these prices.
func (p Prices) cost(u provider.Usage) float64 {
	cached := min(u.CachedPromptTokens, u.PromptTokens)
	cachedPrice := p.CachedInput
	if cachedPrice == 0 {
		cachedPrice = p.Input
	}
	return (float64(u.PromptTokens-cached)*p.Input + float64(cached)*cachedPrice + float64(u.CompletionTokens)*p.Output) / 1e6
}

// meter adds up the session's model requests for /cost. A request is
// counted when its turn starts, or when its first output arrives after tool
// results; time to first token runs from there to the first text, reasoning
// or tool call.
type meter struct {
	requests int
	reported int // requests whose usage the gateway reported
	usage    provider.Usage
	money    float64
	unpriced int // reported requests made with a model that has no prices
	ttft     []time.Duration

	// The model request in flight.
	waiting bool      // the next output is a request's first
	counted bool      // that request is counted already (its turn started)
	since   time.Time // when it was sent, about
}

// start notes a model request about to be sent at now; counted says it is
// counted already.
func (mt *meter) start(now time.Time, counted bool) {
	mt.waiting, mt.counted, mt.since = true, counted, now
	if counted {
		mt.requests++
	}
}

// firstOutput notes output at now: the first one of a request gives its
// time to first token.
func (mt *meter) firstOutput(now time.Time) {
	if !mt.waiting {
		return
	}
	if !mt.counted {
		mt.requests++
	}
	mt.ttft = append(mt.ttft, now.Sub(mt.since))
	mt.waiting = false
}

// retry notes that the request is sent again at t; it was counted already
// if its first output came.
func (mt *meter) retry(t time.Time) {
	mt.counted = mt.counted || !mt.waiting
	mt.waiting, mt.since = true, t
}

// add records one request's reported usage, priced when p is set.
func (mt *meter) add(u provider.Usage, p *Prices) {
	mt.reported++
	mt.usage = mt.usage.Add(u)
	if p != nil {
		mt.money += p.cost(u)
	} else {
		mt.unpriced++
	}
	if mt.waiting && !mt.counted { // usage without output: still a request
		mt.requests++
		mt.waiting = false
	}
}

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

// prices returns the prices for the current model: the configured ones
// apply to the model the session started with.
func (m *model) prices() *Prices {
	if m.opts.Prices == nil || m.be.Model() != m.pricedModel {
		return nil
	}
	return m.opts.Prices
}

func (m *model) cmdCost(string) tea.Cmd {
	th := m.rc.th
	mt := &m.meter
	u := mt.usage
	row := func(label, value string) string { return fmt.Sprintf("  %-20s %s", label, value) }
	lines := []string{th.bold.Render("Session cost")}
	lines = append(lines, row("model requests", fmt.Sprint(max(mt.requests, mt.reported))))
	if mt.reported < mt.requests {
		lines = append(lines, th.warn.Render(fmt.Sprintf("  the gateway reported usage for %d of %d requests; the figures below count only those", mt.reported, mt.requests)))
	}
	lines = append(lines,
		row("prompt tokens", fmt.Sprint(u.PromptTokens)),
		row("  cached", fmt.Sprint(u.CachedPromptTokens)),
		row("completion tokens", fmt.Sprint(u.CompletionTokens)),
	)
	if u.PromptTokens > 0 {
		lines = append(lines, row("cache hit rate", fmt.Sprintf("%.0f%%", 100*float64(u.CachedPromptTokens)/float64(u.PromptTokens))))
	}
	if d, ok := mt.medianTTFT(); ok {
		lines = append(lines, row("first token (median)", fmtDuration(d)+th.dim.Render(fmt.Sprintf(" over %d requests, as seen here", len(mt.ttft)))))
	}
	switch {
	case m.opts.Prices == nil:
		lines = append(lines, row("cost", th.dim.Render("no prices configured for "+sanitize.Clean(m.pricedModel)+" (price_input, price_cached_input, price_output)")))
	case mt.unpriced > 0:
		lines = append(lines, row("cost", fmt.Sprintf("$%.4f", mt.money)+th.warn.Render(fmt.Sprintf(" + %d requests on other models, not priced", mt.unpriced))))
	default:
		lines = append(lines, row("cost", fmt.Sprintf("$%.4f", mt.money)))
	}
	m.tr.end()
	m.tr.add(&noticeBlock{lines: lines, hangs: slices.Repeat([]int{23}, len(lines))})
	return nil
}
