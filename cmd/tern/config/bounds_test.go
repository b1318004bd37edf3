package config

import (
	"strings"
	"testing"
	"time"
)

func TestBounds(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		toml        string
		first, idle time.Duration
		answer      int
		fromSrc     SourceKind
		err         string
	}{
		{toml: "", first: DefaultFirstTokenTimeout, idle: DefaultStreamIdleTimeout, answer: DefaultMaxAnswerBytes, fromSrc: SourceDefault},
		{toml: "first_token_timeout = \"10m\"\nstream_idle_timeout = \"45s\"\nmax_answer_bytes = 2097152\n",
			first: 10 * time.Minute, idle: 45 * time.Second, answer: 2 << 20, fromSrc: SourceFile},
		{toml: "first_token_timeout = \"0s\"\nstream_idle_timeout = \"0s\"\nmax_answer_bytes = 0\n", fromSrc: SourceFile},
		{toml: "first_token_timeout = \"soon\"\n", idle: DefaultStreamIdleTimeout, answer: DefaultMaxAnswerBytes, fromSrc: SourceFile,
			err: "first_token_timeout from"},
		{toml: "stream_idle_timeout = \"-1s\"\n", first: DefaultFirstTokenTimeout, idle: -time.Second, answer: DefaultMaxAnswerBytes, fromSrc: SourceFile,
			err: "stream_idle_timeout from"},
		{toml: "max_answer_bytes = 100\n", first: DefaultFirstTokenTimeout, idle: DefaultStreamIdleTimeout, answer: 100, fromSrc: SourceFile,
			err: "max_answer_bytes from"},
		{toml: "max_answer_bytes = -1\n", first: DefaultFirstTokenTimeout, idle: DefaultStreamIdleTimeout, answer: -1, fromSrc: SourceFile,
			err: "or 0 for no limit"},
	} {
		home := writeHome(t, tc.toml)
		c, err := Load(Inputs{Getenv: envFunc(map[string]string{EnvHome: home})})
		b := c.Bounds
		if b.FirstTokenTimeout.V != tc.first || b.StreamIdleTimeout.V != tc.idle || b.MaxAnswerBytes.V != tc.answer {
			t.Errorf("%q: first %v, idle %v, answer %d; want %v, %v, %d", tc.toml,
				b.FirstTokenTimeout.V, b.StreamIdleTimeout.V, b.MaxAnswerBytes.V, tc.first, tc.idle, tc.answer)
		}
		if tc.err == "" && tc.toml != "" {
			for _, s := range []Source{b.FirstTokenTimeout.Source, b.StreamIdleTimeout.Source, b.MaxAnswerBytes.Source} {
				if s.Kind != tc.fromSrc {
					t.Errorf("%q: source %v, want kind %v", tc.toml, s, tc.fromSrc)
				}
			}
		}
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%q: %v", tc.toml, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: error %v, want one about %q", tc.toml, err, tc.err)
		}
	}
}
