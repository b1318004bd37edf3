package config

import (
	"strings"
	"testing"
)

func TestCompactThreshold(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		toml    string
		want    int
		fromSrc SourceKind
		err     string
	}{
		{toml: "", want: DefaultCompactThreshold, fromSrc: SourceDefault},
		{toml: "compact_threshold = 70\n", want: 70, fromSrc: SourceFile},
		{toml: "compact_threshold = 0\n", want: 0, fromSrc: SourceFile},
		{toml: "compact_threshold = 120\n", want: 120, fromSrc: SourceFile, err: "compact threshold"},
		{toml: "compact_threshold = -5\n", want: -5, fromSrc: SourceFile, err: "or 0 to turn automatic compaction off"},
	} {
		home := writeHome(t, tc.toml)
		c, err := Load(Inputs{Getenv: envFunc(map[string]string{EnvHome: home})})
		if got := c.CompactThreshold; got.V != tc.want || got.Source.Kind != tc.fromSrc {
			t.Errorf("%q: threshold %d from %v", tc.toml, got.V, got.Source)
		}
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%q: %v", tc.toml, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: error %v, want one about %q", tc.toml, err, tc.err)
		}
	}
}
