// Package openai is tern's provider for any OpenAI-compatible gateway
// (hosted APIs, OpenRouter, Ollama, vLLM, llama.cpp and the like). Requests
// go out through go-openai's streaming client; the event stream is read and
// decoded here, because gateways differ in ways go-openai's reader does not
// survive (keep-alive comments before an error, a connection dropped without
// [DONE]) and because its per-line regexps and encoding/json cost most of
// the per-event budget. No go-openai type leaves this package.
package openai

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	goopenai "github.com/sashabaranov/go-openai"

	"github.com/ternhq/tern/provider"
)

// Provider streams completions from one OpenAI-compatible gateway. It is
// safe for concurrent use; each Stream is used by one goroutine.
type Provider struct {
	cfg    Config
	client *goopenai.Client
	// doer carries every request, go-openai's and ListModelInfo's.
	doer *doer
	// wait sleeps between attempts; tests replace it to observe the waits.
	wait func(ctx context.Context, d time.Duration) error
	// jitter returns a random value in [0, n) for backoff.
	jitter func(n int64) int64
	// bodies keeps the paced bodies' buffers between answers.
	bodies *bufferPool
}

var _ provider.Provider = (*Provider)(nil)

// New returns a provider for the gateway cfg describes, after checking the
// configuration. It does not contact the gateway.
func New(cfg Config) (*Provider, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	oc := goopenai.DefaultConfig(cfg.APIKey)
	oc.BaseURL = cfg.BaseURL
	d := &doer{client: cfg.HTTPClient, headers: cfg.Headers, modelHeaders: cfg.ModelHeaders, model: cfg.Model}
	oc.HTTPClient = d
	return &Provider{
		bodies: &bufferPool{},
		cfg:    cfg,
		client: goopenai.NewClientWithConfig(oc),
		doer:   d,
		wait:   sleep,
		jitter: rand.Int64N,
	}, nil
}

// Stream starts a streaming completion with req.Model, or the configured
// model when req names none. Failures before the answer starts (refused
// connections, 429, 5xx, a stream that breaks before its first delta) are
// retried with backoff; the error returned, and any from the stream's Err, is
// a *provider.Error.
func (p *Provider) Stream(ctx context.Context, req provider.Request) (provider.Stream, error) {
	model := cmp.Or(req.Model, p.cfg.Model)
	if model == "" {
		return nil, &provider.Error{
			Kind:    provider.ErrBadRequest,
			Message: "no model is configured; set LLM_MODEL or --model (`tern doctor` lists the gateway's models)",
		}
	}
	oreq, err := chatRequest(req, model)
	if err != nil {
		return nil, &provider.Error{Kind: provider.ErrBadRequest, Message: err.Error(), Err: err}
	}
	s := &stream{p: p, ctx: ctx, req: oreq}
	if p.cfg.reasoningObject && oreq.ReasoningEffort != "" {
		s.effortObject, s.req.ReasoningEffort = oreq.ReasoningEffort, ""
	}
	if err := s.connect(); err != nil {
		return nil, imageRefusal(err, req, model)
	}
	return s, nil
}

// imageRefusal adds to a gateway's refusal of a request that carried
// images what to do when the model takes none: the usual cause of a 400
// then, which gateways word in many ways.
func imageRefusal(err error, req provider.Request, model string) error {
	var pe *provider.Error
	if !errors.As(err, &pe) || pe.Kind != provider.ErrBadRequest || !slices.ContainsFunc(req.Messages, func(m provider.Message) bool { return len(m.Images) > 0 }) {
		return err
	}
	pe.Message += fmt.Sprintf("\nThe request carried images: if %s does not accept image input, set vision = false under [models.%q] in config.toml, "+
		"and tern will refuse to send it images (or switch to a model that takes them).", model, model)
	return pe
}
