package agent

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/ternhq/tern/provider"
)

// ErrBudget is wrapped by the error of a turn stopped by its budget.
var ErrBudget = errors.New("budget reached")

// Prices are a model's prices in currency units per million tokens; a zero
// CachedInput means cached prompt tokens cost Input.
type Prices struct {
	Input, CachedInput, Output float64
}

// Cost returns what u costs at these prices: uncached prompt tokens at
// Input, cached ones at CachedInput, completion tokens at Output.
func (p Prices) Cost(u provider.Usage) float64 {
	cached := min(max(u.CachedPromptTokens, 0), u.PromptTokens)
	cachedPrice := p.CachedInput
	if cachedPrice == 0 {
		cachedPrice = p.Input
	}
	return (float64(u.PromptTokens-cached)*p.Input + float64(cached)*cachedPrice + float64(u.CompletionTokens)*p.Output) / 1e6
}

// Budget limits each turn (a headless run is one turn); zero fields set no
// limit. When a limit is reached no new model request starts and the turn
// ends with FinishBudget; MaxDuration also interrupts the request or tool
// running when it passes, as a cancel would, so every call still gets a
// result.
type Budget struct {
	// MaxCost is the most the turn may spend, in Prices' currency; it
	// needs Prices. Spending is checked after each request, so the last
	// one may go over by its own cost.
	MaxCost float64
	// Prices price the usage, estimates included; nil without MaxCost is
	// fine (Finish.Cost stays 0).
	Prices *Prices
	// MaxRequests is the most model requests the turn may send, retries
	// included.
	MaxRequests int
	// MaxDuration is the most wall-clock time the turn may take.
	MaxDuration time.Duration
}

// Validate reports a budget that cannot be enforced.
func (b Budget) Validate() error {
	switch {
	case b.MaxCost < 0, b.MaxRequests < 0, b.MaxDuration < 0:
		return errors.New("budget limits must not be negative")
	case b.MaxCost > 0 && (b.Prices == nil || (b.Prices.Input == 0 && b.Prices.Output == 0)):
		return errors.New("a cost limit needs the model's prices (price_input and price_output)")
	}
	return nil
}

// spend is what a turn has used of its budget. The turn's subagents
// share it (they run on goroutines of their own), so it is locked.
type spend struct {
	budget Budget

	mu       sync.Mutex
	requests int
	cost     float64
}

// add counts one request's usage.
func (s *spend) add(u provider.Usage) {
	if s.budget.Prices != nil {
		s.mu.Lock()
		s.cost += s.budget.Prices.Cost(u)
		s.mu.Unlock()
	}
}

// request counts one model request sent.
func (s *spend) request() {
	s.mu.Lock()
	s.requests++
	s.mu.Unlock()
}

// totals returns the requests sent and their cost so far.
func (s *spend) totals() (int, float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests, s.cost
}

// exceeded returns the error that stops the turn before another request,
// or nil while the budget allows one.
func (s *spend) exceeded() error {
	b := s.budget
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case b.MaxRequests > 0 && s.requests >= b.MaxRequests:
		noun := "requests"
		if s.requests == 1 {
			noun = "request"
		}
		return fmt.Errorf("the turn stopped after %d model %s (the request budget, --max-requests): %w", s.requests, noun, ErrBudget)
	case b.MaxCost > 0 && s.cost >= b.MaxCost:
		return fmt.Errorf("the turn stopped after spending about $%.4f (the cost budget, --max-cost, is $%.4f): %w", s.cost, b.MaxCost, ErrBudget)
	}
	return nil
}

// SetBudget sets the limits of the turns that start from now on.
func (a *Agent) SetBudget(b Budget) error {
	if err := b.Validate(); err != nil {
		return err
	}
	a.mu.Lock()
	a.opts.Budget = b
	a.mu.Unlock()
	return nil
}

// durationError says the time budget ran out.
func durationError(b Budget) error {
	return fmt.Errorf("the turn stopped after %s (the time budget, --max-duration): %w", b.MaxDuration, ErrBudget)
}
