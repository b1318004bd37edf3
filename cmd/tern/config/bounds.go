package config

import (
	"fmt"
	"time"
)

// Defaults of the bounded waits and sizes (as the provider's and the
// agent's own defaults).
const (
	// DefaultFirstTokenTimeout bounds the wait from a model request to the
	// first data event of its answer.
	DefaultFirstTokenTimeout = 300 * time.Second
	// DefaultStreamIdleTimeout bounds the gap between data events of an
	// answer; keep-alive comments do not count.
	DefaultStreamIdleTimeout = 120 * time.Second
	// DefaultMaxAnswerBytes caps the text, reasoning and tool-call
	// arguments of one model answer.
	DefaultMaxAnswerBytes = 8 << 20
)

// Bounds are the limits that keep a gateway from holding tern waiting, or
// growing it, without end. Zero turns a limit off.
type Bounds struct {
	FirstTokenTimeout Value[time.Duration]
	StreamIdleTimeout Value[time.Duration]
	MaxAnswerBytes    Value[int]
}

// resolveBounds sets the bounds from the file's first_token_timeout,
// stream_idle_timeout and max_answer_bytes over the defaults.
func (c *Config) resolveBounds(fc fileConfig, file Source) []error {
	var errs []error
	b := &c.Bounds
	for _, d := range []struct {
		key  string
		file *string
		def  time.Duration
		val  *Value[time.Duration]
	}{
		{"first_token_timeout", fc.FirstTokenTimeout, DefaultFirstTokenTimeout, &b.FirstTokenTimeout},
		{"stream_idle_timeout", fc.StreamIdleTimeout, DefaultStreamIdleTimeout, &b.StreamIdleTimeout},
	} {
		*d.val = Value[time.Duration]{V: d.def, Source: Source{Kind: SourceDefault}}
		if d.file == nil {
			continue
		}
		v, err := time.ParseDuration(*d.file)
		switch {
		case err != nil:
			errs = append(errs, fmt.Errorf("%s from %s: %q is not a duration such as \"300s\" or \"2m\"", d.key, file, *d.file))
		case v < 0:
			errs = append(errs, fmt.Errorf("%s from %s is negative; give a duration such as \"300s\", or \"0s\" for no limit", d.key, file))
		}
		*d.val = Value[time.Duration]{V: v, Source: file}
	}
	b.MaxAnswerBytes = resolveInt(nil, "", fc.MaxAnswerBytes, file, DefaultMaxAnswerBytes)
	if v := b.MaxAnswerBytes; v.V < 0 || (v.V > 0 && v.V < 1024) {
		errs = append(errs, fmt.Errorf("max_answer_bytes from %s is %d; give at least 1024 bytes (the default is %d, 8 MiB), or 0 for no limit",
			v.Source, v.V, DefaultMaxAnswerBytes))
	}
	return errs
}
