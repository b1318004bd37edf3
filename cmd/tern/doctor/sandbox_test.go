package doctor

import (
	"context"
	"strings"
	"testing"

	"github.com/ternhq/tern/cmd/tern/config"
	"github.com/ternhq/tern/tools/sandbox"
)

func TestSandboxCheck(t *testing.T) {
	t.Parallel()
	cfg := func(on bool) *config.Config {
		return &config.Config{
			Sandbox:       config.Value[bool]{V: on, Source: config.Source{Kind: config.SourceDefault}},
			DenyRead:      config.Value[[]string]{V: []string{"/h/.ssh"}, Source: config.Source{Kind: config.SourceDefault}},
			WritableRoots: config.Value[[]string]{Source: config.Source{Kind: config.SourceDefault}},
		}
	}
	for _, tc := range []struct {
		name   string
		on     bool
		st     sandbox.Status
		mark   Mark
		detail []string
	}{
		{"active", true, sandbox.Status{Active: true, ABI: 7, Summary: "on (Landlock ABI 7)"}, Pass,
			[]string{"Landlock ABI 7", "deny_read /h/.ssh (default)", "writable_roots none"}},
		{"no network on an old kernel", true, sandbox.Status{Active: true, ABI: 3, Summary: "on", Warning: "--no-network has no effect"}, Fail, nil},
		{"unavailable", true, sandbox.Status{Summary: "unavailable: no Landlock; tern relies on approvals", Warning: "no sandbox"}, Skip,
			[]string{"relies on approvals", "(sandbox default)"}},
		{"off", false, sandbox.Status{Summary: "off (--sandbox off)"}, Pass, []string{"off"}},
	} {
		ch := sandboxCheck(cfg(tc.on), tc.st)
		if ch.Mark != tc.mark || ch.Mark == Fail && ch.Fix == "" {
			t.Errorf("%s: mark %s fix %q", tc.name, ch.Mark.Symbol(), ch.Fix)
		}
		for _, d := range tc.detail {
			if !strings.Contains(ch.Detail, d) {
				t.Errorf("%s: detail %q lacks %q", tc.name, ch.Detail, d)
			}
		}
	}
}

// TestDoctorReportsTheSandbox checks the line on this machine's kernel.
func TestDoctorReportsTheSandbox(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	cfg, err := config.Load(config.Inputs{Getenv: func(k string) string {
		return map[string]string{config.EnvHome: home, config.EnvMock: "1"}[k]
	}})
	if err != nil {
		t.Fatal(err)
	}
	c := find(Run(context.Background(), Options{Config: cfg}), "sandbox")
	abi, ok, why := sandbox.Available()
	switch {
	case ok && (c.Mark != Pass || !strings.Contains(c.Detail, "Landlock ABI")):
		t.Errorf("Landlock ABI %d available, line %s %q", abi, c.Mark.Symbol(), c.Detail)
	case !ok && (c.Mark != Skip || !strings.Contains(c.Detail, why)):
		t.Errorf("Landlock unavailable (%s), line %s %q", why, c.Mark.Symbol(), c.Detail)
	}
}
