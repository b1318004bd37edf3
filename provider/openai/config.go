package openai

import (
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"time"
)

// Defaults applied by New when a Config field is zero.
const (
	DefaultMaxAttempts = 4
	DefaultBaseBackoff = 500 * time.Millisecond
)

// Config says which gateway to talk to and how hard to try.
type Config struct {
	// BaseURL is the gateway's API root, usually ending in /v1
	// (e.g. http://localhost:11434/v1); /chat/completions and /models are
	// appended to it.
	BaseURL string
	// APIKey is sent as a bearer token; empty sends no Authorization header,
	// which local servers accept.
	APIKey string
	// Model is the model id used when a Request names none. It is opaque:
	// sent as given, never parsed.
	Model string
	// Headers are added to every request (e.g. OpenRouter's HTTP-Referer);
	// they override the defaults, Authorization included.
	Headers map[string]string
	// ModelHeaders maps a model id to extra headers for the requests made
	// with that model, chosen per request so they follow a model change;
	// they override Headers. Requests that name no model (the model list)
	// use Model's.
	ModelHeaders map[string]map[string]string
	// MaxAttempts bounds the attempts per request, first one included;
	// 0 means DefaultMaxAttempts, 1 disables retries.
	MaxAttempts int
	// HTTPClient carries the requests; nil means a client without timeout
	// on a transport of the provider's own with http.DefaultTransport's
	// settings, whose connections wake tern less often while an answer
	// streams (dial.go).
	// A Client.Timeout also bounds reading the body, which cuts long
	// answers short: prefer contexts.
	HTTPClient *http.Client
	// BaseBackoff is the first retry's wait before jitter; it doubles with
	// each attempt. 0 means DefaultBaseBackoff.
	BaseBackoff time.Duration
	// FirstTokenTimeout bounds the wait from sending a request to the
	// first data event of its answer; StreamIdleTimeout bounds the gap
	// between data events after that (keep-alive comments do not count).
	// Either ends the attempt as a retryable network error. 0 means
	// DefaultFirstTokenTimeout and DefaultStreamIdleTimeout; a negative
	// value means no limit.
	FirstTokenTimeout time.Duration
	StreamIdleTimeout time.Duration

	// reasoningObject says the gateway takes the effort as OpenRouter's
	// reasoning object; set by withDefaults from the base URL.
	reasoningObject bool
}

// withDefaults checks c and fills in its zero fields.
func (c Config) withDefaults() (Config, error) {
	if c.BaseURL == "" {
		return c, errors.New("openai provider: no base URL: set LLM_BASE_URL (e.g. https://api.openai.com/v1)")
	}
	u, err := url.Parse(c.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return c, fmt.Errorf("openai provider: base URL %q is not an http(s) URL (e.g. https://api.openai.com/v1)", c.BaseURL)
	}
	c.reasoningObject = takesReasoningObject(u)
	switch {
	case c.MaxAttempts < 0:
		return c, fmt.Errorf("openai provider: MaxAttempts is %d, want 0 (default) or more", c.MaxAttempts)
	case c.MaxAttempts == 0:
		c.MaxAttempts = DefaultMaxAttempts
	}
	switch {
	case c.BaseBackoff < 0:
		return c, fmt.Errorf("openai provider: BaseBackoff is %v, want 0 (default) or more", c.BaseBackoff)
	case c.BaseBackoff == 0:
		c.BaseBackoff = DefaultBaseBackoff
	}
	if c.FirstTokenTimeout == 0 {
		c.FirstTokenTimeout = DefaultFirstTokenTimeout
	}
	if c.StreamIdleTimeout == 0 {
		c.StreamIdleTimeout = DefaultStreamIdleTimeout
	}
	if c.HTTPClient == nil {
		c.HTTPClient = newHTTPClient()
	}
	// Copied so a caller changing its map cannot race with requests.
	c.Headers = maps.Clone(c.Headers)
	mh := make(map[string]map[string]string, len(c.ModelHeaders))
	for id, h := range c.ModelHeaders {
		mh[id] = maps.Clone(h)
	}
	c.ModelHeaders = mh
	return c, nil
}
