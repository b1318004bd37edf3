package providertest

import (
	"context"
	"slices"
	"sync"

	"github.com/ternhq/tern/provider"
)

// Provider replays its scripts, one per request, and records the requests.
// The zero value has no scripts: every request is refused.
type Provider struct {
	mu      sync.Mutex
	scripts []Script
	reqs    []provider.Request
	// repeat replays the last script forever once the others are used.
	repeat bool
}

// New returns a provider that answers with scripts in order.
func New(scripts ...Script) *Provider { return &Provider{scripts: scripts} }

// Add appends scripts for later requests.
func (p *Provider) Add(scripts ...Script) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.scripts = append(p.scripts, scripts...)
}

// Reset replaces the scripts still to play with scripts; with repeat, the
// last of them is replayed for every request after the others.
func (p *Provider) Reset(repeat bool, scripts ...Script) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.scripts, p.repeat = scripts, repeat
}

// Stream records req and answers with the next script; with none left it
// refuses the request as a bad one.
func (p *Provider) Stream(ctx context.Context, req provider.Request) (provider.Stream, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	// The caller may reuse the slices it sent; the record keeps what was sent.
	req.Messages = cloneMessages(req.Messages)
	p.reqs = append(p.reqs, req)
	if len(p.scripts) == 0 {
		return nil, &provider.Error{Kind: provider.ErrBadRequest, Message: "the test scripted no more answers"}
	}
	s := p.scripts[0]
	if len(p.scripts) > 1 || !p.repeat {
		p.scripts = p.scripts[1:]
	}
	if tr := provider.TraceFrom(ctx); tr != nil && tr.Retrying != nil {
		for _, r := range s.Retried {
			tr.Retrying(r)
		}
	}
	if s.StartErr != nil {
		return nil, s.StartErr
	}
	return NewStream(ctx, s), nil
}

// Requests returns the requests received so far.
func (p *Provider) Requests() []provider.Request {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.reqs)
}

// cloneMessages copies messages and their tool calls.
func cloneMessages(ms []provider.Message) []provider.Message {
	if ms == nil {
		return nil
	}
	out := make([]provider.Message, len(ms))
	for i, m := range ms {
		m.ToolCalls = slices.Clone(m.ToolCalls)
		out[i] = m
	}
	return out
}
